export interface BackoffPolicy {
  /** Delay before the second restart in a row; doubled for each further one. */
  baseMs: number;
  maxMs: number;
  /** A worker that ran this long was healthy: its next crash restarts at once. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000, stableMs: 10_000 };

/** The restarts of one worker slot, in a row or after a healthy run. */
export interface RestartBackoff {
  /** The delay before replacing a worker that ran for `ranMs`. */
  next(ranMs: number): number;
}

/**
 * When to replace a worker that exited. A crash after a healthy run is replaced at once; crashes
 * in a row (a worker dying at start: database away, port refused) wait 0.5 s, 1 s, 2 s … up to
 * 30 s, so a crash loop neither spins the CPU nor floods the log.
 */
export function createRestartBackoff(policy: BackoffPolicy = DEFAULT_BACKOFF): RestartBackoff {
  let crashesInARow = 0;
  return {
    next(ranMs: number): number {
      crashesInARow = ranMs >= policy.stableMs ? 1 : crashesInARow + 1;
      if (crashesInARow === 1) return 0;
      return Math.min(policy.maxMs, policy.baseMs * 2 ** (crashesInARow - 2));
    },
  };
}
