import { setImmediate as nextTurn } from 'node:timers/promises';

/** Rows per chunk: a few milliseconds of query and mapping, even on a slow machine. */
export const CHUNK_ROWS = 2000;

/**
 * Reads a whole table (or a join on it) in primary-key order, `chunkRows` rows at a time
 * (keyset paging: `where id > last order by id limit n`, each chunk a seek on the key), and
 * lets the event loop run between chunks. better-sqlite3 runs a query inside the call: the
 * 55,000 players of --scale 10 read in one query held the loop for 50–240 ms. `page` must order
 * by the id it filters on. Ids are at least 1 (the import refuses any other), so the first page
 * starts after 0.
 *
 * Chunks are separate statements: an import committed between two of them is seen by the later
 * ones, as a read just after it would be. The caches that keep such reads key them by data
 * version and drop them when it moves (decision 0007).
 */
export async function* keysetChunks<R extends { id: number }>(
  page: (afterId: number, limit: number) => Promise<R[]>,
  chunkRows = CHUNK_ROWS,
): AsyncGenerator<R[]> {
  let after = 0;
  for (;;) {
    const rows = await page(after, chunkRows);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < chunkRows) return;
    after = last.id;
    await nextTurn();
  }
}

/** Every row of `page`'s query, read by keysetChunks and mapped chunk by chunk. */
export async function readInChunks<R extends { id: number }, T>(page: (afterId: number, limit: number) => Promise<R[]>, map: (row: R) => T): Promise<T[]> {
  const all: T[] = [];
  for await (const rows of keysetChunks(page)) for (const row of rows) all.push(map(row));
  return all;
}
