import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { App, ParamsOf } from '../../platform/http/types.js';
import type { AuditActor } from '../audit/index.js';
import type { AccountCredentialKind } from '../auth/index.js';
import type { CredentialsService } from '../clients/index.js';
import { Deleted } from './credentials.schemas.js';

/** A route deleting one credential of a client: what its path, words and policy are, and whose credential it names. */
export interface CredentialDeletion<Named extends TSchema> {
  kind: AccountCredentialKind;
  url: string;
  config: FastifyContextConfig;
  tags: string[];
  summary: string;
  description: string;
  params: Named;
  /** The client and the credential the request names, and who deletes it. */
  named(request: FastifyRequest, params: ParamsOf<Named>): { clientId: string; code: string; actor: AuditActor };
}

/**
 * Deletes one API key or client secret, for whoever may: the client itself (/v1/account) or an
 * operator (admin API), with the same rules and the same answer.
 */
export function credentialDeletionRoute<Named extends TSchema>(app: App, credentials: CredentialsService, of: CredentialDeletion<Named>): void {
  app.delete(
    of.url,
    {
      config: of.config,
      schema: {
        tags: of.tags,
        summary: of.summary,
        description: of.description,
        params: of.params,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      const { clientId, code, actor } = of.named(request, request.params);
      await credentials.delete(clientId, of.kind, code, actor);
      return reply.code(204).send(null);
    },
  );
}
