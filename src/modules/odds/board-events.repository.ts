import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { BoardChange } from './board.changes.js';

/** A board change with its event's league, as the streams filter it. */
export interface LeaguedBoardChange {
  change: BoardChange;
  leagueId: number | null;
}

/** The board changes of the price changes up to a history id: one computed batch. */
export interface BoardChangeBatch {
  historyId: number;
  changes: LeaguedBoardChange[];
}

/** The stored board changes (board_changes), as the streams read them. */
export interface BoardEventsRepository {
  /** The batches after a history id, oldest first, at most `limit`. */
  after(historyId: number, limit: number): Promise<BoardChangeBatch[]>;
}

export function createBoardEventsRepository(db: Kysely<Schema>): BoardEventsRepository {
  return {
    async after(historyId, limit) {
      const rows = await db.selectFrom('board_changes').select(['history_id', 'changes']).where('history_id', '>', historyId).orderBy('history_id').limit(limit).execute();
      return rows.map((row) => ({ historyId: Number(row.history_id), changes: JSON.parse(row.changes) as LeaguedBoardChange[] }));
    },
  };
}

/** Stores a batch, and deletes those stored before `expiredBefore` (epoch ms): board events are not replayed, so they are kept only for the nodes to read. */
export async function storeBoardChanges(trx: Kysely<Schema>, batch: BoardChangeBatch, now: number, expiredBefore: number): Promise<void> {
  await trx.insertInto('board_changes').values({ history_id: batch.historyId, changes: JSON.stringify(batch.changes), created_at: now }).execute();
  await trx.deleteFrom('board_changes').where('created_at', '<', expiredBefore).execute();
}
