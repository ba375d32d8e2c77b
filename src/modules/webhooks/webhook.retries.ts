/**
 * The wait after each failed attempt of a delivery (decision 0310): 5 s, 30 s, 2 min, 10 min,
 * 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, 8 h; twelve attempts in all. The waits add up to 31 h 42 min,
 * so even with every wait drawn at its shortest (-20%) the schedule covers more than 24 hours:
 * a receiver down for a day loses nothing.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800, 28_800].map((seconds) => seconds * 1_000);

/** Each wait is drawn within ±20% of its step: endpoints that failed together do not all come back at once. */
export const RETRY_JITTER = 0.2;

/**
 * When the next attempt is due after `attempts` attempts have failed (the first failure is 1), or
 * null when the schedule is spent. `random` is in [0, 1).
 */
export function nextAttemptAt(attempts: number, now: number, random: () => number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  return now + Math.round(delay * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
