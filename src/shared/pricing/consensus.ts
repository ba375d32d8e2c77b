import { DEFAULT_DEVIG_METHOD, type Devig, type DevigMethod, type DevigOptions, devig } from './devig.js';

/**
 * What several books say about one selection together: the best price and who offers it, and the
 * consensus (the median price and line). A book is whatever the caller names it by (an operator id).
 */

/** One book's current price (decimal) for a selection, and its line where the market has one. */
export interface Quote<Book> {
  book: Book;
  price: number;
  line?: number | null;
}

/**
 * The median: the middle value, or the mean of the two middle ones for an even count (so that two
 * books at 1.90 and 2.00 make 1.95, not whichever came first). Undefined for no values.
 */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const upper = sorted[sorted.length >> 1];
  const lower = sorted[(sorted.length - 1) >> 1];
  return upper === undefined || lower === undefined ? undefined : (lower + upper) / 2;
}

/**
 * The consensus of a selection across books: the median price, and the median of the lines of the
 * books that give one (null when none does: a moneyline). Each book prices at its own line, so the
 * median line says where the market stands, not a line every book offers. Undefined for no quotes.
 */
export function consensusOf<Book>(quotes: readonly Quote<Book>[]): { price: number; line: number | null } | undefined {
  const price = median(quotes.map((q) => q.price));
  if (price === undefined) return undefined;
  const lines = quotes.flatMap((q) => (typeof q.line === 'number' ? [q.line] : []));
  return { price, line: median(lines) ?? null };
}

/**
 * The highest price for a selection and every book offering exactly it, in the order given (the
 * caller's order makes the list stable). Undefined for no quotes.
 */
export function bestPriceOf<Book>(quotes: readonly Quote<Book>[]): { price: number; books: Book[] } | undefined {
  let best: { price: number; books: Book[] } | undefined;
  for (const { book, price } of quotes) {
    if (best === undefined || price > best.price) best = { price, books: [book] };
    else if (price === best.price) best.books.push(book);
  }
  return best;
}

/**
 * The consensus fair price of a market: the median price of each outcome across books, de-vigged
 * as if one book had offered them. `quotesByOutcome` has one list per outcome of the market; an
 * outcome no book prices makes the market incomplete.
 */
export function consensusDevig<Book>(
  quotesByOutcome: ReadonlyArray<readonly Quote<Book>[]>,
  method: DevigMethod = DEFAULT_DEVIG_METHOD,
  options: DevigOptions = {},
): Devig {
  return devig(
    quotesByOutcome.map((quotes) => median(quotes.map((q) => q.price))),
    method,
    options,
  );
}
