import { type ClientAccount, flowEnabled, isActive, type Principal } from '../auth/index.js';
import type { EndReason } from './stream.connection.js';

/**
 * What a stream was opened with. A stream outlives the request that authenticated it, so it is
 * held to what that request was checked against: it ends when its next request would be refused
 * (decision 0158).
 */
export interface StreamCredentials {
  /** The code of the API key sent in X-API-Key (alone or beside a token). */
  apiKey?: string;
  /** The access token's credential and the credential generation it was issued in. */
  token?: { cred: string; gen: number; expiresAt: number };
}

export function credentialsOf(principal: Principal): StreamCredentials {
  const { apiKey, claims } = principal;
  return {
    ...(apiKey === undefined ? {} : { apiKey: apiKey.code }),
    ...(claims === undefined ? {} : { token: { cred: claims.cred, gen: claims.gen, expiresAt: claims.exp * 1000 } }),
  };
}

/**
 * Why the stream must end under the account as it is now, or undefined while it may go on: the
 * checks of authentication, in the same order (the tier's cap is the hub's, across streams).
 */
export function endReasonFor(credentials: StreamCredentials, account: ClientAccount | undefined, now: number): EndReason | undefined {
  if (account === undefined || account.deletedAt !== null || account.disabled) return 'client_disabled';
  const { apiKey, token } = credentials;
  if (token !== undefined) {
    if (token.gen !== account.credentialGeneration) return 'credentials_revoked';
    const standing = credentialStanding(account, token.cred, now);
    if (standing !== undefined) return standing;
  }
  if (apiKey !== undefined) {
    const standing = credentialStanding(account, apiKey, now);
    if (standing !== undefined) return standing;
    if (!flowEnabled(account.authMethod, 'api_key')) return 'flow_not_enabled';
  }
  return undefined;
}

/** When the stream ends by itself, and why: its token's expiry, or its credential's, whichever is first. */
export function expiryOf(credentials: StreamCredentials, account: ClientAccount): { at: number; reason: EndReason } | undefined {
  const { apiKey, token } = credentials;
  const ends: Array<{ at: number; reason: EndReason }> = [];
  if (token !== undefined) ends.push({ at: token.expiresAt, reason: 'token_expired' });
  for (const code of [apiKey, token?.cred]) {
    const expiresAt = code === undefined ? null : (account.credentials.get(code)?.expiresAt ?? null);
    if (expiresAt !== null) ends.push({ at: expiresAt, reason: 'credential_expired' });
  }
  return ends.sort((a, b) => a.at - b.at)[0];
}

/** A deleted credential leaves the account's set; an expired one stays in it, refused. */
function credentialStanding(account: ClientAccount, code: string, now: number): EndReason | undefined {
  const credential = account.credentials.get(code);
  if (credential === undefined) return 'credentials_revoked';
  return isActive(credential, now) ? undefined : 'credential_expired';
}
