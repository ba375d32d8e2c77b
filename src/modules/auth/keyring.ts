import { createHash, randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { LruCache } from '../../platform/cache/lru.js';
import type { Clock } from '../../platform/clock.js';
import { isUuid } from '../../platform/uuid.js';
import { isTier, type Tier } from './account.js';

/** Signs access tokens and verifies them: the keys of JWT_SECRET, pinned to HS256. */
export interface Keyring {
  /** A new access token for the subject, signed with the newest key. */
  sign(subject: TokenSubject): IssuedAccessToken;
  /** Returns the claims of a valid token; throws TokenRejectedError otherwise. */
  verify(token: string): AccessTokenClaims;
  /**
   * The claims of a token this keyring verified before (its expiry checked again: TokenRejectedError
   * once it has passed), or undefined for any other string: one map lookup, checking nothing else.
   */
  recall(token: string): AccessTokenClaims | undefined;
}

/**
 * The claims of an access token (docs/api.md#token-pairs): client_id, tenant_id, tier, iss, sub,
 * iat, exp, aud and jti, plus `cred` and `gen` (decision 0101): the credential whose login started
 * the session, and the client's credential generation then. Deleting that credential or an
 * operator's reset ends the token at once.
 */
export interface AccessTokenClaims {
  client_id: string;
  tenant_id: string;
  tier: Tier;
  iss: string;
  sub: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
  cred: string;
  gen: number;
}

/** Who a token is issued to, and from which credential in which generation. */
export interface TokenSubject {
  client_id: string;
  tenant_id: string;
  tier: Tier;
  cred: string;
  gen: number;
}

export interface IssuedAccessToken {
  token: string;
  claims: AccessTokenClaims;
}

export type TokenRejection = 'token_expired' | 'token_invalid';

export class TokenRejectedError extends Error {
  override name = 'TokenRejectedError';
  constructor(readonly reason: TokenRejection) {
    super(reason === 'token_expired' ? 'access token has expired' : 'access token is invalid');
  }
}

export interface KeyringOptions {
  /** Newest first. HS256 keys: the UTF-8 bytes of each secret. */
  secrets: readonly string[];
  issuer: string;
  audience: string;
  ttlSeconds: number;
  clock: Clock;
}

const TYP = 'at+jwt';
/** Tolerated clock skew between nodes when checking exp and iat. */
const LEEWAY_SECONDS = 10;
const VERIFIED_CACHE_SIZE = 10_000;

/** What signing and verifying use: the options, the newest key's signer, a verifier per key id, and the tokens verified so far. */
interface KeyringParts {
  issuer: string;
  audience: string;
  ttlSeconds: number;
  clock: Clock;
  signer: ((claims: AccessTokenClaims) => string) | undefined;
  verifiers: ReadonlyMap<string, (token: string) => unknown>;
  verified: LruCache<string, { token: string; claims: AccessTokenClaims }>;
}

/**
 * HS256 keyring: signs with the newest key, verifies with any listed key picked by `kid`.
 * The algorithm is pinned (no `none`, no algorithm confusion); iss, aud and exp are checked, and
 * iat and the lifetime must be ones this service could have issued. A keyring without keys
 * verifies no token and refuses to sign.
 */
export function createKeyring(options: KeyringOptions): Keyring {
  const { issuer, audience, ttlSeconds, clock } = options;
  const keys = options.secrets.map((secret) => ({ kid: keyId(secret), key: Buffer.from(secret, 'utf8') }));
  const newest = keys[0];
  // No `noTimestamp`: fast-jwt would then drop the iat we set from the injected clock.
  const signer =
    newest && createSigner({ key: newest.key, algorithm: 'HS256', header: { alg: 'HS256', typ: TYP, kid: newest.kid } });
  const verifiers = new Map(
    keys.map(({ kid, key }) => [
      kid,
      createVerifier({
        key,
        algorithms: ['HS256'],
        checkTyp: TYP,
        allowedIss: issuer,
        allowedAud: audience,
        requiredClaims: ['client_id', 'tenant_id', 'tier', 'iss', 'sub', 'aud', 'iat', 'exp', 'jti', 'cred', 'gen'],
        // exp is checked below against the injected clock, with leeway.
        ignoreExpiration: true,
      }),
    ]),
  );

  /**
   * Tokens already verified: a client repeats one token on every call until it expires, so
   * signature, header and claims are checked once per token. Keyed by the token's signature (its
   * last segment, 43 characters) rather than the whole token (about 600): a map hashes a new string
   * key over its whole length, and hashing the whole token was a visible share of a call (decision
   * 0146). The entry keeps the whole token, and only that exact token matches it.
   */
  const verified = new LruCache<string, { token: string; claims: AccessTokenClaims }>(VERIFIED_CACHE_SIZE);
  const parts: KeyringParts = { issuer, audience, ttlSeconds, clock, signer, verifiers, verified };
  return {
    sign: (subject) => sign(parts, subject),
    recall: (token) => recall(parts, token),
    verify: (token) => verify(parts, token),
  };
}

function sign({ signer, clock, issuer, audience, ttlSeconds }: KeyringParts, subject: TokenSubject): IssuedAccessToken {
  // Without a key (a CLI context: JWT_SECRET unset, nothing generated) nothing can be signed.
  if (!signer) throw new Error('no JWT secret is configured: set JWT_SECRET');
  const iat = Math.floor(clock.now() / 1000);
  const claims: AccessTokenClaims = {
    client_id: subject.client_id,
    tenant_id: subject.tenant_id,
    tier: subject.tier,
    iss: issuer,
    sub: subject.client_id,
    aud: audience,
    iat,
    exp: iat + ttlSeconds,
    jti: randomUUID(),
    cred: subject.cred,
    gen: subject.gen,
  };
  return { token: signer(claims), claims };
}

function recall(parts: KeyringParts, token: string): AccessTokenClaims | undefined {
  const entry = parts.verified.get(signatureOf(token));
  return entry !== undefined && entry.token === token ? unexpired(parts, entry.claims) : undefined;
}

function verify(parts: KeyringParts, token: string): AccessTokenClaims {
  const known = recall(parts, token);
  if (known !== undefined) return known;
  const verifier = parts.verifiers.get(headerKid(token) ?? '');
  if (!verifier) throw new TokenRejectedError('token_invalid');
  let payload: unknown;
  try {
    payload = verifier(token);
  } catch {
    throw new TokenRejectedError('token_invalid');
  }
  const claims = asClaims(payload);
  if (!claims || !issuableNow(parts, claims)) throw new TokenRejectedError('token_invalid');
  parts.verified.set(signatureOf(token), { token, claims });
  return unexpired(parts, claims);
}

function unexpired({ clock }: Pick<KeyringParts, 'clock'>, claims: AccessTokenClaims): AccessTokenClaims {
  if (claims.exp + LEEWAY_SECONDS <= clock.now() / 1000) throw new TokenRejectedError('token_expired');
  return claims;
}

/**
 * A token signed with our key whose iat lies in the future, or whose lifetime exceeds
 * ACCESS_TOKEN_TTL, was not issued by this service as configured: it was minted by whoever
 * holds a key (a leaked key, a misconfigured node). Refused, so such a token cannot outlive
 * the TTL (decision 0033). Checked before a token enters the verified cache: a token that passes
 * once passes for good, as time only moves its iat further into the past.
 */
function issuableNow({ clock, ttlSeconds }: Pick<KeyringParts, 'clock' | 'ttlSeconds'>, claims: AccessTokenClaims): boolean {
  const lifetime = claims.exp - claims.iat;
  return claims.iat <= clock.now() / 1000 + LEEWAY_SECONDS && lifetime > 0 && lifetime <= ttlSeconds;
}

/** A stable, non-secret key id: the first 64 bits of SHA-256 of the key. */
export function keyId(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url').slice(0, 11);
}

/** A JWT's last segment: for HS256, the base64url of its 32-byte MAC. */
function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1);
}

function headerKid(token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 512) return undefined;
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
    if (typeof header === 'object' && header !== null && 'kid' in header && typeof header.kid === 'string') return header.kid;
  } catch {
    // Not JSON: not one of ours.
  }
  return undefined;
}

function asClaims(payload: unknown): AccessTokenClaims | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const p = payload as Record<string, unknown>;
  const ok =
    isUuid(p.client_id) &&
    p.sub === p.client_id &&
    isUuid(p.tenant_id) &&
    isTier(p.tier) &&
    typeof p.iat === 'number' &&
    typeof p.exp === 'number' &&
    typeof p.jti === 'string' &&
    isUuid(p.cred) &&
    Number.isSafeInteger(p.gen) &&
    Number(p.gen) >= 1;
  return ok ? (p as unknown as AccessTokenClaims) : undefined;
}
