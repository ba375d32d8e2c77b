import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors.js';
import { purgeMark } from './history-cursors.repository.js';
import type { HistoryRepository, StreamFilter } from './history.repository.js';
import type { HistoryItem } from './history.schemas.js';

/**
 * The price changes after an id, a page at a time: the odds stream's replay as a keyset cursor
 * (decision 0313). The same query reads both, so a page holds exactly what a stream reconnecting
 * with that id as its Last-Event-ID replays first.
 */
export interface ChangeCursor {
  /**
   * Up to `limit` changes with an id above `after`, in id order, that `filter` follows, and the
   * id to ask after next (the last one given, else `after`). 422 naming `after` when changes
   * above it have been purged, or when no change has had it yet; 0 starts with the oldest kept.
   */
  page(after: number, limit: number, filter: StreamFilter): Promise<{ results: HistoryItem[]; next_after: number }>;
}

const NEWEST = Number.MAX_SAFE_INTEGER;

export function createChangeCursor(deps: { db: Kysely<Schema>; history: HistoryRepository }): ChangeCursor {
  const { db, history } = deps;

  /** The highest id the purge may have deleted: its mark, or, before it kept one, everything below the oldest change kept. */
  const purgedUpTo = async (): Promise<number> => {
    const mark = await purgeMark.read(db);
    if (mark !== undefined) return mark;
    const first = await history.firstId();
    return first === undefined ? history.lastIssuedId() : first - 1;
  };

  return {
    async page(after, limit, filter) {
      const rows = await history.rowsAfter(after, NEWEST, limit, filter);
      // Read after the page: a purge that ran before it is seen, and the page is refused.
      if (after > 0) await refuseAfterPurged(after, await purgedUpTo(), history);
      if (rows.length === 0 && after > 0) {
        const issued = await history.lastIssuedId();
        if (after > issued) throw validationError('after', 'maximum', `after must be at most ${issued}, the id of the newest change`);
      }
      return { results: rows.map((row) => row.item), next_after: rows.at(-1)?.item.id ?? after };
    },
  };
}

/** 422 when changes above `after` have been purged: the client has missed them, and must hear so. */
async function refuseAfterPurged(after: number, purged: number, history: HistoryRepository): Promise<void> {
  if (after >= purged) return;
  const [oldest] = await history.rowsAfter(purged, NEWEST, 1);
  const kept = oldest === undefined ? 'none is kept' : `the oldest change kept is id ${oldest.item.id}`;
  throw validationError(
    'after',
    'minimum',
    `after ${after} is older than the oldest change kept: the history's retention has deleted the changes up to id ${purged}, and ${kept}. ` +
      `Read the current odds again, then continue with after=${purged}`,
  );
}
