import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { isUuid } from '../../platform/uuid.js';
import {
  type AccountLookup,
  type ClientAccount,
  type CredentialHolder,
  digest,
  digestsEqual,
  type Flow,
  generateCredential,
  isActive,
  isWellFormedCredential,
  type Keyring,
  rejectDeletedClient,
  rejectDisabledClient,
  requireFlowEnabled,
  unauthorized,
} from '../auth/index.js';
import { createTokensRepository, type NewRefreshToken, type SessionEnd, type StoredRefreshToken, type TokensRepository } from './tokens.repository.js';
import type { TokenPair } from './tokens.schemas.js';

/** Issues token pairs (login), rotates refresh tokens (refresh) and revokes them (logout). */
export interface TokenService {
  /** POST /v1/auth/login: the API key was resolved and checked by the authenticator. */
  loginWithApiKey(holder: CredentialHolder): Promise<TokenPair>;
  /** POST /v1/oauth/login: OAuth 2.0 client credentials. */
  loginWithClientCredentials(clientId: string, clientSecret: string): Promise<TokenPair>;
  /** The secret and its client, enabled; any flow (the caller checks the one it serves). */
  clientForSecret(clientId: string, clientSecret: string): Promise<CredentialHolder>;
  /** An OAuth-flow session for an authenticated client: /v1/oauth/login and the token endpoint's client_credentials grant. */
  startOAuthSession(holder: CredentialHolder): Promise<TokenPair>;
  /** RFC 7009: what revoking `token` for `client` did. */
  revoke(client: ClientAccount, token: string): Promise<RevocationOutcome>;
  /** POST /v1/auth/refresh, /v1/oauth/refresh and the token endpoint's refresh grant: the rotated pair. */
  refresh(flow: Flow, refreshToken: string, log: SecurityLog, clientId?: string): Promise<TokenPair>;
}

// Compared against when no credential has the secret's digest, so that a miss and a hit cost
// the same comparison.
const NO_SUCH_DIGEST = digest('no such client');

/**
 * What a revocation request did (RFC 7009): a refresh token's family ended; an access token,
 * which cannot be revoked; a token of another client, left alone; a token that is not ours.
 */
export type RevocationOutcome = 'revoked' | 'access_token' | 'not_yours' | 'unknown';

/** Where a security event goes: the request's logger. Never given a token. */
export interface SecurityLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** Token lifetimes, in seconds (ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL). */
export interface TokenLifetimes {
  accessTokenTtl: number;
  refreshTokenTtl: number;
}

export interface TokenServiceDeps {
  db: Kysely<Schema>;
  clock: Clock;
  keyring: Keyring;
  /** Current accounts (the clients directory): an operator's change applies at once. */
  accounts: AccountLookup;
  lifetimes: TokenLifetimes;
}

/** What the steps below use: the service's dependencies, with the repository over its database. */
type TokenParts = Omit<TokenServiceDeps, 'db'> & { repository: TokensRepository };

/** Issues token pairs (login) and rotates refresh tokens (refresh), as named steps. */
export function createTokenService(deps: TokenServiceDeps): TokenService {
  const { db, ...rest } = deps;
  const parts: TokenParts = { ...rest, repository: createTokensRepository(db) };
  return {
    loginWithApiKey: (holder) => startSession(parts, holder, 'api_key', () => unauthorized('invalid_credentials', 'the API key is not valid')),
    async loginWithClientCredentials(clientId, clientSecret) {
      return startOAuthSession(parts, await clientForSecret(parts, clientId, clientSecret));
    },
    clientForSecret: (clientId, clientSecret) => clientForSecret(parts, clientId, clientSecret),
    startOAuthSession: (holder) => startOAuthSession(parts, holder),
    revoke: (client, token) => revoke(parts, client, token),
    refresh: (flow, refreshToken, log, clientId) => refresh(parts, flow, refreshToken, log, clientId),
  };
}

/**
 * POST /v1/auth/refresh and /v1/oauth/refresh need nothing but the refresh token. The token
 * endpoint's refresh grant also names the authenticated client (`clientId`), which must own it.
 */
async function refresh(parts: TokenParts, flow: Flow, refreshToken: string, log: SecurityLog, clientId?: string): Promise<TokenPair> {
  const stored = await findRefreshToken(parts, refreshToken);
  requireOwnedBy(stored, clientId);
  requireIssuedByFlow(stored, flow);
  if (stored.revokedAt !== null) return rejectRevoked(parts, stored, log);
  rejectExpired(parts, stored);
  const client = await clientOf(parts, stored);
  rejectDeletedClient(client);
  rejectDisabledClient(client);
  // Against the client's current auth_method: an operator's change applies to sessions
  // already started.
  requireFlowEnabled(client, flow);
  return rotateRefreshToken(parts, stored, client, log);
}

function newRefreshToken({ clock, lifetimes }: Pick<TokenParts, 'clock' | 'lifetimes'>, clientId: string, flow: Flow, familyId: string, credentialCode: string | null) {
  const token = generateCredential('refreshToken');
  const now = clock.now();
  const stored: NewRefreshToken = { digest: digest(token), clientId, familyId, flow, credentialCode, createdAt: now, expiresAt: now + lifetimes.refreshTokenTtl * 1000 };
  return { token, stored };
}

/** The pair; the access token names the session's credential and generation (decision 0101). */
function pairOf({ keyring, lifetimes }: Pick<TokenParts, 'keyring' | 'lifetimes'>, client: ClientAccount, refreshToken: string, session: { cred: string; gen: number }): TokenPair {
  const access = keyring.sign({ client_id: client.id, tenant_id: client.tenantId, tier: client.tier, ...session });
  return {
    access_token: access.token,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_at: new Date(access.claims.exp * 1000).toISOString(),
    expires_in: lifetimes.accessTokenTtl,
  };
}

/**
 * A login starts a new family: every refresh token rotated from it shares its family id and
 * the credential that started it. The credential was checked against the (cached) directory;
 * it is checked again in the transaction that stores the token, under the lock a reset or a
 * deletion takes, so that no session outlives the change that ends its credential (decision 0103).
 */
async function startSession(parts: TokenParts, { account, credential }: CredentialHolder, flow: Flow, refused: () => Error): Promise<TokenPair> {
  const { token, stored } = newRefreshToken(parts, account.id, flow, randomUUID(), credential.code);
  const started = await parts.repository.startFamily(stored, parts.clock.now());
  if ('end' in started) throw started.end === 'client_deleted' ? unauthorized('client_deleted', 'this client account has been deleted') : refused();
  return pairOf(parts, account, token, { cred: started.credentialCode, gen: started.generation });
}

const badClientCredentials = () => unauthorized('invalid_credentials', 'the client credentials are not valid');

async function secretHolder({ accounts, clock }: Pick<TokenParts, 'accounts' | 'clock'>, clientId: string, clientSecret: string): Promise<CredentialHolder> {
  // Malformed ids and malformed or bad-checksum secrets never reach the database.
  if (!isUuid(clientId) || !isWellFormedCredential('clientSecret', clientSecret)) throw badClientCredentials();
  const secretDigest = digest(clientSecret);
  // Found by the secret's digest; an unknown client and a wrong secret are one lookup each.
  const holder = await accounts.byCredentialDigest(secretDigest);
  const matches = digestsEqual(holder?.digest ?? NO_SUCH_DIGEST, secretDigest);
  if (!holder || !matches || holder.credential.kind !== 'client_secret' || holder.account.id !== clientId.toLowerCase()) throw badClientCredentials();
  rejectDeletedClient(holder.account);
  // A deleted secret is refused as an unknown one.
  if (!isActive(holder.credential, clock.now())) throw badClientCredentials();
  return holder;
}

/** The secret and its client, enabled; any flow (the caller checks the one it serves). */
async function clientForSecret(parts: TokenParts, clientId: string, clientSecret: string): Promise<CredentialHolder> {
  const holder = await secretHolder(parts, clientId, clientSecret);
  rejectDisabledClient(holder.account);
  return holder;
}

/** An OAuth-flow session for an authenticated client: /v1/oauth/login and the token endpoint's client_credentials grant. */
function startOAuthSession(parts: TokenParts, holder: CredentialHolder): Promise<TokenPair> {
  requireFlowEnabled(holder.account, 'oauth');
  return startSession(parts, holder, 'oauth', badClientCredentials);
}

async function findRefreshToken({ repository }: Pick<TokenParts, 'repository'>, refreshToken: string): Promise<StoredRefreshToken> {
  // A malformed or bad-checksum token is rejected before any database access.
  if (!isWellFormedCredential('refreshToken', refreshToken)) throw unauthorized('token_invalid', 'the refresh token is not valid');
  const tokenDigest = digest(refreshToken);
  const stored = await repository.findByDigest(tokenDigest);
  if (!stored || !digestsEqual(stored.digest, tokenDigest)) throw unauthorized('token_invalid', 'the refresh token is not valid');
  return stored;
}

function requireOwnedBy(stored: StoredRefreshToken, clientId: string | undefined): void {
  // RFC 6749 §6: the refresh token must have been issued to the authenticated client. Checked
  // before anything that writes: another client's token changes no state.
  if (clientId !== undefined && stored.clientId !== clientId) throw unauthorized('token_invalid', 'this refresh token was issued to another client');
}

function requireIssuedByFlow(stored: StoredRefreshToken, flow: Flow): void {
  // A pair is refreshed only at the endpoint of the flow that issued it. Checked before
  // anything that writes, so a token sent to the wrong endpoint keeps its state.
  if (stored.flow !== flow) {
    const right = stored.flow === 'api_key' ? '/v1/auth/refresh' : '/v1/oauth/refresh';
    throw unauthorized('token_invalid', `this refresh token belongs to another flow; refresh it at ${right}`);
  }
}

/**
 * Reuse of a rotated token means it was copied: either the client or an attacker holds a
 * stale copy, and we cannot tell which. Revoke the whole family so that neither can go on
 * (RFC 9700 §4.14.2); the client logs in again.
 */
async function revokeFamilyOnReuse({ repository, clock }: Pick<TokenParts, 'repository' | 'clock'>, stored: StoredRefreshToken, log: SecurityLog): Promise<never> {
  await repository.revokeFamily(stored.familyId, 'reuse', clock.now());
  log.warn({ client_id: stored.clientId, family_id: stored.familyId }, 'revoked refresh token presented; revoked its family');
  throw unauthorized('refresh_token_revoked', 'this refresh token has been revoked; log in again');
}

/**
 * A revoked token comes back. Only a rotated one (or one of a family already ended for that)
 * is a replay; a token ended by a reset, a deleted credential, an offboarding or a logout is a
 * client that has not heard yet, and is answered without raising theft (decision 0104).
 */
async function rejectRevoked(parts: TokenParts, stored: StoredRefreshToken, log: SecurityLog): Promise<never> {
  const reason = stored.revokedReason;
  if (reason === null || reason === 'rotated' || reason === 'reuse') return revokeFamilyOnReuse(parts, stored, log);
  log.info({ client_id: stored.clientId, family_id: stored.familyId, revoked_reason: reason }, 'refresh token of an ended session presented');
  if (reason === 'client_deleted') throw unauthorized('client_deleted', 'this client account has been deleted');
  throw unauthorized('refresh_token_revoked', 'this refresh token has been revoked; log in again');
}

/** The session's credential or generation is gone (found in the rotation's transaction): end the family. */
async function endSession({ repository, clock }: Pick<TokenParts, 'repository' | 'clock'>, stored: StoredRefreshToken, end: SessionEnd, log: SecurityLog): Promise<never> {
  await repository.revokeFamily(stored.familyId, end, clock.now());
  log.info({ client_id: stored.clientId, family_id: stored.familyId, revoked_reason: end }, 'refresh refused: the session has ended');
  if (end === 'client_deleted') throw unauthorized('client_deleted', 'this client account has been deleted');
  throw unauthorized('refresh_token_revoked', 'the credential this session was started with was deleted, has expired or was reset; log in again');
}

function rejectExpired({ clock }: Pick<TokenParts, 'clock'>, stored: StoredRefreshToken): void {
  if (stored.expiresAt <= clock.now()) throw unauthorized('token_expired', 'the refresh token has expired; log in again');
}

async function clientOf({ accounts }: Pick<TokenParts, 'accounts'>, stored: StoredRefreshToken): Promise<ClientAccount> {
  const client = await accounts.byId(stored.clientId);
  if (!client) throw unauthorized('token_invalid', 'the refresh token is not valid');
  return client;
}

/** Revokes the presented token and issues its successor in the same family, exactly once. */
async function rotateRefreshToken(parts: TokenParts, stored: StoredRefreshToken, client: ClientAccount, log: SecurityLog): Promise<TokenPair> {
  const { token, stored: successor } = newRefreshToken(parts, client.id, stored.flow, stored.familyId, stored.credentialCode);
  const rotated = await parts.repository.rotate(stored, successor, parts.clock.now());
  // Another request rotated this token between our read and our update. Two uses of one
  // refresh token are a replay, whichever came first (RFC 9700 §4.14).
  if (rotated === 'raced') return revokeFamilyOnReuse(parts, stored, log);
  if ('end' in rotated) return endSession(parts, stored, rotated.end, log);
  return pairOf(parts, client, token, { cred: rotated.credentialCode, gen: rotated.generation });
}

/**
 * RFC 7009: what revoking `token` for `client` did. A refresh token ends its family (every
 * token descended from its login), active or not: the client is logging out. An access token
 * cannot be revoked: it is a self-contained JWT, valid until it expires.
 */
async function revoke({ repository, clock, keyring }: Pick<TokenParts, 'repository' | 'clock' | 'keyring'>, client: ClientAccount, token: string): Promise<RevocationOutcome> {
  if (isWellFormedCredential('refreshToken', token)) {
    const tokenDigest = digest(token);
    const stored = await repository.findByDigest(tokenDigest);
    if (!stored || !digestsEqual(stored.digest, tokenDigest)) return 'unknown';
    if (stored.clientId !== client.id) return 'not_yours';
    await repository.revokeFamily(stored.familyId, 'logout', clock.now());
    return 'revoked';
  }
  let claims: { client_id: string } | undefined;
  try {
    claims = keyring.verify(token);
  } catch {
    // Invalid or expired: RFC 7009 §2.2 answers 200, as for an unknown token.
    return 'unknown';
  }
  return claims.client_id === client.id ? 'access_token' : 'not_yours';
}
