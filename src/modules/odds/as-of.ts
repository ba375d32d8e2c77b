import { americanOf, impliedProbabilityOf } from '../../shared/odds-format.js';
import { iso } from '../../shared/wire.js';
import type { PriceState } from './as-of.repository.js';
import type { BoardRow, SelectionKeyRow } from './board.repository.js';
import type { OddsItem } from './odds.schemas.js';

/**
 * Checks an `as_of` instant (epoch ms) against what the price history can answer: 422 when it is
 * before the oldest change kept or after now. The history module's checkAsOf, passed in by the
 * composition root (the history module already depends on this one).
 */
export type AsOfCheck = (at: number) => Promise<void>;

/** The instant of a request's `as_of`, epoch ms; null without one (the answer of now). */
export function instantOf(asOf: string | undefined): number | null {
  return asOf === undefined ? null : Date.parse(asOf);
}

/** The part of an item's cache key that an instant adds: items as of an instant are not today's. */
export const itemsKeyAt = (at: number | null): string => (at === null ? '' : `${at}@`);

/**
 * The key rows of a page as they stood at an instant: those among `rows` (their markets' rows
 * read as of it, with their line then); a page's row not among them is left out. The rest of the
 * key (market, position, player, period, is_main) is the row's own, the same then as today.
 */
export function keyRowsAt(keys: readonly SelectionKeyRow[], rows: ReadonlyArray<Pick<BoardRow, 'id' | 'line'>>): SelectionKeyRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return keys.flatMap((key) => {
    const row = byId.get(key.id);
    return row === undefined ? [] : [{ ...key, line: row.line }];
  });
}

/** An odds item as it stood: price, line, status and updated_at then; the rest is today's (decision 0317). */
export function oddsItemAt(item: OddsItem, state: PriceState): OddsItem {
  const decimal = state.price;
  return {
    ...item,
    line: state.line,
    price: { american: americanOf(decimal), decimal, implied_probability: impliedProbabilityOf(decimal) },
    price_decimal: decimal,
    status: state.status,
    updated_at: iso(state.changed_at),
  };
}
