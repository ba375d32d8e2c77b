import { figure, figureOrNull } from '../../shared/figures.js';
import { type OddsFormat, priceIn } from '../../shared/odds-format.js';
import { bestPriceOf, consensusOf } from '../../shared/pricing/consensus.js';
import type { Devig, DevigMethod } from '../../shared/pricing/devig.js';
import { marketKeyOf, selectionKeyOf } from './board.keys.js';
import { marketViewOf, quoteOf } from './board.market.js';
import { type BoardRow, linksOf, type PriceRow, type SelectionKeyRow } from './board.repository.js';
import type { BoardItem } from './board.schemas.js';

/**
 * How odds rows make a board's items (docs/data.md#the-odds-board): the rows grouped into
 * selections by the board's keys (board.keys.ts), each with its market's rows, and an item's
 * figures from them for a request's view.
 */

/** A selection as cached: every book's rows of its market, before the request's books, format and method are applied. */
export interface BoardSelection {
  key: SelectionKeyRow;
  market: BoardItem['betting_market'];
  /** The positions of the market, sorted; this selection's is one of them. */
  outcomes: string[];
  /** Every open row of the market, by operator id then position. */
  rows: BoardRow[];
}

/** Groups the rows of some events into the selections named by `keys` (keyed by their id). */
export function selectionsOf(keys: readonly SelectionKeyRow[], rows: readonly BoardRow[]): Map<number, BoardSelection> {
  const byMarket = new Map<string, BoardRow[]>();
  for (const row of rows) {
    const key = marketKeyOf(row);
    const list = byMarket.get(key);
    if (list === undefined) byMarket.set(key, [row]);
    else list.push(row);
  }
  // Each market's rows and outcomes once, shared by its selections (and what marketViewOf groups of them).
  const markets = new Map<string, { rows: BoardRow[]; outcomes: string[] }>();
  const selections = new Map<number, BoardSelection>();
  for (const key of keys) {
    const marketKey = marketKeyOf(key);
    let market = markets.get(marketKey);
    if (market === undefined) {
      const marketRows = onePerBook(byMarket.get(marketKey) ?? []);
      market = { rows: marketRows, outcomes: [...new Set(marketRows.map((r) => r.position))].sort() };
      markets.set(marketKey, market);
    }
    const own = marketViewOf(market, null).bySelection.get(selectionKeyOf(key))?.find((r) => r.id === key.id);
    if (own === undefined) continue;
    selections.set(key.id, { key, market: own.market, outcomes: market.outcomes, rows: market.rows });
  }
  return selections;
}

/**
 * A market's rows by operator id, one per book and selection: a feed that sends a book's selection
 * twice (two main rows of one position) counts with its first row by id, so that no book weighs
 * twice in the best price, the consensus or its own de-vig.
 */
export function onePerBook<R extends PriceRow>(rows: readonly R[], selectionOf: (row: R) => string = selectionKeyOf): R[] {
  const sorted = [...rows].sort((a, b) => a.operator.id - b.operator.id || a.id - b.id);
  const seen = new Set<string>();
  return sorted.filter((row) => {
    const key = `${row.operator.id}|${selectionOf(row)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface BoardView {
  operatorIds: readonly number[] | null;
  format: OddsFormat;
  method: DevigMethod;
  /** include_deeplinks: each price with its operator's links. */
  deeplinks: boolean;
}

/**
 * A selection's item for a request's view: its books' prices, the best, the consensus and the fair
 * prices, every figure unrounded, as the edges and the board events compute with them. What a
 * request sees is `shownBoardItem` of it.
 */
export function boardItemOf(selection: BoardSelection, view: BoardView): BoardItem {
  const { key } = selection;
  const market = marketViewOf(selection, view.operatorIds);
  const own = market.bySelection.get(selectionKeyOf(key)) ?? [];
  const quotes = own.map(quoteOf);
  const price = (decimal: number) => priceIn(view.format, decimal);
  // The ids come from a query of the same filters on the same data version, so a listed selection
  // always has a quote from a book asked; the fallback only keeps the types honest.
  const best = bestPriceOf(quotes) ?? { price: key.id, books: [] };
  const consensus = consensusOf(quotes) ?? { price: key.id, line: null };
  const outcomeIndex = market.indexOf(key.position);
  return {
    event_betting_market_position_id: selectionIdOf(own),
    event_id: key.event_id,
    betting_market: selection.market,
    event_period_id: key.event_period_id,
    player_id: key.player_id,
    position: key.position,
    is_main: key.is_main,
    line: key.is_main ? null : key.line,
    prices: own.map((r) => ({
      operator: r.operator,
      price: price(r.price),
      price_decimal: r.price,
      line: r.line,
      is_live: r.is_live,
      updated_at: r.updated_at,
      ...(view.deeplinks ? linksOf(r) : {}),
    })),
    best: { price: price(best.price), price_decimal: best.price, operators: best.books.map((r) => r.operator) },
    consensus: { price: price(consensus.price), price_decimal: consensus.price, line: consensus.line },
    fair: {
      method: view.method,
      consensus: fairOf(market.consensus(view.method), outcomeIndex),
      books: own.map((r) => ({ operator: r.operator, ...fairOf(market.book(r.operator.id, view.method), outcomeIndex) })),
    },
  };
}

/**
 * An item as answers write it: the figures computed here (the consensus price and line, the fair
 * probabilities, prices and holds) to 6 decimals, the consensus's `price` in the format from the
 * figure shown; the books' prices and the best price as imported.
 */
export function shownBoardItem(item: BoardItem, format: OddsFormat): BoardItem {
  const consensus = figure(item.consensus.price_decimal);
  return {
    ...item,
    consensus: { price: priceIn(format, consensus), price_decimal: consensus, line: figureOrNull(item.consensus.line) },
    fair: { method: item.fair.method, consensus: shownFair(item.fair.consensus), books: item.fair.books.map((book) => ({ ...book, ...shownFair(book) })) },
  };
}

function shownFair(fair: BoardItem['fair']['consensus']): BoardItem['fair']['consensus'] {
  return { probability: figureOrNull(fair.probability), price: figureOrNull(fair.price), hold: figureOrNull(fair.hold), reason: fair.reason };
}

/**
 * The stored selection an item stands for. Its id names one line; on a main-line item each book is
 * at its own, so the item takes the line most of its books are at (the first book's on a tie).
 */
export function selectionIdOf(rows: readonly PriceRow[]): number | null {
  const counts = new Map<number, number>();
  for (const row of rows) if (row.selection_id !== null) counts.set(row.selection_id, (counts.get(row.selection_id) ?? 0) + 1);
  let best: number | null = null;
  for (const [id, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = id;
  return best;
}

export function fairOf(result: Devig, index: number): BoardItem['fair']['consensus'] {
  if (!result.ok) return { probability: null, price: null, hold: result.hold, reason: result.reason };
  const probability = result.probabilities[index];
  const price = result.prices[index];
  if (probability === undefined || price === undefined) return { probability: null, price: null, hold: result.hold, reason: 'incomplete_market' };
  return { probability, price, hold: result.hold, reason: null };
}
