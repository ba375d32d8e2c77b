import type { StreamRow } from './history.repository.js';

/** At most this many changes are held (a feed's batch is 500): a larger import is read back as before. */
export const RECENT_CHANGES_HELD = 1_000;

/**
 * The price changes of this process's newest import, held after its commit for what reads them
 * right after it on this node (decision 0294): the history processor and the stream hub take them
 * from here instead of reading back the rows the import has just written. They are taken only by a
 * reader whose position is the newest change before them: the held changes are then exactly the
 * next ones (the import held the data-write lock from before it read that position to its commit,
 * so no other change has an id between). Any other reader, and every reader after a restart,
 * reads the table as before: nothing is taken from here that the table would not give.
 */
export interface RecentChanges {
  /** The import, after its commit: `rows` are its changes in id order, `after` the newest id before them. */
  hold(after: number, rows: readonly StreamRow[]): void;
  /** The changes after `afterId` when the held ones start right after it, else undefined (read them). */
  after(afterId: number): readonly StreamRow[] | undefined;
}

export function createRecentChanges(): RecentChanges {
  let held: { after: number; rows: readonly StreamRow[] } | undefined;
  return {
    hold(after, rows) {
      held = rows.length > 0 && rows.length <= RECENT_CHANGES_HELD ? { after, rows } : undefined;
    },
    after: (afterId) => (held !== undefined && held.after === afterId ? held.rows : undefined),
  };
}

