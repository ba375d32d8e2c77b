import type { Clock } from '../../platform/clock.js';
import { type CounterStore, secondsUntilReset, type WindowedCounter, windowEnd } from '../../platform/counters/counter-store.js';
import { ApiError } from '../../platform/errors.js';
import { sourceOf } from '../../platform/http/source-address.js';
import { isUuid } from '../../platform/uuid.js';

/** Failed attempts allowed per UTC minute (LOGIN_FAILURES_PER_MINUTE and its per-client pair). */
export interface FailureLimits {
  perAddress: number;
  perClientAddress: number;
}

export type ThrottleScope = 'address' | 'client_address';

/** Told of every attempt refused for its source's failures (for the metrics). */
export type ThrottleListener = (scope: ThrottleScope) => void;

/**
 * Brute force on credentials, stopped: failed logins (API key or client credentials), failed
 * refreshes and refused X-API-Keys on data calls are counted per source address, and per
 * client_id and source address, in UTC minutes. Never per client_id alone: then a flood of
 * failures against one client_id, from anywhere, would lock that client out of its own
 * account (a denial of service anyone could aim at any client).
 */
export interface CredentialFailures {
  /**
   * Runs a login or a refresh, unless its source is past a limit: then 429 with Retry-After,
   * whatever the credential. A failure on the credential is counted after the attempt, so a
   * burst of correct logins is never refused; a burst of wrong ones gets past the limit by at
   * most the attempts already in flight when it is reached (decision 0092).
   */
  guard<T>(address: string, clientId: string | undefined, attempt: () => Promise<T>): Promise<T>;
  /**
   * An X-API-Key data call whose key was refused: counts it against the address and returns
   * the error to answer (the 401, or 429 once the address is past its limit).
   */
  refusedApiKey(address: string, error: unknown): Promise<unknown>;
  /**
   * Throws 429 when this node saw the address pass its limit this minute: every X-API-Key data
   * call from it is then refused, so that a right guess cannot be told from a wrong one. Costs
   * nothing (no lookup) while no address is over its limit.
   */
  rejectBlocked(address: string): void;
  onThrottle(listener: ThrottleListener): void;
}

const MINUTE_MS = 60_000;
const COUNTED_REASONS = new Set<unknown>(['invalid_credentials', 'token_invalid']);

/** A wrong credential (not a disabled client or a flow the account does not enable: those proved theirs). */
function isCredentialFailure(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'UNAUTHORIZED' && COUNTED_REASONS.has(error.reason);
}

export function createCredentialFailures(deps: { store: CounterStore; clock: Clock; limits: FailureLimits }): CredentialFailures {
  const { store, clock, limits } = deps;
  const throttleListeners: ThrottleListener[] = [];
  /** Sources over a limit, until the end of their minute (this node's view). */
  const blocked = new Map<string, number>();
  let nextSweep = 0;

  const countersOf = (source: string, clientId: string | undefined): WindowedCounter[] => {
    const address: WindowedCounter = { key: `lf:a:${source}`, windowMs: MINUTE_MS, limit: limits.perAddress };
    // A client_id that is not a UUID names no client: only the address counts it (and no
    // attacker-chosen text becomes a key).
    if (clientId === undefined || !isUuid(clientId)) return [address];
    return [address, { key: `lf:c:${clientId.toLowerCase()}:${source}`, windowMs: MINUTE_MS, limit: limits.perClientAddress }];
  };

  const block = (source: string, now: number) => {
    // Past minutes' entries go once a minute, not on every block: a flood from many addresses stays linear.
    if (now >= nextSweep) {
      nextSweep = now + MINUTE_MS;
      for (const [key, until] of blocked) if (until <= now) blocked.delete(key);
    }
    blocked.set(source, windowEnd(now, MINUTE_MS));
  };

  const tooMany = (now: number) =>
    new ApiError('RATE_LIMIT_EXCEEDED', `too many failed attempts from this address; retry in ${secondsUntilReset(now, MINUTE_MS)} s`, {
      headers: { 'retry-after': String(secondsUntilReset(now, MINUTE_MS)) },
    });

  const throttled = (counters: readonly WindowedCounter[], counts: readonly number[]) => {
    const scope: ThrottleScope = (counts[0] ?? 0) >= (counters[0]?.limit ?? Infinity) ? 'address' : 'client_address';
    for (const listener of throttleListeners) listener(scope);
    return scope;
  };

  /**
   * Counts one failure; false when a counter was already at its limit (nothing counted). The
   * address that reaches its limit is refused on this node at once, without a lookup.
   */
  const countFailure = async (source: string, counters: readonly WindowedCounter[], now: number): Promise<boolean> => {
    const taken = await store.take(counters, now);
    if (!taken.allowed) throttled(counters, taken.counts);
    if ((taken.counts[0] ?? 0) >= limits.perAddress) block(source, now);
    return taken.allowed;
  };

  return {
    async guard<T>(address: string, clientId: string | undefined, attempt: () => Promise<T>): Promise<T> {
      const now = clock.now();
      const source = sourceOf(address);
      const counters = countersOf(source, clientId);
      const counts = await store.read(counters, now);
      if (counters.some((counter, i) => (counts[i] ?? 0) >= counter.limit)) {
        if (throttled(counters, counts) === 'address') block(source, now);
        throw tooMany(now);
      }
      try {
        return await attempt();
      } catch (error) {
        if (isCredentialFailure(error)) await countFailure(source, counters, now);
        throw error;
      }
    },

    async refusedApiKey(address, error) {
      if (!isCredentialFailure(error)) return error;
      const now = clock.now();
      const source = sourceOf(address);
      return (await countFailure(source, countersOf(source, undefined), now)) ? error : tooMany(now);
    },

    rejectBlocked(address) {
      if (blocked.size === 0) return;
      const source = sourceOf(address);
      const until = blocked.get(source);
      if (until === undefined) return;
      const now = clock.now();
      if (until > now) throw tooMany(now);
      blocked.delete(source);
    },

    onThrottle(listener) {
      throttleListeners.push(listener);
    },
  };
}
