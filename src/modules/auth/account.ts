import type { MaybePromise } from '../../platform/maybe-promise.js';
/**
 * The vocabulary of a client account, as authentication sees the caller. The clients module
 * stores and manages accounts; everything that decides what a caller may do reads them in
 * this shape.
 */

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const AUTH_METHODS = ['api_key', 'oauth', 'both'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/**
 * The names an account's flow answers give `flow_type` in: `ours` (fact, fun, plain) or `odditt`
 * (fact_flow, fun_flow and the *_flow_parlay forms), for a client written for Odditt (decision 0263).
 */
export const FLOW_VOCABULARIES = ['ours', 'odditt'] as const;
export type FlowVocabulary = (typeof FLOW_VOCABULARIES)[number];

/** The two login flows (docs/api.md#authentication); a refresh token belongs to the flow that issued it. */
export const FLOWS = ['api_key', 'oauth'] as const;
export type Flow = (typeof FLOWS)[number];

/** The credentials an account holds, several of each (decision 0100): one kind per login flow. */
export const ACCOUNT_CREDENTIALS = ['api_key', 'client_secret'] as const;
export type AccountCredentialKind = (typeof ACCOUNT_CREDENTIALS)[number];

/** The credential kind a flow logs in with. */
export const credentialKindOf = (flow: Flow): AccountCredentialKind => (flow === 'api_key' ? 'api_key' : 'client_secret');

/**
 * Why a refresh token was revoked. Only `rotated` (and `reuse`, its consequence) says anything
 * about theft when the token comes back (RFC 9700 §4.14.2); the others are ends an operator or
 * the client chose, and presenting such a token is a late client, not an attacker.
 */
export const REVOCATION_REASONS = ['rotated', 'reuse', 'reset', 'key_deleted', 'secret_deleted', 'credential_expired', 'client_deleted', 'logout'] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

export const isTier = (value: unknown): value is Tier => TIERS.some((tier) => tier === value);
export const isAuthMethod = (value: unknown): value is AuthMethod => AUTH_METHODS.some((method) => method === value);
export const isFlowVocabulary = (value: unknown): value is FlowVocabulary => FLOW_VOCABULARIES.some((v) => v === value);
export const isFlow = (value: unknown): value is Flow => FLOWS.some((flow) => flow === value);
export const isAccountCredentialKind = (value: unknown): value is AccountCredentialKind => ACCOUNT_CREDENTIALS.some((kind) => kind === value);
export const isRevocationReason = (value: unknown): value is RevocationReason => REVOCATION_REASONS.some((reason) => reason === value);

/** An API key or client secret as authentication sees it (never its digest's preimage). */
export interface AccountCredential {
  /** Its public id (UUID): `key_code` / `secret_code`, and the `cred` claim of tokens it started. */
  code: string;
  clientId: string;
  kind: AccountCredentialKind;
  /** Epoch ms; null: never expires. An expired credential is refused like a deleted one. */
  expiresAt: number | null;
  deletedAt: number | null;
}

/** A client account as the rest of the code sees it. */
export interface ClientAccount {
  id: string;
  tenantId: string;
  name: string;
  tier: Tier;
  authMethod: AuthMethod;
  disabled: boolean;
  /** An operator's override of the tier's per-minute rate; null: the tier's (modules/limits). */
  rateLimitPerMinute: number | null;
  /** An operator's override of the tier's daily quota; null: the tier's. */
  dailyQuota: number | null;
  /** The names its flow answers give `flow_type` in. */
  flowVocabulary: FlowVocabulary;
  /** Offboarded: every credential and token ended, 401 client_deleted everywhere. */
  deletedAt: number | null;
  /** Moves on every operator reset: tokens of an older generation are refused (the `gen` claim). */
  credentialGeneration: number;
  /** Its credentials not deleted, by code (expired ones included: compare expiresAt on use). */
  credentials: ReadonlyMap<string, AccountCredential>;
  createdAt: number;
  updatedAt: number;
}

/** A credential found by its digest, with the account that holds it. */
export interface CredentialHolder {
  account: ClientAccount;
  credential: AccountCredential;
  /** The stored digest, compared again in constant time by whoever looked it up. */
  digest: string;
}

/**
 * Where authentication finds accounts (the clients module's directory: cached, current).
 * Accounts by id and credentials by digest; what a cache holds is answered at once (no promise).
 */
export interface AccountLookup {
  /** The account with this id, deleted ones included (to say why it is refused). */
  byId(id: string): MaybePromise<ClientAccount | undefined>;
  /** The credential with this digest, deleted or expired ones included (to say why it is refused). */
  byCredentialDigest(digest: string): MaybePromise<CredentialHolder | undefined>;
}

/** True while the credential may be used: not deleted, not expired. */
export function isActive(credential: AccountCredential, now: number): boolean {
  return credential.deletedAt === null && (credential.expiresAt === null || credential.expiresAt > now);
}
