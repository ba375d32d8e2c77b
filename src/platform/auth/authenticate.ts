import type { ClientAccount } from '../../modules/clients/clients.repository.js';
import type { ClientDirectory } from '../../modules/clients/client-directory.js';
import { LruCache } from '../cache/lru.js';
import type { AuthMethod, Flow } from '../db/schema.js';
import { ApiError, unauthorized } from '../errors.js';
import { digest, digestsEqual, isWellFormedCredential } from './credentials.js';
import { type AccessTokenClaims, type Keyring, TokenRejectedError } from './keyring.js';

/** Who is calling, and how they proved it. */
export interface Principal {
  client: ClientAccount;
  via: 'api_key' | 'bearer';
  claims?: AccessTokenClaims;
}

/** Request headers as Node gives them (lower-cased names). */
export type Headers = Record<string, string | string[] | undefined>;

// RFC 6750 §3: a rejected bearer token is answered with this challenge.
const INVALID_TOKEN_CHALLENGE = { 'www-authenticate': 'Bearer error="invalid_token"' };
const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer realm="sports-data-api"' };

/** The flow matrix of SPEC.md: Bearer on calls is allowed for every auth_method. */
export function flowEnabled(authMethod: AuthMethod, flow: Flow): boolean {
  return authMethod === 'both' || authMethod === flow;
}

export function requireFlowEnabled(client: ClientAccount, flow: Flow, headers?: Record<string, string>): void {
  if (!flowEnabled(client.authMethod, flow)) {
    const name = flow === 'api_key' ? 'API key' : 'OAuth';
    throw unauthorized('flow_not_enabled', `the ${name} flow is not enabled for this account`, headers);
  }
}

export function rejectDisabledClient(client: ClientAccount, headers?: Record<string, string>): void {
  if (client.disabled) throw unauthorized('client_disabled', 'this client account is disabled', headers);
}

export interface Authenticator {
  /** Authenticates a data call from its X-API-Key or Authorization: Bearer header. */
  authenticate(headers: Headers): Promise<Principal>;
  /** Resolves an API key to its client, enabled and allowed to use the API-key flow. */
  clientForApiKey(apiKey: unknown, headers?: Record<string, string>): Promise<ClientAccount>;
}

export function createAuthenticator(deps: { keyring: Keyring; clients: ClientDirectory }): Authenticator {
  const { keyring, clients } = deps;
  // API key → its digest, for well-formed keys only. A pure function of the key, so it never
  // goes stale (whose key it is, and whether it still works, is asked of the directory below);
  // it saves the checksum and SHA-256 on every call of a client that repeats its key.
  const digests = new LruCache<string, string>(10_000);

  function digestOfApiKey(apiKey: unknown, headers?: Record<string, string>): string {
    if (typeof apiKey === 'string') {
      const known = digests.get(apiKey);
      if (known !== undefined) return known;
    }
    // Malformed or bad-checksum keys are rejected before any lookup.
    if (!isWellFormedCredential('apiKey', apiKey)) throw unauthorized('invalid_credentials', 'the API key is not valid', headers);
    const keyDigest = digest(apiKey);
    digests.set(apiKey, keyDigest);
    return keyDigest;
  }

  async function clientForApiKey(apiKey: unknown, headers?: Record<string, string>): Promise<ClientAccount> {
    const keyDigest = digestOfApiKey(apiKey, headers);
    const client = await clients.byApiKeyDigest(keyDigest);
    // The lookup is by digest; the explicit constant-time comparison keeps it honest if the
    // lookup ever becomes a prefix or range match.
    if (!client || !digestsEqual(client.apiKeyDigest, keyDigest)) {
      throw unauthorized('invalid_credentials', 'the API key is not valid', headers);
    }
    rejectDisabledClient(client, headers);
    requireFlowEnabled(client, 'api_key', headers);
    return client;
  }

  async function bearer(authorization: string): Promise<Principal> {
    const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized('token_invalid', 'the Authorization header must be "Bearer <access token>"', INVALID_TOKEN_CHALLENGE);
    let claims: AccessTokenClaims;
    try {
      claims = keyring.verify(match[1]);
    } catch (error) {
      if (error instanceof TokenRejectedError) throw unauthorized(error.reason, `${error.message}; refresh it or log in again`, INVALID_TOKEN_CHALLENGE);
      throw error;
    }
    const client = await clients.byId(claims.client_id);
    if (!client || client.tenantId !== claims.tenant_id) throw unauthorized('token_invalid', 'access token is invalid', INVALID_TOKEN_CHALLENGE);
    // Checked on every call, so that disabling a client locks out tokens already issued.
    rejectDisabledClient(client, INVALID_TOKEN_CHALLENGE);
    return { client, via: 'bearer', claims };
  }

  return {
    clientForApiKey,
    async authenticate(headers) {
      const authorization = single(headers.authorization);
      const apiKey = single(headers['x-api-key']);
      if (authorization !== undefined && apiKey !== undefined) {
        // RFC 6750 §2: one credential per request; two are ambiguous, not a stronger proof.
        throw new ApiError('BAD_REQUEST', 'send either X-API-Key or Authorization, not both');
      }
      if (authorization !== undefined) return bearer(authorization);
      if (apiKey !== undefined) return { client: await clientForApiKey(apiKey, BEARER_CHALLENGE), via: 'api_key' };
      throw unauthorized('missing_credentials', 'send an X-API-Key header or an Authorization: Bearer access token', BEARER_CHALLENGE);
    },
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
