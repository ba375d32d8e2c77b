import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import type { App, ParamsOf } from '../../platform/http/types.js';
import { uncachedByRequest } from '../../platform/lists/uncached-lists.js';
import { operatorActor } from '../audit/index.js';
import type { AccountCredentialKind } from '../auth/index.js';
import { ApiKeysPage, credentialDeletionRoute, credentialLists, CredentialsQuery, SecretsPage } from '../account/index.js';
import type { CredentialsService } from '../clients/index.js';
import { ADMIN_POLICY, CLIENT_CHANGE } from './admin.policy.js';

const tags = ['admin'];
const admin = { policy: ADMIN_POLICY };

// Not `format: uuid`: an id or code that names nothing is a 404, whatever its form.
const ClientParams = { client_id: Type.String({ description: 'Client identifier (UUID).' }) };
const KeyParams = Type.Object({ ...ClientParams, key_code: Type.String({ description: 'The key_code of the API key.' }) });
const SecretParams = Type.Object({ ...ClientParams, secret_code: Type.String({ description: 'The secret_code of the client secret.' }) });

/**
 * An operator sees and deletes a client's API keys and client secrets, with the same rules and
 * the same shapes as the client's own /v1/account endpoints (a listing never shows a
 * credential or a digest). The emergency reset of all of them stays POST …/credentials.
 */
export function adminCredentialsRoutes(app: App, deps: AdminCredentialsDeps): void {
  listRoute(app, deps, API_KEYS);
  listRoute(app, deps, SECRETS);
  deleteRoute(app, deps, API_KEYS);
  deleteRoute(app, deps, SECRETS);
}

interface AdminCredentialsDeps {
  credentials: CredentialsService;
  clock: Clock;
}

/** What the routes of one kind of credential say: those of API keys and those of client secrets differ only here. */
interface AdminCredentialRoutesOf<Named extends TSchema> {
  kind: AccountCredentialKind;
  list: { url: string; summary: string; description: string; page: TSchema };
  delete: {
    url: string;
    summary: string;
    description: string;
    params: Named;
    /** The client and the credential the path names. */
    named(params: ParamsOf<Named>): { clientId: string; code: string };
  };
}

const API_KEYS: AdminCredentialRoutesOf<typeof KeyParams> = {
  kind: 'api_key',
  list: {
    url: '/admin/v1/clients/:client_id/api-keys',
    summary: "A client's API keys",
    description: 'Every key not deleted, oldest first, expired ones included. Never the keys themselves.',
    page: ApiKeysPage,
  },
  delete: {
    url: '/admin/v1/clients/:client_id/api-keys/:key_code',
    summary: "Delete one of a client's API keys",
    description: 'As the client itself would: its sessions end at once; 409 for the last active key of an account that enables API keys.',
    params: KeyParams,
    named: (params) => ({ clientId: params.client_id, code: params.key_code }),
  },
};

const SECRETS: AdminCredentialRoutesOf<typeof SecretParams> = {
  kind: 'client_secret',
  list: {
    url: '/admin/v1/clients/:client_id/secrets',
    summary: "A client's client secrets",
    description: 'Every secret not deleted, oldest first. Never the secrets themselves.',
    page: SecretsPage,
  },
  delete: {
    url: '/admin/v1/clients/:client_id/secrets/:secret_code',
    summary: "Delete one of a client's client secrets",
    description: 'As the client itself would: its sessions end at once; 409 for the last secret of an account that enables OAuth.',
    params: SecretParams,
    named: (params) => ({ clientId: params.client_id, code: params.secret_code }),
  },
};

function listRoute<Named extends TSchema>(app: App, deps: AdminCredentialsDeps, of: AdminCredentialRoutesOf<Named>): void {
  app.get(
    of.list.url,
    {
      config: admin,
      schema: {
        tags,
        summary: of.list.summary,
        description: of.list.description,
        params: Type.Object(ClientParams),
        querystring: CredentialsQuery,
        response: { 200: of.list.page },
      },
    },
    uncachedByRequest(credentialLists(deps)[of.kind], (request: FastifyRequest & { params: { client_id: string } }) => ({ clientId: request.params.client_id })),
  );
}

function deleteRoute<Named extends TSchema>(app: App, { credentials }: AdminCredentialsDeps, of: AdminCredentialRoutesOf<Named>): void {
  credentialDeletionRoute(app, credentials, {
    ...of.delete,
    kind: of.kind,
    config: CLIENT_CHANGE,
    tags,
    named: (request, params) => ({ ...of.delete.named(params), actor: operatorActor(request) }),
  });
}
