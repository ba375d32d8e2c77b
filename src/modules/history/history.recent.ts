import type { StreamRow } from './history.repository.js';

/** At most this many changes of one import are held (a feed's batch is 500): a larger import is read back as before. */
export const RECENT_CHANGES_HELD = 1_000;

/**
 * At most this many changes of consecutive imports are held together: a reader that runs once per
 * window (the signals' detector, the webhooks' former) finds the imports since its last run here,
 * at a feed of 10,000 changes a second over a second's window, instead of reading them back.
 */
export const RECENT_CHAIN_HELD = 20_000;

/**
 * The price changes of this process's newest imports, held after their commits for what reads
 * them right after on this node (decision 0294): the history processors and the stream hub take
 * them from here instead of reading back the rows the imports have just written. An import's
 * changes are exactly the ones after `after`, the newest id before them (it held the data-write
 * lock from before it read that position to its commit, so no other change has an id between);
 * an import whose `after` is the last held change continues the chain, any other starts a new
 * one. A reader whose position is within the chain (a held import's start, or any change of it
 * but the last) takes the changes after it to the chain's end; any other reader, and every reader
 * after a restart, reads the table as before: nothing is taken from here that the table would not
 * give.
 */
export interface RecentChanges {
  /** The import, after its commit: `rows` are its changes in id order, `after` the newest id before them. */
  hold(after: number, rows: readonly StreamRow[]): void;
  /** Up to `limit` changes after `afterId` when the chain holds the next ones, else undefined (read them). */
  after(afterId: number, limit?: number): readonly StreamRow[] | undefined;
}

interface Held {
  after: number;
  rows: readonly StreamRow[];
}

const lastIdOf = (held: Held): number => held.rows.at(-1)?.item.id ?? held.after;

export function createRecentChanges(): RecentChanges {
  let chain: Held[] = [];
  let count = 0;
  return {
    hold(after, rows) {
      const newest = chain.at(-1);
      const last = newest === undefined ? undefined : lastIdOf(newest);
      if (rows.length === 0 || rows.length > RECENT_CHANGES_HELD || last !== after) {
        chain = [];
        count = 0;
      }
      if (rows.length === 0 || rows.length > RECENT_CHANGES_HELD) return;
      chain.push({ after, rows });
      count += rows.length;
      while (count > RECENT_CHAIN_HELD && chain.length > 1) count -= chain.shift()?.rows.length ?? 0;
    },
    after(afterId, limit = Number.POSITIVE_INFINITY) {
      // Held imports are contiguous: any position from the first's start to before the last change is inside the chain.
      const start = chain.findIndex((held) => held.after <= afterId && afterId < lastIdOf(held));
      if (start < 0) return undefined;
      const out: StreamRow[] = [];
      for (const held of chain.slice(start)) {
        for (const row of held.rows) {
          if (out.length >= limit) return out;
          if (row.item.id > afterId) out.push(row);
        }
      }
      return out;
    },
  };
}
