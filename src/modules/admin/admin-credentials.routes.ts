import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import type { App } from '../../platform/http/types.js';
import { operatorActor } from '../audit/index.js';
import { ApiKeysPage, CredentialsQuery, Deleted, listedCredentials, SecretsPage } from '../account/index.js';
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
export function adminCredentialsRoutes(app: App, deps: { credentials: CredentialsService; clock: Clock }): void {
  const { credentials } = deps;

  app.get(
    '/admin/v1/clients/:client_id/api-keys',
    {
      config: admin,
      schema: {
        tags,
        summary: "A client's API keys",
        description: 'Every key not deleted, oldest first, expired ones included. Never the keys themselves.',
        params: Type.Object(ClientParams),
        querystring: CredentialsQuery,
        response: { 200: ApiKeysPage },
      },
    },
    async (request) => listedCredentials(deps, request.params.client_id, 'api_key', request.query),
  );

  app.get(
    '/admin/v1/clients/:client_id/secrets',
    {
      config: admin,
      schema: {
        tags,
        summary: "A client's client secrets",
        description: 'Every secret not deleted, oldest first. Never the secrets themselves.',
        params: Type.Object(ClientParams),
        querystring: CredentialsQuery,
        response: { 200: SecretsPage },
      },
    },
    async (request) => listedCredentials(deps, request.params.client_id, 'client_secret', request.query),
  );

  app.delete(
    '/admin/v1/clients/:client_id/api-keys/:key_code',
    {
      config: CLIENT_CHANGE,
      schema: {
        tags,
        summary: "Delete one of a client's API keys",
        description: 'As the client itself would: its sessions end at once; 409 for the last active key of an account that enables API keys.',
        params: KeyParams,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      await credentials.delete(request.params.client_id, 'api_key', request.params.key_code, operatorActor(request));
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/admin/v1/clients/:client_id/secrets/:secret_code',
    {
      config: CLIENT_CHANGE,
      schema: {
        tags,
        summary: "Delete one of a client's client secrets",
        description: 'As the client itself would: its sessions end at once; 409 for the last secret of an account that enables OAuth.',
        params: SecretParams,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      await credentials.delete(request.params.client_id, 'client_secret', request.params.secret_code, operatorActor(request));
      return reply.code(204).send(null);
    },
  );
}
