/**
 * Normalising filter arrays, so that equivalent requests (another order, a repeated id, another
 * case) mean one filter, and share one cache entry.
 */

/** Sorted, without duplicates; an absent or empty list is no filter. */
export function idSet(ids: readonly number[] | undefined): number[] | undefined {
  if (!ids || ids.length === 0) return undefined;
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** Lower-cased, sorted, without duplicates; an absent or empty list is no filter. */
export function keySet(keys: readonly string[] | undefined): string[] | undefined {
  if (!keys || keys.length === 0) return undefined;
  return [...new Set(keys.map((k) => k.toLowerCase()))].sort();
}
