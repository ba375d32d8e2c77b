import { chunksOf } from '../../platform/chunks.js';
import { figure } from '../../shared/figures.js';
import { priceIn } from '../../shared/odds-format.js';
import type { Quote } from '../../shared/pricing/consensus.js';
import { arbitrageOf, expectedValuePct, kellyStake } from '../../shared/pricing/edges.js';
import type { KeyResolver } from '../references/index.js';
import type { BoardRow } from './board.repository.js';
import type { BoardService } from './board.service.js';
import { marketKeyOf } from './board.keys.js';
import { marketViewOf } from './board.market.js';
import { type BoardSelection, boardItemOf, type BoardView, fairOf } from './board.selections.js';
import { coveredLinesOf, type LowHoldMarket, lowHoldsOf, shownLowHold } from './edges.holds.js';
import { compareMiddles, findMiddles, shownMiddle } from './edges.middles.js';
import { EDGES_MAX_LISTED, type EdgesAnswer, type EdgesBody } from './edges.schemas.js';

/** Edges: where a book beats the market over the selections of a board. */
export interface EdgesService {
  /** The value bets, arbitrages, middles and (with max_hold) low-hold markets of a board's selections, best first (POST /v1/odds/edges). */
  edges(body: EdgesBody): Promise<EdgesAnswer>;
}

export type ValueBet = EdgesAnswer['value_bets'][number];
export type Arbitrage = EdgesAnswer['arbitrages'][number];

/** Selections loaded per query: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/**
 * Where a book beats the market, over the selections of a board (docs/data.md#edges): value bets
 * against a fair price (the consensus's, or a reference book's) with their Kelly stakes,
 * arbitrages and low-hold markets across books, and middles between books' lines. Computed from
 * the board's own selections, so the edges and the board of one request always agree.
 */
export function createEdgesService(deps: { board: BoardService['board']; keys: KeyResolver }): EdgesService {
  const { board, keys } = deps;

  return {
    async edges(body: EdgesBody): Promise<EdgesAnswer> {
      const filters = board.filters(body);
      const view: BoardView = { operatorIds: filters.o, format: filters.f, method: filters.d, deeplinks: filters.dl };
      const minEdge = body.min_edge ?? 0;
      const kellyFraction = body.kelly_fraction ?? 1;
      const maxHold = body.max_hold;
      // The id wins over the key, which is then not read, as a scope's id and key do.
      const referenceId = await keys.scope(
        'operator',
        { id: body.devig_reference_operator_id, key: body.devig_reference_operator_key },
        { id: 'devig_reference_operator_id', key: 'devig_reference_operator_key' },
      );
      const ids = [...(await board.ids(filters))];
      const valueBets: ValueBet[] = [];
      const arbitrages: Arbitrage[] = [];
      const lowHolds: LowHoldMarket[] = [];
      const markets = new Set<string>();
      // Every row of the scope's markets once, for the middles, which pair lines across markets.
      const rows = new Map<number, BoardRow>();
      for (const chunk of chunksOf(ids, CHUNK)) {
        const selections = await board.items(chunk, filters);
        // In the board's order, not the database's: equal edges then keep one order (the sorts below are stable).
        for (const id of chunk) {
          const entry = selections.get(id);
          if (entry === undefined || !('rows' in entry)) continue;
          valueBets.push(...valueBetsOf(entry, view, minEdge, { kellyFraction, referenceId: referenceId ?? null }));
          for (const row of entry.rows) rows.set(row.id, row);
          const market = marketKeyOf(entry.key);
          if (markets.has(market)) continue;
          markets.add(market);
          arbitrages.push(...arbitragesOf(entry, view));
          if (maxHold !== undefined) lowHolds.push(...lowHoldsOf(entry, view, maxHold));
        }
      }
      const middles = findMiddles([...rows.values()], view.operatorIds);
      // Chosen and ordered by the unrounded figures; rounded only as they are written.
      valueBets.sort((a, b) => b.ev_pct - a.ev_pct);
      arbitrages.sort((a, b) => b.profit_pct - a.profit_pct);
      lowHolds.sort((a, b) => a.hold - b.hold);
      middles.sort(compareMiddles);
      return {
        devig: filters.d,
        min_edge: minEdge,
        value_bets: valueBets.slice(0, EDGES_MAX_LISTED).map(shownValueBet),
        value_bets_total: valueBets.length,
        arbitrages: arbitrages.slice(0, EDGES_MAX_LISTED).map(shownArbitrage),
        arbitrages_total: arbitrages.length,
        kelly_fraction: kellyFraction,
        devig_reference_operator_id: referenceId ?? null,
        middles: middles.slice(0, EDGES_MAX_LISTED).map((middle) => shownMiddle(middle, view.format)),
        middles_total: middles.length,
        ...(maxHold === undefined
          ? {}
          : { max_hold: maxHold, low_hold_markets: lowHolds.slice(0, EDGES_MAX_LISTED).map(shownLowHold), low_hold_markets_total: lowHolds.length }),
      };
    },
  };
}

/** How value bets are priced beyond the view: the share of Kelly staked, and the book whose fair price is taken (null: the consensus). */
export interface ValueBetOptions {
  kellyFraction?: number;
  referenceId?: number | null;
}

/**
 * The prices of a selection whose EV% against its fair probability is at least `minEdge`, each with
 * its Kelly stake. The fair probability is the consensus's, or the reference book's own market's
 * (docs/data.md#a-reference-book). Only books at the fair price's line: a price at another line
 * bets on something else.
 */
export function valueBetsOf(selection: BoardSelection, view: BoardView, minEdge: number, options: ValueBetOptions = {}): ValueBet[] {
  const item = boardItemOf(selection, view);
  const fair = options.referenceId === undefined || options.referenceId === null ? { ...item.fair.consensus, line: item.consensus.line } : referenceFairOf(selection, view, options.referenceId);
  const p = fair.probability;
  const fairPrice = fair.price;
  if (p === null || fairPrice === null) return [];
  const bets: ValueBet[] = [];
  for (const price of item.prices) {
    if (price.line !== fair.line) continue;
    const evPct = expectedValuePct(price.price_decimal, p);
    if (evPct < minEdge) continue;
    bets.push({
      event_betting_market_position_id: item.event_betting_market_position_id,
      event_id: item.event_id,
      betting_market: item.betting_market,
      event_period_id: item.event_period_id,
      player_id: item.player_id,
      position: item.position,
      line: price.line,
      operator: price.operator,
      price: price.price,
      price_decimal: price.price_decimal,
      fair_probability: p,
      fair_price: fairPrice,
      ev_pct: evPct,
      kelly_stake: kellyStake(price.price_decimal, p, options.kellyFraction),
      ...(view.deeplinks
        ? { bet_web_deep_link_url: price.bet_web_deep_link_url, bet_ios_deep_link_url: price.bet_ios_deep_link_url, bet_android_deep_link_url: price.bet_android_deep_link_url }
        : {}),
    });
  }
  return bets;
}

/**
 * The fair price of a selection by one book's own market, de-vigged by the view's method, at that
 * book's line; none when the book does not price the selection or every outcome of its market. The
 * book is read whatever `operator_ids` asks: the books compared and the book compared with are two
 * questions.
 */
function referenceFairOf(selection: BoardSelection, view: BoardView, referenceId: number): { probability: number | null; price: number | null; line: number | null } {
  const market = marketViewOf(selection, null);
  const own = market.bookRows(referenceId).get(selection.key.position);
  if (own === undefined) return { probability: null, price: null, line: null };
  const fair = fairOf(market.book(referenceId, view.method), market.indexOf(selection.key.position));
  return { probability: fair.probability, price: fair.price, line: own.line };
}

/** The arbitrages of a market: per covered line (edges.holds.ts), the best price of each of its outcomes across the books, when they imply less than 1. */
export function arbitragesOf(selection: BoardSelection, view: BoardView): Arbitrage[] {
  const found: Arbitrage[] = [];
  for (const outcomes of coveredLinesOf(selection, view)) {
    const arbitrage = arbitrageOf(outcomes.map((quotes) => quotes.map((r): Quote<BoardRow> => ({ book: r, price: r.price, line: r.line }))));
    if (arbitrage === undefined) continue;
    const { key } = selection;
    found.push({
      event_id: key.event_id,
      betting_market: selection.market,
      event_period_id: key.event_period_id,
      player_id: key.player_id,
      implied_sum: arbitrage.impliedSum,
      profit_pct: arbitrage.profitPct,
      payout: arbitrage.payout,
      legs: arbitrage.legs.map((leg, i) => ({
        position: selection.outcomes[i] ?? '',
        line: outcomes[i]?.[0]?.line ?? null,
        price: priceIn(view.format, leg.price),
        price_decimal: leg.price,
        operators: leg.books.map((r) => r.operator),
        stake: arbitrage.stakes[i] ?? 0,
      })),
    });
  }
  return found;
}

/** A value bet as answers write it: its fair probability, fair price, EV% and Kelly stake to 6 decimals; the book's price as imported. */
export function shownValueBet(bet: ValueBet): ValueBet {
  return { ...bet, fair_probability: figure(bet.fair_probability), fair_price: figure(bet.fair_price), ev_pct: figure(bet.ev_pct), kelly_stake: figure(bet.kelly_stake) };
}

/** An arbitrage as answers write it: its sum, margin, payout and stakes to 6 decimals; the legs' prices as imported. */
export function shownArbitrage(arbitrage: Arbitrage): Arbitrage {
  return {
    ...arbitrage,
    implied_sum: figure(arbitrage.implied_sum),
    profit_pct: figure(arbitrage.profit_pct),
    payout: figure(arbitrage.payout),
    legs: arbitrage.legs.map((leg) => ({ ...leg, stake: figure(leg.stake) })),
  };
}
