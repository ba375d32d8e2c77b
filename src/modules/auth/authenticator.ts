import type { Clock } from '../../platform/clock.js';
import { andThen, type MaybePromise } from '../../platform/maybe-promise.js';
import { type AccountCredential, type AccountLookup, type ClientAccount, type CredentialHolder, isActive } from './account.js';
import { digest, digestsEqual, isWellFormedCredential } from './credentials.js';
import { rejectDeletedClient, rejectDisabledClient, requireFlowEnabled } from './flow-policy.js';
import { type AccessTokenClaims, type Keyring, TokenRejectedError } from './keyring.js';
import { unauthorized } from './unauthorized.js';

/** Turns a request's credentials into who is calling, or a 401 that says why not. */
export interface Authenticator {
  /**
   * Authenticates a data call from its X-API-Key or Authorization: Bearer header: at once (or a
   * throw) when the client directory holds the account, else a promise (decision 0142).
   */
  authenticate(headers: Headers): MaybePromise<Principal>;
  /** Resolves an API key to its credential and client: active, enabled, allowed to use the API-key flow. */
  apiKeyHolder(apiKey: unknown, headers?: Record<string, string>): MaybePromise<CredentialHolder>;
}

/** Who is calling, and how they proved it. */
export interface Principal {
  client: ClientAccount;
  via: 'api_key' | 'bearer';
  claims?: AccessTokenClaims;
  /** The API key sent in X-API-Key, alone or beside a token: what outlives the call (a stream) must end with it. */
  apiKey?: AccountCredential;
}

/** Request headers as Node gives them (lower-cased names). */
export type Headers = Record<string, string | string[] | undefined>;

/** Told of each accepted use of a credential (its code), for `last_used_at`. Must not wait on I/O. */
export type CredentialUsed = (code: string) => void;

// RFC 6750 §3: a rejected bearer token is answered with this challenge.
const INVALID_TOKEN_CHALLENGE = { 'www-authenticate': 'Bearer error="invalid_token"' };
const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer realm="sports-data-api"' };
const BEARER = 'Bearer ';

export interface AuthenticatorDeps {
  keyring: Keyring;
  accounts: AccountLookup;
  clock: Clock;
  used?: CredentialUsed;
}

/** What the checks below use: the authenticator's dependencies, with `used` defaulted. */
type Checks = Required<AuthenticatorDeps>;

export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const checks: Checks = { ...deps, used: deps.used ?? (() => {}) };
  return {
    apiKeyHolder: (apiKey, headers) => apiKeyHolder(checks, apiKey, headers),
    authenticate(headers) {
      const authorization = single(headers.authorization);
      const apiKey = single(headers['x-api-key']);
      if (authorization !== undefined && apiKey !== undefined) return bothCredentials(checks, authorization, apiKey);
      if (authorization !== undefined) return bearer(checks, authorization);
      if (apiKey !== undefined) return andThen(apiKeyHolder(checks, apiKey, BEARER_CHALLENGE), (holder) => ({ client: holder.account, via: 'api_key' as const, apiKey: holder.credential }));
      throw unauthorized('missing_credentials', 'send an X-API-Key header or an Authorization: Bearer access token', BEARER_CHALLENGE);
    },
  };
}

function apiKeyHolder(checks: Checks, apiKey: unknown, headers?: Record<string, string>): MaybePromise<CredentialHolder> {
  // Malformed or bad-checksum keys are rejected before any lookup.
  if (!isWellFormedCredential('apiKey', apiKey)) throw unauthorized('invalid_credentials', 'the API key is not valid', headers);
  const keyDigest = digest(apiKey);
  return andThen(checks.accounts.byCredentialDigest(keyDigest), (holder) => activeKeyHolder(checks, holder, keyDigest, headers));
}

function activeKeyHolder({ clock, used }: Pick<Checks, 'clock' | 'used'>, holder: CredentialHolder | undefined, keyDigest: string, headers: Record<string, string> | undefined): CredentialHolder {
  const refused = () => unauthorized('invalid_credentials', 'the API key is not valid', headers);
  if (!holder || holder.credential.kind !== 'api_key') throw refused();
  // The lookup is by digest; the explicit constant-time comparison keeps it honest if the
  // lookup ever becomes a prefix or range match.
  if (!digestsEqual(holder.digest, keyDigest)) throw refused();
  rejectDeletedClient(holder.account, headers);
  // A deleted or expired key is refused as an unknown one: it says nothing more to whoever holds it.
  if (!isActive(holder.credential, clock.now())) throw refused();
  rejectDisabledClient(holder.account, headers);
  requireFlowEnabled(holder.account, 'api_key', headers);
  used(holder.credential.code);
  return holder;
}

function bearer(checks: Checks, authorization: string): MaybePromise<Principal> {
  const claims = claimsOf(checks, authorization);
  return andThen(checks.accounts.byId(claims.client_id), (client) => bearerPrincipal(checks, client, claims));
}

/**
 * The claims of an `Authorization: Bearer <token>` header. A client sends one token on every
 * call: when the header is the usual `Bearer ` and a token the keyring verified before, its
 * claims come from the keyring's cache without the regular expression, which alone costs more
 * than that lookup on a token of hundreds of characters (decision 0146). Anything else takes the
 * whole path.
 */
function claimsOf({ keyring }: Pick<Checks, 'keyring'>, authorization: string): AccessTokenClaims {
  try {
    const known = authorization.startsWith(BEARER) ? keyring.recall(authorization.slice(BEARER.length)) : undefined;
    if (known !== undefined) return known;
    const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized('token_invalid', 'the Authorization header must be "Bearer <access token>"', INVALID_TOKEN_CHALLENGE);
    return keyring.verify(match[1]);
  } catch (error) {
    if (error instanceof TokenRejectedError) throw unauthorized(error.reason, `${error.message}; refresh it or log in again`, INVALID_TOKEN_CHALLENGE);
    throw error;
  }
}

function bearerPrincipal({ clock }: Pick<Checks, 'clock'>, client: ClientAccount | undefined, claims: AccessTokenClaims): Principal {
  if (!client || client.tenantId !== claims.tenant_id) throw unauthorized('token_invalid', 'access token is invalid', INVALID_TOKEN_CHALLENGE);
  rejectDeletedClient(client, INVALID_TOKEN_CHALLENGE);
  // Checked on every call, so that disabling a client locks out tokens already issued.
  rejectDisabledClient(client, INVALID_TOKEN_CHALLENGE);
  requireCurrentCredential(client, claims, clock.now());
  return { client, via: 'bearer', claims };
}

/**
 * An access token lives ACCESS_TOKEN_TTL; a leaked or deleted credential must not live on in
 * the tokens minted from it. The claims name the credential and the generation: an operator's
 * reset moves the generation (a cut-off by `iat`, whole seconds, would also end tokens minted
 * with the new credentials in the same second), a deleted or expired credential leaves the set.
 */
function requireCurrentCredential(client: ClientAccount, claims: AccessTokenClaims, now: number): void {
  if (claims.gen !== client.credentialGeneration) {
    throw unauthorized('token_invalid', "the client's credentials were reset after this access token was issued; log in again", INVALID_TOKEN_CHALLENGE);
  }
  const credential = client.credentials.get(claims.cred);
  if (!credential || !isActive(credential, now)) {
    throw unauthorized('token_invalid', 'the credential this access token was issued with was deleted or has expired; log in again', INVALID_TOKEN_CHALLENGE);
  }
}

/**
 * Both credentials at once, as OpenAPI-generated clients send them (decision 0070): each is
 * checked as if it came alone — the bearer token first, then the API key, so either one's own
 * 401 reason is answered — and then they must name the same client. Two valid credentials of
 * two clients say nothing about who is calling: neither is believed.
 */
async function bothCredentials(checks: Checks, authorization: string, apiKey: string): Promise<Principal> {
  const principal = await bearer(checks, authorization);
  const key = await apiKeyHolder(checks, apiKey, BEARER_CHALLENGE);
  if (key.account.id !== principal.client.id) {
    throw unauthorized('credentials_mismatch', 'X-API-Key and the access token belong to different clients; send one of them', BEARER_CHALLENGE);
  }
  return { ...principal, apiKey: key.credential };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
