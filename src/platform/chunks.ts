/**
 * `items` cut into lists of at most `size`, in order: a long list read or written a statement (or
 * a round) at a time, to stay under an engine's bind-parameter ceiling or to yield between rounds.
 * Each list is sliced as it is asked for, so the lists never all exist at once.
 */
export function* chunksOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
