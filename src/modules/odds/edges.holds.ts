import type { Static } from 'typebox';
import { figure } from '../../shared/figures.js';
import { priceIn } from '../../shared/odds-format.js';
import { bestPriceOf } from '../../shared/pricing/consensus.js';
import type { BoardRow } from './board.repository.js';
import type { BoardSelection, BoardView } from './board.selections.js';
import type { LowHoldMarket as LowHoldMarketSchema } from './edges-more.schemas.js';

export type LowHoldMarket = Static<typeof LowHoldMarketSchema>;

/**
 * A market's lines across books, for arbitrages and low-hold markets: per line, the rows of each of
 * its outcomes (in the order of `selection.outcomes`). A line counts only when every outcome of the
 * market is priced at it, each at one line, so that the legs cover every result (a 1x2 without its
 * draw covers none, however long its prices).
 */
export function coveredLinesOf(selection: BoardSelection, view: BoardView): BoardRow[][][] {
  const books = view.operatorIds;
  const rows = books === null ? selection.rows : selection.rows.filter((r) => books.includes(r.operator.id));
  const byLine = new Map<string, BoardRow[]>();
  for (const row of rows) {
    // A handicap's sides are at opposite lines (home −4.5, away +4.5): one market at the line's size.
    const key = row.line === null ? '' : String(Math.abs(row.line));
    const list = byLine.get(key);
    if (list === undefined) byLine.set(key, [row]);
    else list.push(row);
  }
  const covered: BoardRow[][][] = [];
  for (const lineRows of byLine.values()) {
    const byPosition = new Map<string, BoardRow[]>();
    for (const row of lineRows) {
      const list = byPosition.get(row.position);
      if (list === undefined) byPosition.set(row.position, [row]);
      else list.push(row);
    }
    const outcomes = selection.outcomes.map((position) => byPosition.get(position) ?? []);
    if (outcomes.some((quotes) => quotes.length === 0 || new Set(quotes.map((r) => r.line)).size !== 1)) continue;
    covered.push(outcomes);
  }
  return covered;
}

/**
 * The low-hold markets of a market (docs/data.md#low-hold-markets): per covered line, the best price
 * of each outcome across the books, when their hold, Σ 1/d − 1, is at most `maxHold`. An arbitrage
 * is a market whose best prices hold less than 0, so it is one too whenever maxHold allows.
 */
export function lowHoldsOf(selection: BoardSelection, view: BoardView, maxHold: number): LowHoldMarket[] {
  const found: LowHoldMarket[] = [];
  for (const outcomes of coveredLinesOf(selection, view)) {
    const legs = outcomes.map((rows) => bestPriceOf(rows.map((row) => ({ book: row, price: row.price }))));
    const hold = legs.reduce((sum, leg) => sum + 1 / (leg?.price ?? Number.NaN), 0) - 1;
    if (!(hold <= maxHold)) continue;
    const { key } = selection;
    found.push({
      event_id: key.event_id,
      betting_market: selection.market,
      event_period_id: key.event_period_id,
      player_id: key.player_id,
      hold,
      legs: legs.flatMap((leg, i) =>
        leg === undefined
          ? []
          : [{ position: selection.outcomes[i] ?? '', line: outcomes[i]?.[0]?.line ?? null, price: priceIn(view.format, leg.price), price_decimal: leg.price, operators: leg.books.map((r) => r.operator) }],
      ),
    });
  }
  return found;
}

/** A low-hold market as answers write it: its hold to 6 decimals; the legs' prices as imported. */
export function shownLowHold(market: LowHoldMarket): LowHoldMarket {
  return { ...market, hold: figure(market.hold) };
}
