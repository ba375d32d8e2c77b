import type { Clock } from '../../platform/clock.js';
import { validationError } from '../../platform/errors.js';
import type { App } from '../../platform/http/types.js';
import { clientActor } from '../audit/index.js';
import { principalOf } from '../auth/index.js';
import type { CredentialsService } from '../clients/index.js';
import type { ClientPolicy } from '../policy/index.js';
import { ACCOUNT_POLICY } from './account.policy.js';
import { listedCredentials } from './credentials.listing.js';
import {
  ApiKeysPage,
  CreatedApiKey,
  CreatedSecret,
  createdApiKeyView,
  createdSecretView,
  CredentialsQuery,
  Deleted,
  KeyCodeParams,
  NewApiKeyBody,
  NewSecretBody,
  SecretCodeParams,
  SecretsPage,
} from './credentials.schemas.js';

const tags = ['account'];
const listing = { policy: ACCOUNT_POLICY };
/** A change to the account's credentials can conflict with its state: the last one of an enabled flow, the cap of active ones. */
const change = (errors: ClientPolicy['errors']) => ({ policy: { ...ACCOUNT_POLICY, errors } });

/**
 * The calling client's own API keys and client secrets (the Odditt paths; POST /v1/account/secret
 * is singular there too). Either credential the flow matrix allows may call them (decision 0100):
 * a key that can log in can already do whatever a Bearer token can. A new credential works at
 * once and the old ones keep working until deleted, so a client rotates without downtime.
 */
export function credentialsRoutes(app: App, deps: CredentialsRoutesDeps): void {
  apiKeyRoutes(app, deps);
  secretRoutes(app, deps);
}

interface CredentialsRoutesDeps {
  credentials: CredentialsService;
  clock: Clock;
}

function apiKeyRoutes(app: App, deps: CredentialsRoutesDeps): void {
  const { credentials } = deps;

  app.get(
    '/v1/account/api-keys',
    {
      config: listing,
      schema: {
        tags,
        summary: "The calling client's API keys",
        description: 'Every key not deleted, oldest first, expired ones included (`active: false`). Never the keys themselves.',
        querystring: CredentialsQuery,
        response: { 200: ApiKeysPage },
      },
    },
    async (request) => listedCredentials(deps, principalOf(request).client.id, 'api_key', request.query),
  );

  app.post(
    '/v1/account/api-keys',
    {
      config: change(['CONFLICT']),
      schema: {
        tags,
        summary: 'Create an API key',
        description:
          'The key works at once, beside the others: deploy it, then delete the old one. At most 10 active keys (409 past that). ' +
          'The key appears in this response only.',
        body: NewApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) => {
      const { name, expires_at } = request.body;
      const created = await credentials.createApiKey(principalOf(request).client.id, { name, expiresAt: expiryOf(expires_at) }, clientActor(request));
      return reply.code(201).send(createdApiKeyView(created));
    },
  );

  app.delete(
    '/v1/account/api-keys/:key_code',
    {
      config: change(['NOT_FOUND', 'CONFLICT']),
      schema: {
        tags,
        summary: 'Delete an API key',
        description:
          'The key stops working at once, and so do the sessions (refresh tokens) started with it; access tokens minted from it stop within ' +
          'seconds on every node. 409 for the last active key of an account whose auth_method enables API keys.',
        params: KeyCodeParams,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      await credentials.delete(principalOf(request).client.id, 'api_key', request.params.key_code, clientActor(request));
      return reply.code(204).send(null);
    },
  );
}

function secretRoutes(app: App, deps: CredentialsRoutesDeps): void {
  const { credentials } = deps;

  app.get(
    '/v1/account/secrets',
    {
      config: listing,
      schema: {
        tags,
        summary: "The calling client's client secrets",
        description: 'Every secret not deleted, oldest first. Never the secrets themselves.',
        querystring: CredentialsQuery,
        response: { 200: SecretsPage },
      },
    },
    async (request) => listedCredentials(deps, principalOf(request).client.id, 'client_secret', request.query),
  );

  app.post(
    '/v1/account/secret',
    {
      config: change(['CONFLICT']),
      schema: {
        tags,
        summary: 'Create a client secret',
        description: 'The secret works at once, beside the others. At most 10 per account (409 past that). It appears in this response only.',
        body: NewSecretBody,
        response: { 201: CreatedSecret },
      },
    },
    async (request, reply) => {
      const created = await credentials.createSecret(principalOf(request).client.id, { name: request.body.name ?? 'client secret' }, clientActor(request));
      return reply.code(201).send(createdSecretView(created));
    },
  );

  app.delete(
    '/v1/account/secrets/:secret_code',
    {
      config: change(['NOT_FOUND', 'CONFLICT']),
      schema: {
        tags,
        summary: 'Delete a client secret',
        description:
          'The secret stops working at once, and so do the sessions started with it; their access tokens stop within seconds. ' +
          '409 for the last secret of an account whose auth_method enables OAuth.',
        params: SecretCodeParams,
        response: { 204: Deleted },
      },
    },
    async (request, reply) => {
      await credentials.delete(principalOf(request).client.id, 'client_secret', request.params.secret_code, clientActor(request));
      return reply.code(204).send(null);
    },
  );
}

/**
 * The instant of an `expires_at`. The schema's date-time format admits what no clock shows (a leap
 * second, `23:59:60`), which Date.parse cannot place: a 422 like any other bad format.
 */
function expiryOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw validationError('expires_at', 'format', 'expires_at must be a date-time that exists, e.g. 2030-01-01T00:00:00Z');
  return ms;
}
