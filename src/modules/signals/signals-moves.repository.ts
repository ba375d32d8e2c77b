import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

/**
 * The moves table as its contract names its columns (the odds module's steam and drops; decision
 * 0319): declared here for the reader, created by the moves' own migration.
 */
export interface OddsMovesTable {
  id: number;
  kind: string;
  event_id: number;
  betting_market_id: number;
  /** The board's subject key of the selection's market (subjectKeyOf). */
  subject_key: string;
  position: string;
  line: number | null;
  /** A drop's book; null for steam. */
  operator_id: number | null;
  /** Steam's books, JSON. */
  operator_ids: string | null;
  from_price: number;
  to_price: number;
  size: number;
  window_seconds: number;
  detected_at: number;
  changed_at: number;
}

export type OddsMove = OddsMovesTable;

const withMoves = (db: Kysely<Schema>) => db.withTables<{ odds_moves: OddsMovesTable }>();

/** The reads the move signals make: the moves after a cursor, a move's selection, and the last appearance of a key. */
export const movesRepository = {
  async after(db: Kysely<Schema>, afterId: number, limit: number): Promise<OddsMove[]> {
    return withMoves(db).selectFrom('odds_moves').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
  },

  async newest(db: Kysely<Schema>): Promise<number> {
    const row = await withMoves(db).selectFrom('odds_moves').select((eb) => eb.fn.max<number | null>('id').as('last')).executeTakeFirst();
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
