import { unauthorized } from '../../platform/errors.js';
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

  /**
   * Both credentials at once, as OpenAPI-generated clients send them (decision 0070): each is
   * checked as if it came alone — the bearer token first, then the API key, so either one's own
   * 401 reason is answered — and then they must name the same client. Two valid credentials of
   * two clients say nothing about who is calling: neither is believed.
   */
  async function bothCredentials(authorization: string, apiKey: string): Promise<Principal> {
    const principal = await bearer(authorization);
    const keyClient = await clientForApiKey(apiKey, BEARER_CHALLENGE);
    if (keyClient.id !== principal.client.id) {
      throw unauthorized('credentials_mismatch', 'X-API-Key and the access token belong to different clients; send one of them', BEARER_CHALLENGE);
    }
    return principal;
  }

  return {
    clientForApiKey,
    async authenticate(headers) {
      const authorization = single(headers.authorization);
      const apiKey = single(headers['x-api-key']);
      if (authorization !== undefined && apiKey !== undefined) return bothCredentials(authorization, apiKey);
      if (authorization !== undefined) return bearer(authorization);
      if (apiKey !== undefined) return { client: await clientForApiKey(apiKey, BEARER_CHALLENGE), via: 'api_key' };
      throw unauthorized('missing_credentials', 'send an X-API-Key header or an Authorization: Bearer access token', BEARER_CHALLENGE);
    },
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
