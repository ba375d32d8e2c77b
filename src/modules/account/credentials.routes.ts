import type { TSchema } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { validationError } from '../../platform/errors.js';
import type { App, BodyOf, ParamsOf } from '../../platform/http/types.js';
import { uncachedByRequest } from '../../platform/lists/uncached-lists.js';
import { type AuditActor, clientActor } from '../audit/index.js';
import { type AccountCredentialKind, principalOf } from '../auth/index.js';
import type { CredentialsService } from '../clients/index.js';
import type { ClientPolicy } from '../policy/index.js';
import { ACCOUNT_POLICY } from './account.policy.js';
import { credentialDeletionRoute } from './credentials.deletion.js';
import { type CredentialLists, credentialLists } from './credentials.listing.js';
import {
  ApiKeysPage,
  CreatedApiKey,
  CreatedSecret,
  createdApiKeyView,
  createdSecretView,
  CredentialsQuery,
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
  const lists = credentialLists(deps);
  credentialRoutesOf(app, deps, lists, API_KEYS);
  credentialRoutesOf(app, deps, lists, SECRETS);
}

interface CredentialsRoutesDeps {
  credentials: CredentialsService;
  clock: Clock;
}

/**
 * What the routes of one kind of credential say and do: those of API keys and those of client
 * secrets differ only here.
 */
interface CredentialRoutesOf<New extends TSchema, Code extends TSchema> {
  kind: AccountCredentialKind;
  list: { url: string; summary: string; description: string; page: TSchema };
  create: {
    url: string;
    summary: string;
    description: string;
    body: New;
    created: TSchema;
    /** Creates the credential for the client, and its view (the credential in plain text, this once). */
    run(credentials: CredentialsService, clientId: string, body: BodyOf<New>, actor: AuditActor): Promise<unknown>;
  };
  delete: { url: string; summary: string; description: string; params: Code; codeOf(params: ParamsOf<Code>): string };
}

const API_KEYS: CredentialRoutesOf<typeof NewApiKeyBody, typeof KeyCodeParams> = {
  kind: 'api_key',
  list: {
    url: '/v1/account/api-keys',
    summary: "The calling client's API keys",
    description: 'Every key not deleted, oldest first, expired ones included (`active: false`). Never the keys themselves.',
    page: ApiKeysPage,
  },
  create: {
    url: '/v1/account/api-keys',
    summary: 'Create an API key',
    description:
      'The key works at once, beside the others: deploy it, then delete the old one. At most 10 active keys (409 past that). ' +
      'The key appears in this response only.',
    body: NewApiKeyBody,
    created: CreatedApiKey,
    async run(credentials, clientId, { name, expires_at }, actor) {
      return createdApiKeyView(await credentials.createApiKey(clientId, { name, expiresAt: expiryOf(expires_at) }, actor));
    },
  },
  delete: {
    url: '/v1/account/api-keys/:key_code',
    summary: 'Delete an API key',
    description:
      'The key stops working at once, and so do the sessions (refresh tokens) started with it; access tokens minted from it stop within ' +
      'seconds on every node. 409 for the last active key of an account whose auth_method enables API keys.',
    params: KeyCodeParams,
    codeOf: (params) => params.key_code,
  },
};

const SECRETS: CredentialRoutesOf<typeof NewSecretBody, typeof SecretCodeParams> = {
  kind: 'client_secret',
  list: {
    url: '/v1/account/secrets',
    summary: "The calling client's client secrets",
    description: 'Every secret not deleted, oldest first. Never the secrets themselves.',
    page: SecretsPage,
  },
  create: {
    url: '/v1/account/secret',
    summary: 'Create a client secret',
    description: 'The secret works at once, beside the others. At most 10 per account (409 past that). It appears in this response only.',
    body: NewSecretBody,
    created: CreatedSecret,
    async run(credentials, clientId, body, actor) {
      return createdSecretView(await credentials.createSecret(clientId, { name: body.name ?? 'client secret' }, actor));
    },
  },
  delete: {
    url: '/v1/account/secrets/:secret_code',
    summary: 'Delete a client secret',
    description:
      'The secret stops working at once, and so do the sessions started with it; their access tokens stop within seconds. ' +
      '409 for the last secret of an account whose auth_method enables OAuth.',
    params: SecretCodeParams,
    codeOf: (params) => params.secret_code,
  },
};

/** Lists, creates and deletes the calling client's credentials of one kind. */
function credentialRoutesOf<New extends TSchema, Code extends TSchema>(app: App, deps: CredentialsRoutesDeps, lists: CredentialLists, of: CredentialRoutesOf<New, Code>): void {
  const { credentials } = deps;

  app.get(
    of.list.url,
    {
      config: listing,
      schema: {
        tags,
        summary: of.list.summary,
        description: of.list.description,
        querystring: CredentialsQuery,
        response: { 200: of.list.page },
      },
    },
    uncachedByRequest(lists[of.kind], (request) => ({ clientId: principalOf(request).client.id })),
  );

  app.post(
    of.create.url,
    {
      config: change(['CONFLICT']),
      schema: {
        tags,
        summary: of.create.summary,
        description: of.create.description,
        body: of.create.body,
        response: { 201: of.create.created },
      },
    },
    async (request, reply) => {
      const created = await of.create.run(credentials, principalOf(request).client.id, request.body, clientActor(request));
      return reply.code(201).send(created);
    },
  );

  credentialDeletionRoute(app, credentials, {
    ...of.delete,
    kind: of.kind,
    config: change(['NOT_FOUND', 'CONFLICT']),
    tags,
    named: (request, params) => ({ clientId: principalOf(request).client.id, code: of.delete.codeOf(params), actor: clientActor(request) }),
  });
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
