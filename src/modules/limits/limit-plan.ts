import type { WindowedCounter } from '../../platform/counters/counter-store.js';
import type { ClientAccount, Tier } from '../auth/index.js';
import type { LimitPolicy, Limits } from './tier-limits.js';
import { DAY_MS, MINUTE_MS } from '../../platform/time.js';

export type WindowName = 'minute' | 'day';

/** One limited window of a plan, with its header text computed once. */
export interface PlannedWindow {
  readonly name: WindowName;
  readonly windowMs: number;
  readonly limit: number;
  /** Whether an operator's override set it (the 429 message says so). */
  readonly overridden: boolean;
}

/**
 * Everything the limiter needs for one account, computed once per account object (the client
 * directory hands out a new object after any change to the account, so an operator's override
 * applies on the next request): the counters, and the header text that does not change.
 */
export interface LimitPlan {
  readonly tier: Tier;
  readonly limits: Limits;
  /** Data requests: the minute and the day, both counted when any limit applies, else none. */
  readonly data: readonly WindowedCounter[];
  /** /v1/account/*: the minute only; they never count against the daily quota. */
  readonly account: readonly WindowedCounter[];
  /** The capped windows among `data`'s counters, in the same order (undefined: not capped). */
  readonly dataWindows: ReadonlyArray<PlannedWindow | undefined>;
  readonly accountWindows: ReadonlyArray<PlannedWindow | undefined>;
  /** RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-10) for data and account answers. */
  readonly dataPolicy: string | undefined;
  readonly accountPolicy: string | undefined;
  /** X-RateLimit-Limit: the per-minute rate, as text. */
  readonly minuteLimit: string | undefined;
}

/** The key of a client's counter of data requests per UTC day: what its daily quota counts. */
export function dayCounterOf(clientId: string): Pick<WindowedCounter, 'key' | 'windowMs'> {
  return { key: `rl:d:${clientId}`, windowMs: DAY_MS };
}

/** Plans by account object: a WeakMap, so plans go with the accounts the directory drops. */
export function createPlans(policy: LimitPolicy): (account: ClientAccount) => LimitPlan {
  const plans = new WeakMap<ClientAccount, LimitPlan>();
  return (account) => {
    let plan = plans.get(account);
    if (plan === undefined) {
      plan = planFor(account, policy);
      plans.set(account, plan);
    }
    return plan;
  };
}

export function planFor(account: ClientAccount, policy: LimitPolicy): LimitPlan {
  const limits = policy.effective(account);
  const minute = limits.perMinute === null ? undefined : window('minute', MINUTE_MS, limits.perMinute, account.rateLimitPerMinute !== null);
  const day = limits.perDay === null ? undefined : window('day', DAY_MS, limits.perDay, account.dailyQuota !== null);
  // A client without any limit is not counted at all: nothing to enforce, no round trip.
  const limited = minute !== undefined || day !== undefined;
  // Leaseable: with Redis a busy client's node is granted events ahead (decision 0094).
  const counter = ({ key, windowMs }: Pick<WindowedCounter, 'key' | 'windowMs'>, planned: PlannedWindow | undefined): WindowedCounter => ({
    key,
    windowMs,
    limit: planned?.limit ?? Infinity,
    leaseable: true,
  });
  const minuteCounter = counter({ key: `rl:m:${account.id}`, windowMs: MINUTE_MS }, minute);
  return {
    tier: account.tier,
    limits,
    data: limited ? [minuteCounter, counter(dayCounterOf(account.id), day)] : [],
    account: limited ? [minuteCounter] : [],
    dataWindows: limited ? [minute, day] : [],
    accountWindows: limited ? [minute] : [],
    dataPolicy: policyField([minute, day]),
    accountPolicy: policyField([minute]),
    minuteLimit: minute === undefined ? undefined : String(minute.limit),
  };
}

function window(name: WindowName, windowMs: number, limit: number, overridden: boolean): PlannedWindow {
  return { name, windowMs, limit, overridden };
}

/** `"minute";q=600;w=60, "day";q=200000;w=86400`: the capped windows, or undefined when none is. */
function policyField(windows: ReadonlyArray<PlannedWindow | undefined>): string | undefined {
  const items = windows.flatMap((w) => (w === undefined ? [] : [`"${w.name}";q=${w.limit};w=${w.windowMs / 1000}`]));
  return items.length === 0 ? undefined : items.join(', ');
}
