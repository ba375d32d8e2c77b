import { figure, figureOrNull } from '../../shared/figures.js';
import { type OddsFormat, priceIn } from '../../shared/odds-format.js';
import { marketSubjectOf } from '../../shared/positions.js';
import { bestPriceOf, consensusDevig, consensusOf, type Quote } from '../../shared/pricing/consensus.js';
import { type Devig, type DevigMethod, devig } from '../../shared/pricing/devig.js';
import type { BoardRow, PriceRow, SelectionKey, SelectionKeyRow } from './board.repository.js';
import type { BoardItem } from './board.schemas.js';

/**
 * How odds rows make a board (docs/data.md#the-odds-board). A selection is an event, a market, a
 * period, a player and a position: on a main-line item each book at its own main line, on an
 * alternate-line item every book at that one line. A selection's market, for the de-vig, is every
 * position of the same event, market, period and subject at the same kind of line: a book's main
 * lines together, or its alternates at one line (a spread's home −4.5 with away +4.5, so by the
 * line's size). The subject is the player, or the team a position names before its side: each
 * team's over and under of a team total are a market, not the four together.
 */

const part = (value: number | null) => (value === null ? '' : String(value));

/** The outcomes a row is one of, before its line: the event, market, period and subject (positions.ts). */
export function subjectKeyOf(row: Pick<SelectionKey, 'event_id' | 'betting_market_id' | 'event_period_id' | 'player_id' | 'position'>): string {
  return `${row.event_id}|${row.betting_market_id}|${part(row.event_period_id)}|${marketSubjectOf(row)}`;
}

/** The market a row belongs to, for the de-vig. */
export function marketKeyOf(row: SelectionKey): string {
  const line = row.is_main ? 'main' : part(row.line === null ? null : Math.abs(row.line));
  return `${subjectKeyOf(row)}|${line}`;
}

/** The selection a row prices. */
export function selectionKeyOf(row: SelectionKey): string {
  return rowKeysOf(row).selection;
}

/** A row's market and selection keys, the market's made once for both. */
export function rowKeysOf(row: SelectionKey): { market: string; selection: string } {
  const market = marketKeyOf(row);
  return { market, selection: `${market}|${row.is_main ? '' : part(row.line)}|${row.position}` };
}

const nullsFirst = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a - b);

/**
 * The board's fixed order: start time, event, market, period (the full game first), player (none
 * first), the main line before the alternates (by line), then position (by character code).
 */
export function compareSelections(a: SelectionKeyRow, b: SelectionKeyRow): number {
  return (
    a.start_time - b.start_time ||
    a.event_id - b.event_id ||
    a.betting_market_id - b.betting_market_id ||
    nullsFirst(a.event_period_id, b.event_period_id) ||
    nullsFirst(a.player_id, b.player_id) ||
    Number(a.is_main === false) - Number(b.is_main === false) ||
    (a.is_main ? 0 : nullsFirst(a.line, b.line)) ||
    (a.position < b.position ? -1 : a.position > b.position ? 1 : 0)
  );
}

/**
 * One id per selection, in the board's order: the lowest odds id among its rows. Stable for a data
 * version, so that pages are slices of one list, as every list here is.
 */
export function selectionIdsOf(rows: readonly SelectionKeyRow[]): number[] {
  const first = new Map<string, SelectionKeyRow>();
  for (const row of rows) {
    const key = selectionKeyOf(row);
    const seen = first.get(key);
    if (seen === undefined || row.id < seen.id) first.set(key, row);
  }
  return [...first.values()].sort(compareSelections).map((row) => row.id);
}

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
  const selections = new Map<number, BoardSelection>();
  for (const key of keys) {
    const marketRows = onePerBook(byMarket.get(marketKeyOf(key)) ?? []);
    const own = marketRows.find((r) => r.id === key.id);
    if (own === undefined) continue;
    const outcomes = [...new Set(marketRows.map((r) => r.position))].sort();
    selections.set(key.id, { key, market: own.market, outcomes, rows: marketRows });
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

/** A row as a quote of its book. */
export const quoteOf = <R extends PriceRow>(row: R): Quote<R> => ({ book: row, price: row.price, line: row.line });

/** A market's quotes by outcome (its positions, sorted), for the consensus de-vig. */
export function quotesByOutcomeOf<R extends PriceRow>(outcomes: readonly string[], rows: readonly R[]): Quote<R>[][] {
  const byPosition = new Map<string, Quote<R>[]>(outcomes.map((position) => [position, []]));
  for (const row of rows) byPosition.get(row.position)?.push(quoteOf(row));
  return outcomes.map((position) => byPosition.get(position) ?? []);
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
  const books = view.operatorIds;
  const rows = books === null ? selection.rows : selection.rows.filter((r) => books.includes(r.operator.id));
  const ownKey = selectionKeyOf(key);
  const own = rows.filter((r) => selectionKeyOf(r) === ownKey);
  const quotes = own.map(quoteOf);
  const price = (decimal: number) => priceIn(view.format, decimal);
  // The ids come from a query of the same filters on the same data version, so a listed selection
  // always has a quote from a book asked; the fallback only keeps the types honest.
  const best = bestPriceOf(quotes) ?? { price: key.id, books: [] };
  const consensus = consensusOf(quotes) ?? { price: key.id, line: null };
  const outcomeIndex = selection.outcomes.indexOf(key.position);
  const quotesByOutcome = quotesByOutcomeOf(selection.outcomes, rows);
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
      ...(view.deeplinks ? r.links : {}),
    })),
    best: { price: price(best.price), price_decimal: best.price, operators: best.books.map((r) => r.operator) },
    consensus: { price: price(consensus.price), price_decimal: consensus.price, line: consensus.line },
    fair: {
      method: view.method,
      consensus: fairOf(consensusDevig(quotesByOutcome, view.method), outcomeIndex),
      books: own.map((r) => {
        const bookRows = rows.filter((b) => b.operator.id === r.operator.id);
        const prices = selection.outcomes.map((position) => bookRows.find((b) => b.position === position)?.price ?? null);
        return { operator: r.operator, ...fairOf(devig(prices, view.method), outcomeIndex) };
      }),
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
