import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { MINUTE_MS } from '../../platform/time.js';
import { storeBoardChanges, type LeaguedBoardChange } from './board-events.repository.js';
import { createBoardChanges, type PriceChange } from './board.changes.js';

/** The history processor's cursor for the board events (feed_cursors.name). */
export const BOARD_EVENTS_CURSOR = 'board events';
/** How long a batch is kept: long enough for every node's streams to read it, as they are not replayed. */
const RETENTION_MS = 5 * MINUTE_MS;

/**
 * The board events (docs/api.md#live-odds-stream) as a history processor's work (decision 0293):
 * computed once from the price changes after each import, by whichever node gets to it first, and
 * stored for every node's streams to read (board_changes, and the 'board' change counter); a
 * stream's node reads them, it does not compute them.
 */
export interface BoardEventsWork {
  readonly name: string;
  /** The board changes a batch of price changes makes, each with its event's league, read through `db`. */
  compute(db: Kysely<Schema>, rows: ReadonlyArray<{ item: PriceChange; leagueId: number | null }>): Promise<LeaguedBoardChange[]>;
  /** Stores them (when there are any) in the transaction that moves the cursor to `lastId`, and moves the 'board' counter. */
  store(trx: Kysely<Schema>, made: readonly LeaguedBoardChange[], lastId: number): Promise<void>;
  /** After the commit: the nodes are told. */
  committed(made: readonly LeaguedBoardChange[]): Promise<void>;
}

export function createBoardEventsWork(deps: { clock: Clock; changes: ChangeFeed; readers?: readonly string[] }): BoardEventsWork {
  const { clock, changes, readers } = deps;
  return {
    name: BOARD_EVENTS_CURSOR,
    async compute(db, rows) {
      const leagueOf = new Map(rows.map((row) => [row.item.event_id, row.leagueId]));
      const made = await createBoardChanges(db)(rows.map((row) => row.item));
      return made.map((change) => ({ change, leagueId: leagueOf.get(change.event_id) ?? null }));
    },
    async store(trx, made, lastId) {
      if (made.length === 0) return;
      const now = clock.now();
      await storeBoardChanges(trx, { historyId: lastId, changes: [...made] }, now, now - RETENTION_MS, readers);
      await changes.bump(trx, 'board');
    },
    async committed(made) {
      if (made.length > 0) await changes.changed('board');
    },
  };
}
