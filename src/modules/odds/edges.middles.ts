import type { Static } from 'typebox';
import { figure } from '../../shared/figures.js';
import { type OddsFormat, priceIn } from '../../shared/odds-format.js';
import { splitPosition } from '../../shared/positions.js';
import { bestPriceOf } from '../../shared/pricing/consensus.js';
import { type MiddleSide, middleSideOf, middleStakes, middleWindow } from '../../shared/pricing/middles.js';
import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { type BoardRow, createBoardRepository, type PriceRow } from './board.repository.js';
import { subjectKeyOf } from './board.keys.js';
import { onePerBook } from './board.selections.js';
import type { Middle as MiddleSchema } from './edges-more.schemas.js';

/** A row as middles read it: its price and selection, and the market it is of. */
export interface MiddleRow extends PriceRow {
  market: { id: number };
}

/** One bet of a middle: the best price at its line, and every book offering exactly it (by operator id). */
export interface MiddleLine<R extends MiddleRow> {
  position: string;
  line: number;
  price: number;
  rows: R[];
  operator_ids: number[];
}

/**
 * A middle (docs/data.md#middles): two lines of one market (event, market, period, subject), the bet
 * above the window first (over, or the home side), and the window of results in which both win.
 * `key` names it across calls; the figures are unrounded, for 100 units staked in all.
 */
export interface Middle<R extends MiddleRow> {
  kind: 'middle';
  key: string;
  event_id: number;
  market: R['market'];
  event_period_id: number | null;
  player_id: number | null;
  lines: [MiddleLine<R>, MiddleLine<R>];
  /** Every book of either line, by id. */
  operator_ids: number[];
  /** Both bets win for a settling number strictly between low and high: the total, the team's or player's figure, or the home side's lead. */
  window: { low: number; high: number };
  /** Out of 100 units, in the order of `lines`. */
  stakes: [number, number];
  payout_outside: number;
  payout_inside: number;
  profit_pct_outside: number;
  profit_pct_inside: number;
}

/**
 * The middles among some open rows, of the books asked (null: every book). Each row is read as a bet
 * above or below a threshold (shared/pricing/middles.ts); per market, each threshold's best price
 * across the books, and every pair of an "above" and a "below" line whose window holds a whole
 * number is a middle. Markets with a draw (a three-way handicap) have no middles: their sides are
 * not the two sides of one number. A pair whose best prices are one book's alone is left out: a
 * middle is between books.
 */
export function findMiddles<R extends MiddleRow>(rows: readonly R[], operatorIds: readonly number[] | null = null): Middle<R>[] {
  const bySubject = new Map<string, R[]>();
  for (const row of rows) {
    if (!row.open || (operatorIds !== null && !operatorIds.includes(row.operator.id))) continue;
    const key = subjectKeyOf(row);
    const list = bySubject.get(key);
    if (list === undefined) bySubject.set(key, [row]);
    else list.push(row);
  }
  const found: Middle<R>[] = [];
  for (const [subject, subjectRows] of bySubject) found.push(...middlesOf(subject, subjectRows));
  return found;
}

function middlesOf<R extends MiddleRow>(subject: string, rows: readonly R[]): Middle<R>[] {
  const sides = rows.map((row) => splitPosition(row.position).side);
  if (sides.includes('draw')) return [];
  // A book quoting one position at one line twice counts once, with its first row by id.
  const byThreshold = new Map<string, { side: MiddleSide; rows: R[] }>();
  for (const row of onePerBook(rows, (r) => `${r.position}|${r.line ?? ''}`)) {
    const side = middleSideOf(splitPosition(row.position).side, row.line);
    if (side === undefined) continue;
    const key = `${side.way}|${side.at}`;
    const entry = byThreshold.get(key);
    if (entry === undefined) byThreshold.set(key, { side, rows: [row] });
    else entry.rows.push(row);
  }
  const lines = [...byThreshold.values()].map(({ side, rows: at }) => ({ side, best: bestLineOf(at) }));
  const found: Middle<R>[] = [];
  for (const above of lines) {
    if (above.side.way !== 'above' || above.best === undefined) continue;
    for (const below of lines) {
      if (below.side.way !== 'below' || below.best === undefined) continue;
      const window = middleWindow(above.side.at, below.side.at);
      if (window === undefined) continue;
      const books = [...new Set([...above.best.operator_ids, ...below.best.operator_ids])].sort((a, b) => a - b);
      if (books.length < 2) continue;
      const split = middleStakes(above.best.price, below.best.price);
      const first = above.best.rows[0] ?? below.best.rows[0];
      if (first === undefined) continue;
      found.push({
        kind: 'middle',
        key: `${subject}|${window.low}|${window.high}`,
        event_id: first.event_id,
        market: first.market,
        event_period_id: first.event_period_id,
        player_id: first.player_id,
        lines: [above.best, below.best],
        operator_ids: books,
        window,
        stakes: split.stakes,
        payout_outside: split.payoutOutside,
        payout_inside: split.payoutInside,
        profit_pct_outside: split.profitPctOutside,
        profit_pct_inside: split.profitPctInside,
      });
    }
  }
  return found;
}

/** The best price of the rows at one threshold (one position at one line), with its books by id. */
function bestLineOf<R extends MiddleRow>(rows: readonly R[]): MiddleLine<R> | undefined {
  const best = bestPriceOf(rows.map((row) => ({ book: row, price: row.price })));
  const [first] = best?.books ?? [];
  if (best === undefined || first === undefined || first.line === null) return undefined;
  return { position: first.position, line: first.line, price: best.price, rows: best.books, operator_ids: best.books.map((row) => row.operator.id) };
}

export type MiddleItem = Static<typeof MiddleSchema>;

/**
 * A middle as answers write it, its prices in `format`: the figures computed here (stakes,
 * payouts, profits) to 6 decimals; the lines, the window and the books' prices as imported.
 */
export function shownMiddle(middle: Middle<BoardRow>, format: OddsFormat): MiddleItem {
  return {
    event_id: middle.event_id,
    betting_market: middle.market,
    event_period_id: middle.event_period_id,
    player_id: middle.player_id,
    window: middle.window,
    legs: middle.lines.map((line, i) => ({
      position: line.position,
      line: line.line,
      price: priceIn(format, line.price),
      price_decimal: line.price,
      operators: line.rows.map((row) => row.operator),
      stake: figure(middle.stakes[i] ?? 0),
    })),
    payout_outside: figure(middle.payout_outside),
    profit_pct_outside: figure(middle.profit_pct_outside),
    payout_inside: figure(middle.payout_inside),
    profit_pct_inside: figure(middle.profit_pct_inside),
  };
}

/** The order middles are listed in: the smallest loss outside the window first, then the widest window, then by key. */
export function compareMiddles<R extends MiddleRow>(a: Middle<R>, b: Middle<R>): number {
  return (
    b.profit_pct_outside - a.profit_pct_outside ||
    b.window.high - b.window.low - (a.window.high - a.window.low) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

/** The middles of some (event, market) pairs, from their stored rows as they are now: what the signals' detector records. */
export async function middlesOfMarkets(db: Kysely<Schema>, pairs: ReadonlyArray<readonly [eventId: number, marketId: number]>): Promise<Middle<MiddleRow>[]> {
  if (pairs.length === 0) return [];
  const rows = await createBoardRepository(db).priceRowsOf(pairs);
  return findMiddles(rows.map((row) => ({ ...row, market: { id: row.betting_market_id } })));
}
