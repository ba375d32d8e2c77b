import type { Kysely } from 'kysely';
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
 * The state at `at` of each odds row named that has one (a row first priced after `at` has none):
 * per row, one backward step in odds_history_odds_idx (odds_id, changed_at, id) to its latest
 * change at or before `at`, the later recorded first on equal instants; never a replay of the
 * history. A late import of an earlier change is such a change too: the past answer moves with it.
 */
export async function statesAt(db: Kysely<Schema>, oddsIds: readonly number[], at: number): Promise<Map<number, PriceState>> {
  const states = new Map<number, PriceState>();
  for (const chunk of chunksOf(oddsIds, CHUNK)) {
    const rows = await db
      .selectFrom('odds_history as h')
      .select(['h.odds_id', 'h.price_to', 'h.line_to', 'h.status_to', 'h.changed_at'])
      .where('h.id', 'in', (eb) =>
        eb
          .selectFrom('odds as o')
          .select((inner) =>
            inner
              .selectFrom('odds_history as l')
              .select('l.id')
              .whereRef('l.odds_id', '=', 'o.id')
              .where('l.changed_at', '<=', at)
              .orderBy('l.changed_at', 'desc')
              .orderBy('l.id', 'desc')
              .limit(1)
              .as('latest'),
          )
          .where('o.id', 'in', [...chunk]),
      )
      .execute();
    for (const r of rows) {
      states.set(Number(r.odds_id), { price: Number(r.price_to), line: numberOrNull(r.line_to), status: r.status_to, changed_at: Number(r.changed_at) });
    }
  }
  return states;
}
