/** The longest wait after failures, unless the interval itself is longer. */
const MAX_BACKOFF_MS = 15 * 60_000;

/**
 * The wait after `failures` rounds in a row that the upstream refused or did not answer: the
 * interval doubled per failure up to a cap, times a random factor in [½, 1) so that nodes and
 * processes restarted together do not return together, and never shorter than the upstream's
 * Retry-After.
 */
export function backoffMs(intervalMs: number, failures: number, random: () => number, retryAfterMs = 0): number {
  const cap = Math.max(intervalMs, MAX_BACKOFF_MS);
  const full = Math.min(cap, intervalMs * 2 ** Math.min(failures, 30));
  return Math.max(retryAfterMs, Math.round(full * (0.5 + random() / 2)));
}
