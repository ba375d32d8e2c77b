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
 * Rows as they stood at an instant: those with a state then, each with its line then; only the
 * open ones when `open` (a price suspended or not yet offered could not be bet). The rest of the
 * key (market, position, player, period, is_main) is the row's own, the same then as today.
 */
export function keyRowsAt<R extends SelectionKeyRow>(rows: readonly R[], states: ReadonlyMap<number, PriceState>, open: boolean): R[] {
  const kept: R[] = [];
  for (const row of rows) {
    const state = states.get(row.id);
    if (state === undefined || (open && state.status !== 'open')) continue;
    kept.push({ ...row, line: state.line });
  }
  return kept;
}

/** A board row as it stood: its price, line and status then, and updated_at the instant of that change. */
export function boardRowsAt(rows: readonly BoardRow[], states: ReadonlyMap<number, PriceState>): BoardRow[] {
  return keyRowsAt(rows, states, true).map((row) => {
    const state = states.get(row.id) as PriceState;
    return { ...row, price: state.price, open: true, updated_at: iso(state.changed_at) };
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
