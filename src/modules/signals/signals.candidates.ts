import type { MarketEdge, MarketPair } from '../odds/index.js';
import type { NewSignal } from './signals.repository.js';
import type { SignalLeg } from './signals.settle.js';

/** A signal the detector sees now, before it is known whether it is a new appearance. */
export type Candidate = Omit<NewSignal, 'id' | 'ended_at' | 'outcome' | 'profit' | 'closing_price' | 'clv_pct' | 'graded_at'>;

/** An odds row of a market, as an arbitrage leg's selection is looked up among them. */
export interface LegRow {
  selection_id: number | null;
  operator_id: number;
  event_id: number;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  line: number | null;
}

/**
 * The middles of some markets as signals: where the edges module's middles join the detector.
 * None until the odds module offers them (findMiddles); each middle becomes a candidate of type
 * 'middle' with its two legs and their stakes, keyed by its market, its lines and its books.
 */
export type MiddlesOf = (pairs: readonly MarketPair[], at: (pair: MarketPair) => number) => Promise<Candidate[]>;
export const NO_MIDDLES: MiddlesOf = async () => [];

const nullish = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

const legKeyOf = (eventId: number, marketId: number, operatorId: number, position: string, line: number | null, periodId: number | null, playerId: number | null) =>
  `${eventId}|${marketId}|${operatorId}|${position}|${line ?? ''}|${periodId ?? ''}|${playerId ?? ''}`;

/**
 * The value bets and arbitrages of some markets' edges that are signals (docs/data.md#signals):
 * each book's price whose EV reaches `minEdge` (one signal per selection and book), and every
 * arbitrage (one per market, line size and set of books), at `at`, the instant of its market's
 * newest change.
 */
export function candidatesOf(edges: ReadonlyArray<{ edge: MarketEdge; at: number }>, minEdge: number, rows: readonly LegRow[]): Candidate[] {
  const out: Candidate[] = [];
  // A leg's row by what names it, the first row of each (a window's arbitrages have thousands of legs between them).
  const legRows = new Map<string, LegRow>();
  for (const row of rows) {
    const key = legKeyOf(row.event_id, row.betting_market_id, row.operator_id, row.position, nullish(row.line), nullish(row.event_period_id), nullish(row.player_id));
    if (!legRows.has(key)) legRows.set(key, row);
  }
  for (const { edge, at } of edges) {
    if (edge.kind === 'value') {
      for (const bet of edge.every) {
        const selection = bet.event_betting_market_position_id;
        if (bet.ev_pct / 100 < minEdge || selection === null) continue;
        const leg: SignalLeg = { selection_id: selection, operator_id: bet.operator.id, price: bet.price_decimal, stake: 1 };
        out.push({
          type: 'value',
          key: `value|${edge.key}|${bet.operator.id}`,
          event_id: edge.event_id,
          betting_market_id: edge.betting_market_id,
          selection_id: selection,
          operator_id: bet.operator.id,
          position: bet.position,
          line: bet.line,
          price: bet.price_decimal,
          fair_probability: bet.fair_probability,
          edge: bet.ev_pct / 100,
          move_size: null,
          legs: JSON.stringify([leg]),
          detected_at: at,
        });
      }
      continue;
    }
    const { arbitrage } = edge;
    // The stakes that return the same on every result, unrounded: each leg's implied probability over their sum.
    const implied = arbitrage.legs.reduce((sum, leg) => sum + 1 / leg.price_decimal, 0);
    const legs: SignalLeg[] = [];
    for (const leg of arbitrage.legs) {
      const operator = leg.operators[0];
      const row = operator && legRows.get(legKeyOf(edge.event_id, edge.betting_market_id, operator.id, leg.position, leg.line, arbitrage.event_period_id, arbitrage.player_id));
      if (operator === undefined || row?.selection_id === null || row === undefined) break;
      legs.push({ selection_id: Number(row.selection_id), operator_id: operator.id, price: leg.price_decimal, stake: 1 / leg.price_decimal / implied });
    }
    // A leg whose selection is unknown cannot be graded: such an arbitrage is no signal.
    if (legs.length !== arbitrage.legs.length) continue;
    out.push({
      type: 'arbitrage',
      key: `arbitrage|${edge.key}|${legs.map((leg) => leg.operator_id).join(',')}`,
      event_id: edge.event_id,
      betting_market_id: edge.betting_market_id,
      selection_id: null,
      operator_id: null,
      position: null,
      line: arbitrage.legs[0]?.line ?? null,
      price: null,
      fair_probability: null,
      edge: edge.edge,
      move_size: null,
      legs: JSON.stringify(legs),
      detected_at: at,
    });
  }
  return out;
}
