import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { numberOrNull } from '../../platform/db/column-values.js';
import { joinStateAt } from './as-of.repository.js';
import { keyFields, keyFieldsOf, type SelectionKey } from './board.repository.js';

/** The movement's queries: the rows of a page's selections, then the history of those rows, each in one read. */
export interface MovementRepository {
  /**
   * Every row, open or suspended, of some events' markets, with its operator: the books of the
   * selections. `at` (epoch ms): the rows the price history knows at that instant, each with its
   * line, price and status then and `updated_at` the instant of that change, read with their state
   * in the same statement (as-of.repository.ts); a row first priced after it is not one of them.
   */
  bookRowsOf(eventIds: readonly number[], marketIds: readonly number[], at?: number | null): Promise<BookRow[]>;
  /**
   * The history of some odds rows up to `upTo` (changed_at ≤ upTo), by row, then changed_at, then
   * id: the order in which the changes took effect. `eventIds` are the rows' events: the history's
   * (event_id, changed_at, id) index finds them.
   */
  historyOf(eventIds: readonly number[], oddsIds: readonly number[], upTo: number): Promise<HistoryPoint[]>;
}

/** An odds row as a book of a selection. */
export interface BookRow extends SelectionKey {
  operator: { id: number; key: string; name: string };
  market: { id: number; key: string; name: string };
  price: number;
  open: boolean;
  updated_at: number;
  selection_id: number | null;
}

/** One recorded change of an odds row: its price and status from `at` on. */
export interface HistoryPoint {
  odds_id: number;
  at: number;
  price: number;
  open: boolean;
}

export function createMovementRepository(db: Kysely<Schema>): MovementRepository {
  return {
    async bookRowsOf(eventIds, marketIds, at = null) {
      if (eventIds.length === 0) return [];
      const rows = await db
        .selectFrom('odds')
        .$if(at !== null, (q) => joinStateAt(db, q, at ?? 0))
        .leftJoin('operators as op', 'op.id', 'odds.operator_id')
        .leftJoin('betting_markets as m', 'm.id', 'odds.betting_market_id')
        .select([
          ...keyFields, 'odds.operator_id', 'odds.price_decimal', 'odds.status', 'odds.updated_at', 'odds.selection_id', 'op.key as operator_key', 'op.name as operator_name',
          'm.key as market_key', 'm.name as market_name',
        ])
        .where('odds.event_id', 'in', eventIds)
        .where('odds.betting_market_id', 'in', marketIds)
        .execute();
      return rows.map((r) => ({
        ...keyFieldsOf(r),
        ...(r.line_to === undefined ? {} : { line: numberOrNull(r.line_to) }),
        operator: { id: Number(r.operator_id), key: r.operator_key ?? '', name: r.operator_name ?? '' },
        market: { id: Number(r.betting_market_id), key: r.market_key ?? '', name: r.market_name ?? '' },
        price: Number(r.price_to ?? r.price_decimal),
        open: (r.status_to ?? r.status) === 'open',
        updated_at: Number(r.changed_at ?? r.updated_at),
        selection_id: numberOrNull(r.selection_id),
      }));
    },

    async historyOf(eventIds, oddsIds, upTo) {
      if (oddsIds.length === 0) return [];
      const rows = await db
        .selectFrom('odds_history')
        .select(['odds_id', 'changed_at', 'price_to', 'status_to'])
        .where('event_id', 'in', eventIds)
        .where('odds_id', 'in', oddsIds)
        .where('changed_at', '<=', upTo)
        .orderBy('odds_id')
        .orderBy('changed_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ odds_id: Number(r.odds_id), at: Number(r.changed_at), price: Number(r.price_to), open: r.status_to === 'open' }));
    },
  };
}
