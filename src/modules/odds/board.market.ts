import { consensusDevig, type Quote } from '../../shared/pricing/consensus.js';
import { type Devig, type DevigMethod, devig } from '../../shared/pricing/devig.js';
import { selectionKeyOf } from './board.keys.js';
import type { BoardRow, PriceRow } from './board.repository.js';

/**
 * A market's rows as a view's books see them, grouped once for every selection of the market: its
 * selections' rows, each book's rows by position, and the de-vigs (the consensus, and each book's)
 * computed once per method. Every selection of a market shares its rows (selectionsOf), so what is
 * grouped here is kept with them: the work of a market grows with its rows, not with its rows
 * times its selections (a 150-runner outright at ten books has 1,500 rows and 150 selections).
 */
export interface MarketView {
  rows: readonly BoardRow[];
  /** Each selection's rows, by selection key. */
  bySelection: ReadonlyMap<string, readonly BoardRow[]>;
  /** A position's place among the market's outcomes (sorted), as the de-vigs list them. */
  indexOf(position: string): number;
  /** The consensus de-vig of the books' median prices. */
  consensus(method: DevigMethod): Devig;
  /** One book's own de-vig; `incomplete_market` when it does not price every outcome. */
  book(operatorId: number, method: DevigMethod): Devig;
  /** One book's rows, by position. */
  bookRows(operatorId: number): ReadonlyMap<string, BoardRow>;
}

/** What a market view is made from: a selection's market, as selectionsOf shares it. */
export interface MarketOf {
  rows: readonly BoardRow[];
  outcomes: readonly string[];
}

/** Views kept per market (per books asked): a few requests' filters; more start again. */
const VIEWS_PER_MARKET = 4;
const views = new WeakMap<readonly BoardRow[], Map<string, MarketView>>();

/** The market's view for a request's books (null: every book), made once per market and books. */
export function marketViewOf(market: MarketOf, books: readonly number[] | null): MarketView {
  const key = books === null ? '*' : books.join(',');
  let kept = views.get(market.rows);
  if (kept === undefined) {
    kept = new Map();
    views.set(market.rows, kept);
  }
  const known = kept.get(key);
  if (known !== undefined) return known;
  if (kept.size >= VIEWS_PER_MARKET) kept.clear();
  const view = createView(market.outcomes, books === null ? market.rows : market.rows.filter((r) => books.includes(r.operator.id)));
  kept.set(key, view);
  return view;
}

function createView(outcomes: readonly string[], rows: readonly BoardRow[]): MarketView {
  const places = new Map(outcomes.map((position, index) => [position, index]));
  const bySelection = new Map<string, BoardRow[]>();
  const byBook = new Map<number, Map<string, BoardRow>>();
  for (const row of rows) {
    const key = selectionKeyOf(row);
    const list = bySelection.get(key);
    if (list === undefined) bySelection.set(key, [row]);
    else list.push(row);
    let book = byBook.get(row.operator.id);
    if (book === undefined) {
      book = new Map();
      byBook.set(row.operator.id, book);
    }
    // One row per book and selection (onePerBook): the first by position is the book's price of it.
    if (!book.has(row.position)) book.set(row.position, row);
  }
  const consensus = new Map<DevigMethod, Devig>();
  const books = new Map<string, Devig>();
  const none: ReadonlyMap<string, BoardRow> = new Map();
  return {
    rows,
    bySelection,
    indexOf: (position) => places.get(position) ?? -1,
    consensus(method) {
      let made = consensus.get(method);
      if (made === undefined) {
        made = consensusDevig(quotesByOutcomeOf(outcomes, rows), method);
        consensus.set(method, made);
      }
      return made;
    },
    book(operatorId, method) {
      const key = `${operatorId}|${method}`;
      let made = books.get(key);
      if (made === undefined) {
        const own = byBook.get(operatorId) ?? none;
        made = devig(outcomes.map((position) => own.get(position)?.price ?? null), method);
        books.set(key, made);
      }
      return made;
    },
    bookRows: (operatorId) => byBook.get(operatorId) ?? none,
  };
}

/** A row as a quote of its book. */
export const quoteOf = <R extends PriceRow>(row: R): Quote<R> => ({ book: row, price: row.price, line: row.line });

/** A market's quotes by outcome (its positions, sorted), for the consensus de-vig. */
export function quotesByOutcomeOf<R extends PriceRow>(outcomes: readonly string[], rows: readonly R[]): Quote<R>[][] {
  const byPosition = new Map<string, Quote<R>[]>(outcomes.map((position) => [position, []]));
  for (const row of rows) byPosition.get(row.position)?.push(quoteOf(row));
  return outcomes.map((position) => byPosition.get(position) ?? []);
}
