import type { Kysely } from 'kysely';
import { backgroundTurn } from '../../platform/db/loop-slices.js';
import type { Schema } from '../../platform/db/schema.js';
import { DEFAULT_DEVIG_METHOD } from '../../shared/pricing/devig.js';
import { createBoardRepository } from './board.repository.js';
import { marketKeyOf, selectionIdsOf, selectionKeyOf } from './board.keys.js';
import { type BoardView, selectionsOf } from './board.selections.js';
import { type Arbitrage, arbitragesOf, shownArbitrage, shownValueBet, type ValueBet, valueBetsOf } from './edges.service.js';

/**
 * An edge of a market now, as POST /v1/odds/edges finds it with every book, the alternate lines
 * and the default de-vig: a selection's best value bets (every book at its top EV%; `every`: each
 * book's bet at the consensus line, unrounded, whatever its EV%), or an
 * arbitrage. `key` names what it is an edge of across calls (the selection, or the market at one
 * line size); `edge` is the unrounded fraction (EV% or profit% ÷ 100) thresholds compare with.
 */
export type MarketEdge = { key: string; event_id: number; betting_market_id: number; edge: number } & (
  | { kind: 'value'; bets: [ValueBet, ...ValueBet[]]; every: ValueBet[] }
  | { kind: 'arbitrage'; arbitrage: Arbitrage }
);

/** An (event, betting market) pair. */
export type MarketPair = readonly [eventId: number, marketId: number];

/** The edges of some (event, market) pairs now. */
export type MarketEdges = (pairs: ReadonlyArray<MarketPair>) => Promise<MarketEdge[]>;

/** A market some changes touched, with the newest of them (by `stampOf`). */
export interface TouchedMarket<C> {
  pair: MarketPair;
  newest: C;
}

/**
 * The markets some changes touched, each once, with its newest change: what the work done after
 * the imports (edge.found, the signals' detector) reads the edges of, and nothing else.
 */
export function touchedMarkets<C>(changes: readonly C[], pairOf: (change: C) => MarketPair, stampOf: (change: C) => number): Map<string, TouchedMarket<C>> {
  const markets = new Map<string, TouchedMarket<C>>();
  for (const change of changes) {
    const pair = pairOf(change);
    const key = `${pair[0]}|${pair[1]}`;
    const known = markets.get(key);
    if (known === undefined || stampOf(change) > stampOf(known.newest)) markets.set(key, { pair, newest: change });
  }
  return markets;
}

/** The edges now of touched markets, each with its market. */
export async function edgesOfTouched<C>(db: Kysely<Schema>, markets: ReadonlyMap<string, TouchedMarket<C>>): Promise<Array<{ edge: MarketEdge; market: TouchedMarket<C> }>> {
  const edges = await createMarketEdges(db)([...markets.values()].map((market) => market.pair));
  return edges.flatMap((edge) => {
    const market = markets.get(`${edge.event_id}|${edge.betting_market_id}`);
    return market === undefined ? [] : [{ edge, market }];
  });
}

/** The edges endpoint's view of a request that names no books, in decimal prices, without links. */
const EVERY_BOOK: BoardView = { operatorIds: null, format: 'decimal', method: DEFAULT_DEVIG_METHOD, deeplinks: false };

/**
 * The edges of some markets by the edges endpoint's own functions (edges.service.ts), so that what
 * is told of an edge is what the endpoint shows of it: one read of the pairs' open rows, grouped
 * into selections as the board groups them.
 */
export function createMarketEdges(db: Kysely<Schema>): MarketEdges {
  const repository = createBoardRepository(db);
  return async function marketEdges(pairs) {
    if (pairs.length === 0) return [];
    const wanted = new Set(pairs.map(([eventId, marketId]) => `${eventId}|${marketId}`));
    const read = await repository.rowsOf([...new Set(pairs.map(([eventId]) => eventId))], [...new Set(pairs.map(([, marketId]) => marketId))]);
    // The events and markets are read as two lists; only the pairs asked are this call's.
    const rows = read.filter((row) => wanted.has(`${row.event_id}|${row.betting_market_id}`));
    const ids = new Set(selectionIdsOf(rows));
    const selections = selectionsOf(
      rows.filter((row) => ids.has(row.id)),
      rows,
    );
    const out: MarketEdge[] = [];
    const markets = new Set<string>();
    for (const selection of selections.values()) {
      // A window's batch touches every market of a busy slate: reads and imports get turns of the loop meanwhile.
      await backgroundTurn();
      const { event_id, betting_market_id } = selection.key;
      const bets = valueBetsOf(selection, EVERY_BOOK, -Infinity);
      const top = Math.max(...bets.map((bet) => bet.ev_pct));
      const [first, ...tied] = bets.filter((bet) => bet.ev_pct === top).map(shownValueBet);
      if (first !== undefined) out.push({ kind: 'value', key: selectionKeyOf(selection.key), event_id, betting_market_id, edge: top / 100, bets: [first, ...tied], every: bets });
      const market = marketKeyOf(selection.key);
      if (markets.has(market)) continue;
      markets.add(market);
      for (const arbitrage of arbitragesOf(selection, EVERY_BOOK)) {
        const size = arbitrage.legs[0]?.line;
        out.push({ kind: 'arbitrage', key: `${market}|${size === null || size === undefined ? '' : Math.abs(size)}`, event_id, betting_market_id, edge: arbitrage.profit_pct / 100, arbitrage: shownArbitrage(arbitrage) });
      }
    }
    return out;
  };
}
