import { ApiError, unauthorized } from '../../platform/errors.js';
import type { AccountLookup, ClientAccount } from './account.js';
import { digest, digestsEqual, isWellFormedCredential } from './credentials.js';
import { rejectDisabledClient, requireFlowEnabled } from './flow-policy.js';
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

export interface Authenticator {
  /** Authenticates a data call from its X-API-Key or Authorization: Bearer header. */
  authenticate(headers: Headers): Promise<Principal>;
  /** Resolves an API key to its client, enabled and allowed to use the API-key flow. */
  clientForApiKey(apiKey: unknown, headers?: Record<string, string>): Promise<ClientAccount>;
}

export function createAuthenticator(deps: { keyring: Keyring; accounts: AccountLookup }): Authenticator {
  const { keyring, accounts } = deps;

  async function clientForApiKey(apiKey: unknown, headers?: Record<string, string>): Promise<ClientAccount> {
    // Malformed or bad-checksum keys are rejected before any lookup.
    if (!isWellFormedCredential('apiKey', apiKey)) throw unauthorized('invalid_credentials', 'the API key is not valid', headers);
    const keyDigest = digest(apiKey);
    const client = await accounts.byApiKeyDigest(keyDigest);
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
    const client = await accounts.byId(claims.client_id);
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
