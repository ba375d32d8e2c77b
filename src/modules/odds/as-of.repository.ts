import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { isSqlite } from '../../platform/db/locked-transaction.js';
import { chunksOf } from '../../platform/chunks.js';
import { numberOrNull } from '../../platform/db/column-values.js';
import type { Schema } from '../../platform/db/schema.js';

/** An odds row as the price history knows it at an instant: its latest change at or before it. */
export interface PriceState {
  price: number;
  line: number | null;
  status: string;
  /** Epoch ms: when that change happened. */
  changed_at: number;
}

/** Odds rows per statement: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/**
 * Joins to a select from `odds` (not aliased, nothing else joined yet) each row's state at `at`
 * as `h`, and selects it (`price_to`, `line_to`, `status_to`, `changed_at`): the row's latest
 * change at or before `at`, the
 * later recorded first on equal instants. One backward step per row in odds_history_odds_idx
 * (odds_id, changed_at, id), inside the statement that reads the rows, never a replay of the
 * history; a row first priced after `at` has no state, and the join leaves it out. A late import of
 * an earlier change is such a change too: the past answer moves with it. `only`: the rows with
 * that status then (a board's: open).
 *
 * The step is written for each engine as its planner takes it: on PostgreSQL a lateral join (a join
 * on the id the step finds is hashed against the whole history there), on SQLite, which has no
 * lateral join, a join on that id.
 */
export function joinStateAt(db: Kysely<Schema>, query: SelectQueryBuilder<Schema, 'odds', object>, at: number, only?: 'open') {
  const latest = db
    .selectFrom('odds_history as l')
    .where('l.odds_id', '=', sql.ref<number>('odds.id'))
    .where('l.changed_at', '<=', at)
    .orderBy('l.changed_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(1);
  const state = [
    sql.ref<number>('h.price_to').as('price_to'),
    sql.ref<number | null>('h.line_to').as('line_to'),
    sql.ref<string>('h.status_to').as('status_to'),
    sql.ref<number>('h.changed_at').as('changed_at'),
  ] as const;
  const withStatus = sql<boolean>`${sql.ref('h.status_to')} = ${only ?? null}`;
  return isSqlite(db)
    ? query
        .innerJoin('odds_history as h', (join) => join.on(sql<boolean>`${sql.ref('h.id')} = (${latest.select('l.id')})`))
        .$if(only !== undefined, (q) => q.where(withStatus))
        .select(state)
    : query
        .innerJoinLateral(latest.select(['l.price_to', 'l.line_to', 'l.status_to', 'l.changed_at']).as('h'), (join) => join.onTrue())
        .$if(only !== undefined, (q) => q.where(withStatus))
        .select(state);
}

/**
 * The state at `at` of each odds row named that has one (a row first priced after `at` has none),
 * by joinStateAt. For a few rows named by id (an event's odds); a board reads its rows with their
 * state in one statement instead (board.repository.ts).
 */
export async function statesAt(db: Kysely<Schema>, oddsIds: readonly number[], at: number): Promise<Map<number, PriceState>> {
  const states = new Map<number, PriceState>();
  for (const chunk of chunksOf(oddsIds, CHUNK)) {
    const rows = await db
      .selectFrom('odds')
      .$call((q) => joinStateAt(db, q, at))
      .select('odds.id')
      .where('odds.id', 'in', [...chunk])
      .execute();
    for (const r of rows) {
      states.set(Number(r.id), { price: Number(r.price_to), line: numberOrNull(r.line_to), status: r.status_to, changed_at: Number(r.changed_at) });
    }
  }
  return states;
}
