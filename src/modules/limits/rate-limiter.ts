import type { FastifyReply } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { type CounterStore, secondsUntilReset, type Taken, windowEnd } from '../../platform/counters/counter-store.js';
import { ApiError } from '../../platform/errors.js';
import { type AccountLookup, type ClientAccount, principalOf, type Tier } from '../auth/index.js';
import type { Admission } from '../policy/index.js';
import { createPlans, type LimitPlan, type PlannedWindow, type WindowName } from './limit-plan.js';
import type { LimitPolicy, Limits } from './tier-limits.js';
import { DAY_MS, MINUTE_MS } from '../../platform/time.js';

/** Per-minute rates and daily quotas, charged on every authenticated client call. */
export interface RateLimiter {
  /**
   * What charges an authenticated client call before its handler runs, against the minute and
   * the day (`data`) or the minute only (`account`, which never counts against the daily quota):
   * it sets the rate-limit headers, and throws 429 RATE_LIMIT_EXCEEDED when a window is exhausted
   * (that request is not charged). It returns undefined when it decided synchronously (the
   * in-process store: no promise on the hot path), else a promise. A route's policy says which.
   */
  admission(limit: 'data' | 'account'): Admission;
  /** The account's current minute and day, counting nothing. */
  current(account: ClientAccount, now: number): Promise<{ minute: WindowState; day: WindowState }>;
  /** The limits in force for the account: an operator's override, else its tier's. */
  limitsOf(account: ClientAccount): Limits;
  /** Adds a listener told of every request refused. */
  onReject(listener: RejectListener): void;
  /**
   * Some account changed (any client, any change): the clients this node may hold events for,
   * granted ahead by a shared store, have them given back if their limits changed, so that the
   * other nodes count the new limits from what was used.
   */
  revise(): Promise<void>;
}

/** Told of every request refused (the metrics: `rate_limit_rejections_total{tier,window}`). */
export type RejectListener = (tier: Tier, window: WindowName, clientId: string) => void;

/** One window's state as the usage report shows it. */
export interface WindowState {
  /** Requests counted in the window; null when the client has no limit at all (nothing is counted). */
  used: number | null;
  /** null: no cap on this window. */
  remaining: number | null;
  /** When the window ends (epoch ms). */
  resetsAt: number;
}

export interface RateLimiterDeps {
  store: CounterStore;
  policy: LimitPolicy;
  clock: Clock;
  /** The accounts as they are now (the client directory). */
  accounts: Pick<AccountLookup, 'byId'>;
}

/** The limiter's dependencies, and what it keeps between requests. */
interface LimiterState extends Pick<RateLimiterDeps, 'store' | 'clock' | 'accounts'> {
  planOf: (account: ClientAccount) => LimitPlan;
  rejectListeners: RejectListener[];
  /**
   * Clients whose requests went to the store (a promise) within the last minute, by when: the
   * ones a shared store may have granted events ahead to. An idle client's lease of its day is
   * revised at its next request here.
   */
  recent: Map<string, number>;
  nextSweep: number;
  revising: Promise<void> | undefined;
  again: boolean;
}

export function createRateLimiter(deps: RateLimiterDeps): RateLimiter {
  const state: LimiterState = {
    store: deps.store,
    clock: deps.clock,
    accounts: deps.accounts,
    planOf: createPlans(deps.policy),
    rejectListeners: [],
    recent: new Map(),
    nextSweep: 0,
    revising: undefined,
    again: false,
  };
  return {
    admission: (limit) => admission(state, limit),
    current: (account, now) => current(state, account, now),
    limitsOf: (account) => state.planOf(account).limits,
    onReject(listener) {
      state.rejectListeners.push(listener);
    },
    revise: () => revise(state),
  };
}

function admission(state: LimiterState, limit: 'data' | 'account'): Admission {
  const { store, clock, planOf, recent } = state;
  const account = limit === 'account';
  return (request, reply) => {
    const client = principalOf(request).client;
    const plan = planOf(client);
    const counters = account ? plan.account : plan.data;
    if (counters.length === 0) return undefined;
    const now = clock.now();
    const taken = store.take(counters, now);
    if (taken instanceof Promise) {
      recent.set(client.id, now);
      if (now >= state.nextSweep) sweep(state, now);
      return taken.then((result) => settle(state, reply, client.id, plan, account, result, now));
    }
    settle(state, reply, client.id, plan, account, taken, now);
    return undefined;
  };
}

async function current({ store, planOf }: LimiterState, account: ClientAccount, now: number): Promise<{ minute: WindowState; day: WindowState }> {
  const plan = planOf(account);
  // Read after a change of limits on this node: what it held under the old ones is not used.
  store.revise(plan.data, now);
  const counts = plan.data.length === 0 ? [] : await store.read(plan.data, now);
  const windowState = (index: number, windowMs: number): WindowState => {
    const used = counts[index] ?? null;
    const planned = plan.dataWindows[index];
    return { used, remaining: planned === undefined || used === null ? null : remainingOf(planned, used), resetsAt: windowEnd(now, windowMs) };
  };
  return { minute: windowState(0, MINUTE_MS), day: windowState(1, DAY_MS) };
}

function revise(state: LimiterState): Promise<void> {
  if (!state.store.shared) return Promise.resolve();
  // One pass at a time; changes during it get one more pass after it.
  if (state.revising !== undefined) {
    state.again = true;
    return state.revising;
  }
  const revising = (async () => {
    do {
      state.again = false;
      await reviseRecent(state);
    } while (state.again);
  })().finally(() => {
    state.revising = undefined;
  });
  state.revising = revising;
  return revising;
}

/** Forgets the clients not seen within the last minute; returns the others. */
function sweep(state: LimiterState, now: number): string[] {
  state.nextSweep = now + MINUTE_MS;
  return [...state.recent].flatMap(([id, at]) => {
    if (now - at <= MINUTE_MS) return [id];
    state.recent.delete(id);
    return [];
  });
}

async function reviseRecent(state: LimiterState): Promise<void> {
  const { store, clock, accounts, planOf, recent } = state;
  const now = clock.now();
  const ids = sweep(state, now);
  await Promise.all(
    ids.map(async (id) => {
      // A lookup that fails (the database is away) leaves the lease to the client's next request here.
      const account = await Promise.resolve(accounts.byId(id)).catch(() => null);
      if (account === undefined) recent.delete(id);
      else if (account !== null) store.revise(planOf(account).data, now);
    }),
  );
}

/** Sets the headers of an allowed request, or throws the 429 of a refused one. */
function settle(state: LimiterState, reply: FastifyReply, clientId: string, plan: LimitPlan, account: boolean, taken: Taken, now: number): void {
  const windows = account ? plan.accountWindows : plan.dataWindows;
  const policy = account ? plan.accountPolicy : plan.dataPolicy;
  if (!taken.allowed) throw refusal(clientId, plan, windows, policy, taken.counts, now, state.rejectListeners);
  if (policy === undefined) return;
  reply.header('ratelimit-policy', policy);
  reply.header('ratelimit', serviceLimit(windows, taken.counts, now));
  reply.headers(minuteHeaders(plan, windows, taken.counts, now));
}

function remainingOf(window: PlannedWindow, count: number | undefined): number {
  return Math.max(0, window.limit - (count ?? 0));
}

/**
 * The RateLimit field: the window closest to running out (fewest remaining; on a tie the one
 * that resets later, since waiting for the other would not help), e.g. `"minute";r=59;t=42`.
 */
function serviceLimit(windows: ReadonlyArray<PlannedWindow | undefined>, counts: readonly number[], now: number): string {
  let chosen: PlannedWindow | undefined;
  let chosenRemaining = Infinity;
  for (let i = 0; i < windows.length; i += 1) {
    const w = windows[i];
    if (w === undefined) continue;
    const remaining = remainingOf(w, counts[i]);
    if (remaining < chosenRemaining || (remaining === chosenRemaining && chosen !== undefined && w.windowMs > chosen.windowMs)) {
      chosen = w;
      chosenRemaining = remaining;
    }
  }
  if (chosen === undefined) return '';
  return `"${chosen.name}";r=${chosenRemaining};t=${secondsUntilReset(now, chosen.windowMs)}`;
}

/** The X-RateLimit-* trio of the minute window, on an allowed and a refused answer alike; none when the minute is not capped. */
function minuteHeaders(plan: LimitPlan, windows: ReadonlyArray<PlannedWindow | undefined>, counts: readonly number[], now: number): Record<string, string> {
  const minute = windows[0];
  if (minute === undefined || plan.minuteLimit === undefined) return {};
  return {
    'x-ratelimit-limit': plan.minuteLimit,
    'x-ratelimit-remaining': String(remainingOf(minute, counts[0])),
    'x-ratelimit-reset': String(secondsUntilReset(now, minute.windowMs)),
  };
}

/** The 429 of a refused request: the exhausted window (the later one if both), in every header and the message. */
function refusal(
  clientId: string,
  plan: LimitPlan,
  windows: ReadonlyArray<PlannedWindow | undefined>,
  policy: string | undefined,
  counts: readonly number[],
  now: number,
  listeners: readonly RejectListener[],
): ApiError {
  let exhausted: PlannedWindow | undefined;
  windows.forEach((w, i) => {
    if (w !== undefined && (counts[i] ?? 0) >= w.limit && (exhausted === undefined || w.windowMs > exhausted.windowMs)) exhausted = w;
  });
  // A store refuses only at a limit, so some window is exhausted; the minute is the safe guess.
  const window = exhausted ?? windows.find((w) => w !== undefined);
  if (window === undefined || policy === undefined) return new ApiError('RATE_LIMIT_EXCEEDED', 'rate limit exceeded', { headers: { 'retry-after': '1' } });
  for (const listener of listeners) listener(plan.tier, window.name, clientId);
  const retryAfter = String(secondsUntilReset(now, window.windowMs));
  const headers: Record<string, string> = {
    'retry-after': retryAfter,
    'ratelimit-policy': policy,
    ratelimit: `"${window.name}";r=0;t=${retryAfter}`,
    ...minuteHeaders(plan, windows, counts, now),
  };
  const whose = `the ${plan.tier} tier${window.overridden ? `, with a per-client override` : ''}`;
  const message =
    window.name === 'minute'
      ? `rate limit exceeded: ${window.limit} requests per minute (${whose}); retry in ${retryAfter} s`
      : `daily quota exceeded: ${window.limit} requests per UTC day (${whose}); it resets at 00:00 UTC, in ${retryAfter} s`;
  return new ApiError('RATE_LIMIT_EXCEEDED', message, { headers });
}
