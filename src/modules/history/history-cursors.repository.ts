import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

/** The named cursors of the history processors (feed_cursors): the newest price-history id whose work each has stored. */
export interface HistoryCursors {
  /**
   * Where the cursor stands. A cursor used for the first time is made at the newest change: its
   * processor's work starts with the changes made from then on, not with the whole history.
   */
  position(db: Kysely<Schema>, name: string, newest: (db: Kysely<Schema>) => Promise<number>): Promise<number>;
  /** The newest price change's id (0 when there is none): where a history processor's new cursor starts. */
  newestChange(db: Kysely<Schema>): Promise<number>;
  /**
   * Where the cursor stands, its row locked until `trx` ends; undefined while another transaction
   * holds it (SKIP LOCKED: a second node does not wait, it has nothing to do meanwhile). PostgreSQL.
   */
  claim(trx: Kysely<Schema>, name: string): Promise<number | undefined>;
  /** Moves the cursor from `from` to `to` in `trx`: false when it is no longer at `from`. */
  move(trx: Kysely<Schema>, name: string, from: number, to: number): Promise<boolean>;
}

export const historyCursors: HistoryCursors = {
  async position(db, name, newest) {
    const row = await db.selectFrom('feed_cursors').select('last_id').where('name', '=', name).executeTakeFirst();
    if (row !== undefined) return Number(row.last_id);
    await db
      .insertInto('feed_cursors')
      .values({ name, last_id: await newest(db) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    // Another node may have made it first, and moved it since.
    return historyCursors.position(db, name, newest);
  },

  async newestChange(db) {
    const newest = await db.selectFrom('odds_history').select((eb) => eb.fn.max<number | null>('id').as('last_id')).executeTakeFirst();
    return Number(newest?.last_id ?? 0);
  },

  async claim(trx, name) {
    const row = await trx.selectFrom('feed_cursors').select('last_id').where('name', '=', name).forUpdate().skipLocked().executeTakeFirst();
    return row === undefined ? undefined : Number(row.last_id);
  },

  async move(trx, name, from, to) {
    const result = await trx.updateTable('feed_cursors').set({ last_id: to }).where('name', '=', name).where('last_id', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};

/**
 * The row of feed_cursors that is no processor's: the highest history id the purge has deleted. A
 * reader of the changes after an id below it would miss changes without knowing (the change cursor
 * refuses such an id, decision 0313). Raised in the purge's own transaction, never lowered.
 */
const PURGED = 'history_purged';

export const purgeMark = {
  /** The highest history id the purge has deleted; undefined when it has deleted none since the mark was kept. */
  async read(db: Kysely<Schema>): Promise<number | undefined> {
    const row = await db.selectFrom('feed_cursors').select('last_id').where('name', '=', PURGED).executeTakeFirst();
    return row === undefined ? undefined : Number(row.last_id);
  },

  /** Raises the mark to `id` in `trx` (a lower id leaves it as it is). */
  async raise(trx: Kysely<Schema>, id: number): Promise<void> {
    await trx
      .insertInto('feed_cursors')
      .values({ name: PURGED, last_id: id })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ last_id: (eb) => eb.ref('excluded.last_id') })
          .where('feed_cursors.last_id', '<', (eb) => eb.ref('excluded.last_id')),
      )
      .execute();
  },
};
