/**
 * The vocabulary of a client account, as authentication sees the caller. The clients module
 * stores and manages accounts; everything that decides what a caller may do reads them in
 * this shape.
 */

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const AUTH_METHODS = ['api_key', 'oauth', 'both'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The two login flows (docs/api.md#authentication); a refresh token belongs to the flow that issued it. */
export const FLOWS = ['api_key', 'oauth'] as const;
export type Flow = (typeof FLOWS)[number];

export const isTier = (value: unknown): value is Tier => TIERS.some((tier) => tier === value);
export const isAuthMethod = (value: unknown): value is AuthMethod => AUTH_METHODS.some((method) => method === value);
export const isFlow = (value: unknown): value is Flow => FLOWS.some((flow) => flow === value);

/** A client account as the rest of the code sees it. */
export interface ClientAccount {
  id: string;
  tenantId: string;
  name: string;
  tier: Tier;
  authMethod: AuthMethod;
  disabled: boolean;
  apiKeyDigest: string;
  clientSecretDigest: string;
  /** An operator's override of the tier's per-minute rate; null: the tier's (modules/limits). */
  rateLimitPerMinute: number | null;
  /** An operator's override of the tier's daily quota; null: the tier's. */
  dailyQuota: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Where authentication finds accounts (the clients module's directory: cached, current). */
export interface AccountLookup {
  byId(id: string): Promise<ClientAccount | undefined>;
  byApiKeyDigest(apiKeyDigest: string): Promise<ClientAccount | undefined>;
}
