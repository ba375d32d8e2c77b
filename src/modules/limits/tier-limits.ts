import { type ClientAccount, isTier, type Tier, TIERS } from '../auth/index.js';
import { TIER_TABLE } from '../policy/index.js';

/** The limits that apply to an account: an operator's override, else its tier's. */
export interface LimitPolicy {
  /** The account's per-minute rate and daily quota in force. */
  effective(account: ClientAccount): Limits;
}

/** A per-minute rate and a daily quota; null: no cap. */
export interface Limits {
  readonly perMinute: number | null;
  readonly perDay: number | null;
}

/** A tier's limits: its rates, and how many webhook endpoints one of its clients may keep (null: no cap). */
export interface TierLimitSet extends Limits {
  readonly webhookEndpoints: number | null;
}

export type TierLimits = Readonly<Record<Tier, TierLimitSet>>;

/** The tiers' limits unless TIER_LIMITS says otherwise: the tier table's. */
export const DEFAULT_TIER_LIMITS: TierLimits = Object.freeze({
  free: TIER_TABLE.free.limits,
  pro: TIER_TABLE.pro.limits,
  enterprise: TIER_TABLE.enterprise.limits,
});

/** The largest limit or override: counts stay far from any integer bound in Redis or SQL. */
export const LIMIT_MAX = 1_000_000_000;

const FIELDS = { per_minute: 'perMinute', per_day: 'perDay', webhook_endpoints: 'webhookEndpoints' } as const;
type Field = keyof typeof FIELDS;
const isField = (name: string): name is Field => Object.hasOwn(FIELDS, name);

/**
 * TIER_LIMITS: a JSON object merged over the defaults, field by field, e.g.
 * `{"pro":{"per_minute":1200,"per_day":null}}` (null: no cap). Returns every problem found, so
 * that start-up can name them all.
 */
export function parseTierLimits(raw: string | undefined): { limits: TierLimits; problems: string[] } {
  if (raw === undefined) return { limits: DEFAULT_TIER_LIMITS, problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { limits: DEFAULT_TIER_LIMITS, problems: ['TIER_LIMITS must be JSON, e.g. {"pro":{"per_minute":1200,"per_day":null}}'] };
  }
  if (!isObject(parsed)) return { limits: DEFAULT_TIER_LIMITS, problems: ['TIER_LIMITS must be a JSON object with tiers as keys'] };
  const problems: string[] = [];
  const limits: Record<Tier, TierLimitSet> = { ...DEFAULT_TIER_LIMITS };
  for (const [tier, given] of Object.entries(parsed)) {
    if (!isTier(tier)) {
      problems.push(`TIER_LIMITS: unknown tier "${tier}" (tiers: ${TIERS.join(', ')})`);
      continue;
    }
    if (!isObject(given)) {
      problems.push(`TIER_LIMITS.${tier} must be an object with per_minute, per_day and/or webhook_endpoints`);
      continue;
    }
    let merged: TierLimitSet = limits[tier];
    for (const [field, value] of Object.entries(given)) {
      if (!isField(field)) {
        problems.push(`TIER_LIMITS.${tier}: unknown field "${field}" (fields: ${Object.keys(FIELDS).join(', ')})`);
      } else if (field === 'webhook_endpoints' && value === 0) {
        merged = { ...merged, webhookEndpoints: 0 };
      } else if (value !== null && !isLimit(value)) {
        problems.push(`TIER_LIMITS.${tier}.${field} must be an integer from ${field === 'webhook_endpoints' ? 0 : 1} to ${LIMIT_MAX}, or null for no cap`);
      } else {
        merged = { ...merged, [FIELDS[field]]: value };
      }
    }
    limits[tier] = Object.freeze(merged);
  }
  return { limits: Object.freeze(limits), problems };
}

export function createLimitPolicy(tiers: TierLimits): LimitPolicy {
  return {
    effective: (account) => ({
      perMinute: account.rateLimitPerMinute ?? tiers[account.tier].perMinute,
      perDay: account.dailyQuota ?? tiers[account.tier].perDay,
    }),
  };
}

export function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= LIMIT_MAX;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
