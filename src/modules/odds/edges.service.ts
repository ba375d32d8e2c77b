import { chunksOf } from '../../platform/chunks.js';
import { figure } from '../../shared/figures.js';
import { priceIn } from '../../shared/odds-format.js';
import type { Quote } from '../../shared/pricing/consensus.js';
import { arbitrageOf, expectedValuePct } from '../../shared/pricing/edges.js';
import type { BoardRow } from './board.repository.js';
import type { BoardService } from './board.service.js';
import { type BoardSelection, boardItemOf, type BoardView, marketKeyOf } from './board.selections.js';
import { EDGES_MAX_LISTED, type EdgesAnswer, type EdgesBody } from './edges.schemas.js';

/** Edges: where a book beats the market over the selections of a board. */
export interface EdgesService {
  /** The value bets and arbitrages of a board's selections, best first (POST /v1/odds/edges). */
  edges(body: EdgesBody): Promise<EdgesAnswer>;
}

export type ValueBet = EdgesAnswer['value_bets'][number];
export type Arbitrage = EdgesAnswer['arbitrages'][number];

/** Selections loaded per query: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/**
 * Where a book beats the market, over the selections of a board (docs/data.md#edges): value bets
 * against the consensus fair price, and arbitrages across books. Computed from the board's own
 * selections, so the edges and the board of one request always agree.
 */
export function createEdgesService(deps: { board: BoardService['board'] }): EdgesService {
  const { board } = deps;

  return {
    async edges(body: EdgesBody): Promise<EdgesAnswer> {
      const filters = board.filters(body);
      const view: BoardView = { operatorIds: filters.o, format: filters.f, method: filters.d, deeplinks: filters.dl };
      const minEdge = body.min_edge ?? 0;
      const ids = [...(await board.ids(filters))];
      const valueBets: ValueBet[] = [];
      const arbitrages: Arbitrage[] = [];
      const markets = new Set<string>();
      for (const chunk of chunksOf(ids, CHUNK)) {
        const selections = await board.items(chunk, filters);
        // In the board's order, not the database's: equal edges then keep one order (the sorts below are stable).
        for (const id of chunk) {
          const entry = selections.get(id);
          if (entry === undefined || !('rows' in entry)) continue;
          valueBets.push(...valueBetsOf(entry, view, minEdge));
          const market = marketKeyOf(entry.key);
          if (markets.has(market)) continue;
          markets.add(market);
          arbitrages.push(...arbitragesOf(entry, view));
        }
      }
      // Chosen and ordered by the unrounded figures; rounded only as they are written.
      valueBets.sort((a, b) => b.ev_pct - a.ev_pct);
      arbitrages.sort((a, b) => b.profit_pct - a.profit_pct);
      return {
        devig: filters.d,
        min_edge: minEdge,
        value_bets: valueBets.slice(0, EDGES_MAX_LISTED).map(shownValueBet),
        value_bets_total: valueBets.length,
        arbitrages: arbitrages.slice(0, EDGES_MAX_LISTED).map(shownArbitrage),
        arbitrages_total: arbitrages.length,
      };
    },
  };
}

/**
 * The prices of a selection whose EV% against the consensus fair probability is at least
 * `minEdge`. Only books at the consensus line: a price at another line bets on something else.
 */
export function valueBetsOf(selection: BoardSelection, view: BoardView, minEdge: number): ValueBet[] {
  const item = boardItemOf(selection, view);
  const p = item.fair.consensus.probability;
  const fairPrice = item.fair.consensus.price;
  if (p === null || fairPrice === null) return [];
  const bets: ValueBet[] = [];
  for (const price of item.prices) {
    if (price.line !== item.consensus.line) continue;
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
      ...(view.deeplinks
        ? { bet_web_deep_link_url: price.bet_web_deep_link_url, bet_ios_deep_link_url: price.bet_ios_deep_link_url, bet_android_deep_link_url: price.bet_android_deep_link_url }
        : {}),
    });
  }
  return bets;
}

/**
 * The arbitrages of a market: per line, the best price of each of its outcomes across the books.
 * A line counts only when every outcome of the market is priced at it, each at one line, so that
 * the legs cover every result (a 1x2 without its draw is no arbitrage, however long its prices).
 */
export function arbitragesOf(selection: BoardSelection, view: BoardView): Arbitrage[] {
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
  const found: Arbitrage[] = [];
  for (const lineRows of byLine.values()) {
    const outcomes = selection.outcomes.map((position) => lineRows.filter((r) => r.position === position));
    if (outcomes.some((quotes) => quotes.length === 0 || new Set(quotes.map((r) => r.line)).size !== 1)) continue;
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

/** A value bet as answers write it: its fair probability, fair price and EV% to 6 decimals; the book's price as imported. */
export function shownValueBet(bet: ValueBet): ValueBet {
  return { ...bet, fair_probability: figure(bet.fair_probability), fair_price: figure(bet.fair_price), ev_pct: figure(bet.ev_pct) };
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
