import type { Clock } from '../../platform/clock.js';
import { type CounterStore, secondsUntilReset, type WindowedCounter } from '../../platform/counters/counter-store.js';
import { ApiError } from '../../platform/errors.js';
import { sourceOf } from '../../platform/http/source-address.js';
import { isUuid } from '../../platform/uuid.js';
import { MINUTE_MS } from '../../platform/time.js';

/**
 * Brute force on credentials, stopped: failed logins (API key or client credentials), failed
 * refreshes and refused X-API-Keys on data calls are counted per source address, and per
 * client_id and source address, in UTC minutes. Never per client_id alone: then a flood of
 * failures against one client_id, from anywhere, would lock that client out of its own
 * account (a denial of service anyone could aim at any client). Only failures are counted and
 * only failures are refused: a credential that verifies is served whatever its source's count,
 * so that clients behind one NAT or load balancer cannot lock each other out (decision 0163).
 */
export interface CredentialFailures {
  /**
   * Runs a login or a refresh. A failure on the credential is counted after the attempt and
   * answered as it failed (401), or 429 with Retry-After once its source is past a limit.
   */
  guard<T>(address: string, clientId: string | undefined, attempt: () => Promise<T>): Promise<T>;
  /**
   * An X-API-Key data call whose key was refused, or an admin call whose token was: counts it
   * against the address and returns the error to answer (the 401, or 429 once the address is
   * past its limit).
   */
  refusedApiKey(address: string, error: unknown): Promise<unknown>;
  /** Adds a listener told of every attempt refused for its source's failures. */
  onThrottle(listener: ThrottleListener): void;
}

/** Failed attempts allowed per UTC minute (LOGIN_FAILURES_PER_MINUTE and its per-client pair). */
export interface FailureLimits {
  perAddress: number;
  perClientAddress: number;
}

export type ThrottleScope = 'address' | 'client_address';

/** Told of every attempt refused for its source's failures (for the metrics). */
export type ThrottleListener = (scope: ThrottleScope) => void;

const COUNTED_REASONS = new Set<unknown>(['invalid_credentials', 'token_invalid']);

/** A wrong credential (not a disabled client or a flow the account does not enable: those proved theirs). */
function isCredentialFailure(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'UNAUTHORIZED' && COUNTED_REASONS.has(error.reason);
}

export function createCredentialFailures(deps: { store: CounterStore; clock: Clock; limits: FailureLimits }): CredentialFailures {
  const { store, clock, limits } = deps;
  const throttleListeners: ThrottleListener[] = [];

  const countersOf = (source: string, clientId: string | undefined): WindowedCounter[] => {
    const address: WindowedCounter = { key: `lf:a:${source}`, windowMs: MINUTE_MS, limit: limits.perAddress };
    // A client_id that is not a UUID names no client: only the address counts it (and no
    // attacker-chosen text becomes a key).
    if (clientId === undefined || !isUuid(clientId)) return [address];
    return [address, { key: `lf:c:${clientId.toLowerCase()}:${source}`, windowMs: MINUTE_MS, limit: limits.perClientAddress }];
  };

  const tooMany = (now: number) =>
    new ApiError('RATE_LIMIT_EXCEEDED', `too many failed attempts from this address; retry in ${secondsUntilReset(now, MINUTE_MS)} s`, {
      headers: { 'retry-after': String(secondsUntilReset(now, MINUTE_MS)) },
    });

  /** The error to answer for a failed credential: its own, or 429 when a counter was already at its limit. */
  const counted = async (address: string, clientId: string | undefined, error: unknown): Promise<unknown> => {
    if (!isCredentialFailure(error)) return error;
    const now = clock.now();
    const counters = countersOf(sourceOf(address), clientId);
    const taken = await store.take(counters, now);
    if (taken.allowed) return error;
    const scope: ThrottleScope = (taken.counts[0] ?? 0) >= (counters[0]?.limit ?? Infinity) ? 'address' : 'client_address';
    for (const listener of throttleListeners) listener(scope);
    return tooMany(now);
  };

  return {
    async guard<T>(address: string, clientId: string | undefined, attempt: () => Promise<T>): Promise<T> {
      try {
        return await attempt();
      } catch (error) {
        throw await counted(address, clientId, error);
      }
    },

    refusedApiKey: (address, error) => counted(address, undefined, error),

    onThrottle(listener) {
      throttleListeners.push(listener);
    },
  };
}
