import { sleep } from './abort.js';
import { SportsDataError } from './errors.js';
import type { ClientEvent } from './events.js';

/** How failed attempts are tried again. */
export interface RetryOptions {
  /** Attempts after the first, for a 429 and, on idempotent calls, for network errors, timeouts and 5xx (default 2). */
  maxRetries?: number;
  /** The first backoff, in milliseconds; each next one doubles, up to `maxDelayMs` (default 500). */
  baseDelayMs?: number;
  /** The longest backoff, in milliseconds (default 8000). */
  maxDelayMs?: number;
}

export interface RetryPolicy extends Required<RetryOptions> {
  /** A `Retry-After` longer than this fails the call at once rather than wait. */
  maxRetryAfterSeconds: number;
  /** [0, 1): the jitter's source. */
  random: () => number;
}

/** A wait before a 429's retry is stretched by up to this much, so that callers refused together do not return together. */
const RETRY_AFTER_SPREAD_MS = 250;

/**
 * The wait before trying again, or undefined when the failure is final: a 429 waits its
 * `Retry-After` (when at most `maxRetryAfterSeconds`); a network error, a timeout or a 5xx of an
 * idempotent call waits a jittered exponential backoff (at least a 503's `Retry-After`).
 */
export function retryDelayMs(error: unknown, retry: number, idempotent: boolean, policy: RetryPolicy): number | undefined {
  if (!(error instanceof SportsDataError) || retry >= policy.maxRetries) return undefined;
  const told = error.retryAfterSeconds;
  if (told !== undefined && told > policy.maxRetryAfterSeconds) return undefined;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  // Equal jitter: half the backoff fixed, half random.
  const jittered = backoff / 2 + (policy.random() * backoff) / 2;
  // The contract counts a call before serving it and refuses it whole: a 429 was not served, so
  // any call, a POST that creates included, may be sent again.
  if (error.status === 429) return told === undefined ? jittered : told * 1000 + policy.random() * RETRY_AFTER_SPREAD_MS;
  if (!idempotent) return undefined;
  const transient = error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT' || error.status >= 500;
  if (!transient) return undefined;
  return Math.max(jittered, (told ?? 0) * 1000);
}

/** Runs `attempt` until it succeeds or fails for good, waiting between attempts as {@link retryDelayMs} says. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  context: { idempotent: boolean; policy: RetryPolicy; signal: AbortSignal | undefined; what: string; log: (event: ClientEvent) => void },
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      const delayMs = retryDelayMs(error, retry, context.idempotent, context.policy);
      if (delayMs === undefined || !(error instanceof SportsDataError)) throw error;
      context.log({ type: 'retry', request: context.what, attempt: retry + 2, delayMs: Math.round(delayMs), status: error.status, code: error.code });
      await sleep(delayMs, context.signal);
    }
  }
}
