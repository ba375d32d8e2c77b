/**
 * `items` cut into lists of at most `size`, in order: a long list read or written a statement (or
 * a round) at a time, to stay under an engine's bind-parameter ceiling or to yield between rounds.
 * Each list is sliced as it is asked for, so the lists never all exist at once.
 */
export function* chunksOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * `items` padded to the next power of two (at least `least`) by repeating its last item: a list
 * bound into a statement (`in (?, ?, …)`) then makes one statement text per size class, not one
 * per length, so that the prepared statements kept by SQL text are a few and stay prepared. An
 * `in` list means the same with an item repeated.
 */
export function paddedList<T>(items: readonly T[], least = 8): T[] {
  const last = items.at(-1);
  if (last === undefined) return [];
  let size = least;
  while (size < items.length) size *= 2;
  return [...items, ...Array.from({ length: size - items.length }, () => last)];
}
