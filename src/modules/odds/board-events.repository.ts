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

/** A batch as stored, with when it was. */
export interface StoredBoardChangeBatch extends BoardChangeBatch {
  createdAt: number;
}

/** The stored board changes (board_changes), as the streams and the webhooks' former read them. */
export interface BoardEventsRepository {
  /** The batches after a history id, oldest first, at most `limit`. */
  after(historyId: number, limit: number): Promise<StoredBoardChangeBatch[]>;
  /** The newest batch's history id (0 when none is stored). */
  newest(): Promise<number>;
}

export function createBoardEventsRepository(db: Kysely<Schema>): BoardEventsRepository {
  return {
    async after(historyId, limit) {
      const rows = await db.selectFrom('board_changes').selectAll().where('history_id', '>', historyId).orderBy('history_id').limit(limit).execute();
      return rows.map((row) => ({ historyId: Number(row.history_id), changes: JSON.parse(row.changes) as LeaguedBoardChange[], createdAt: Number(row.created_at) }));
    },
    async newest() {
      const row = await db.selectFrom('board_changes').select((eb) => eb.fn.max<number | null>('history_id').as('last')).executeTakeFirst();
      return Number(row?.last ?? 0);
    },
  };
}

/**
 * Stores a batch, and deletes those stored before `expiredBefore` (epoch ms): board events are not
 * replayed, so they are kept only for the nodes to read; but a batch that a durable reader's
 * cursor (`readers`, feed_cursors names: the webhooks' former) has not passed is kept until it
 * has, whatever its age, or a former that was down longer than the retention would lose it.
 */
export async function storeBoardChanges(trx: Kysely<Schema>, batch: BoardChangeBatch, now: number, expiredBefore: number, readers: readonly string[] = []): Promise<void> {
  await trx.insertInto('board_changes').values({ history_id: batch.historyId, changes: JSON.stringify(batch.changes), created_at: now }).execute();
  let expired = trx.deleteFrom('board_changes').where('created_at', '<', expiredBefore);
  for (const reader of readers) {
    expired = expired.where('history_id', '<=', (eb) => eb.selectFrom('feed_cursors').select('last_id').where('name', '=', reader));
  }
  await expired.execute();
}
