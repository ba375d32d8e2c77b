import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { DEFAULT_DEVIG_METHOD } from '../../shared/pricing/devig.js';
import { createBoardRepository } from './board.repository.js';
import { type BoardView, marketKeyOf, selectionIdsOf, selectionKeyOf, selectionsOf } from './board.selections.js';
import { type Arbitrage, arbitragesOf, shownArbitrage, shownValueBet, type ValueBet, valueBetsOf } from './edges.service.js';

/**
 * An edge of a market now, as POST /v1/odds/edges finds it with every book, the alternate lines
 * and the default de-vig: a selection's best value bets (every book at its top EV%), or an
 * arbitrage. `key` names what it is an edge of across calls (the selection, or the market at one
 * line size); `edge` is the unrounded fraction (EV% or profit% ÷ 100) thresholds compare with.
 */
export type MarketEdge = { key: string; event_id: number; betting_market_id: number; edge: number } & (
  | { kind: 'value'; bets: [ValueBet, ...ValueBet[]] }
  | { kind: 'arbitrage'; arbitrage: Arbitrage }
);

/** The edges of some (event, market) pairs now. */
export type MarketEdges = (pairs: ReadonlyArray<readonly [eventId: number, marketId: number]>) => Promise<MarketEdge[]>;

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
      const { event_id, betting_market_id } = selection.key;
      const bets = valueBetsOf(selection, EVERY_BOOK, -Infinity);
      const top = Math.max(...bets.map((bet) => bet.ev_pct));
      const [first, ...tied] = bets.filter((bet) => bet.ev_pct === top).map(shownValueBet);
      if (first !== undefined) out.push({ kind: 'value', key: selectionKeyOf(selection.key), event_id, betting_market_id, edge: top / 100, bets: [first, ...tied] });
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
