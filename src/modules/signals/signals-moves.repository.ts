import type { Kysely, Selectable } from 'kysely';
import type { OddsMovesTable, Schema } from '../../platform/db/schema.js';

/** A stored steam move or drop (the odds module's, decision 0319). */
export type OddsMove = Selectable<OddsMovesTable>;

/** The reads the move signals make: the moves after a cursor, a move's selection, and the last appearance of a key. */
export const movesRepository = {
  async after(db: Kysely<Schema>, afterId: number, limit: number): Promise<OddsMove[]> {
    return db.selectFrom('odds_moves').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
  },

  async newest(db: Kysely<Schema>): Promise<number> {
    const row = await db.selectFrom('odds_moves').select((eb) => eb.fn.max<number | null>('id').as('last')).executeTakeFirst();
    return Number(row?.last ?? 0);
  },

  /** The selection a move is of: the row of its market, position and line at one of its books. */
  async selectionOf(db: Kysely<Schema>, move: OddsMove, books: readonly number[]): Promise<number | undefined> {
    let select = db.selectFrom('odds').select('selection_id').where('event_id', '=', move.event_id).where('betting_market_id', '=', move.betting_market_id).where('position', '=', move.position);
    select = move.line === null ? select.where('line', 'is', null) : select.where('line', '=', move.line);
    if (books.length > 0) select = select.where('operator_id', 'in', books);
    const row = await select.where('selection_id', 'is not', null).executeTakeFirst();
    return row?.selection_id === undefined || row.selection_id === null ? undefined : Number(row.selection_id);
  },

  /** When the latest appearance of a key ends (a move's appearance lasts its window). */
  async lastEnd(db: Kysely<Schema>, key: string): Promise<number | undefined> {
    const row = await db.selectFrom('signals').select('ended_at').where('key', '=', key).orderBy('detected_at', 'desc').executeTakeFirst();
    return row?.ended_at === undefined || row.ended_at === null ? undefined : Number(row.ended_at);
  },
};
