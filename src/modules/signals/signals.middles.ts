import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { middlesOfMarkets } from '../odds/index.js';
import type { Candidate, MiddlesOf } from './signals.candidates.js';
import type { SignalLeg } from './signals.settle.js';

/**
 * Middles as signals (docs/data.md#signals): each middle of the markets an import touched, as the
 * edges endpoint finds them, bet at a book of each line's best price with the stakes that pay the
 * same outside the window (out of 1), keyed by the middle (market, lines) and its two books. Its
 * edge is the profit outside the window (a small loss, as a rule: the window is what it is bet for).
 */
export function middlesFrom(db: Kysely<Schema>): MiddlesOf {
  return async (pairs, at) => {
    const out: Candidate[] = [];
    const byKey = new Map(pairs.map((pair) => [`${pair[0]}|${pair[1]}`, pair]));
    for (const middle of await middlesOfMarkets(db, pairs)) {
      const legs: SignalLeg[] = [];
      for (const [i, line] of middle.lines.entries()) {
        const row = line.rows[0];
        if (row === undefined || row.selection_id === null) break;
        legs.push({ selection_id: Number(row.selection_id), operator_id: row.operator.id, price: line.price, stake: middle.stakes[i]! / 100 });
      }
      // A leg whose selection is unknown cannot be graded: such a middle is no signal.
      const pair = byKey.get(`${middle.event_id}|${middle.market.id}`);
      if (legs.length !== 2 || pair === undefined) continue;
      out.push({
        type: 'middle',
        key: `middle|${middle.key}|${legs.map((leg) => leg.operator_id).join(',')}`,
        event_id: middle.event_id,
        betting_market_id: middle.market.id,
        selection_id: null,
        operator_id: null,
        position: null,
        line: middle.lines[0].line,
        price: null,
        fair_probability: null,
        edge: middle.profit_pct_outside / 100,
        move_size: null,
        legs: JSON.stringify(legs),
        detected_at: at(pair),
      });
    }
    return out;
  };
}
