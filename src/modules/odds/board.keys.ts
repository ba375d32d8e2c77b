import { marketSubjectOf } from '../../shared/positions.js';
import type { SelectionKey, SelectionKeyRow } from './board.repository.js';

/**
 * The keys the board groups odds rows by (docs/data.md#the-odds-board), and its order. A selection
 * is an event, a market, a period, a player and a position: on a main-line item each book at its
 * own main line, on an alternate-line item every book at that one line. A selection's market, for
 * the de-vig, is every position of the same event, market, period and subject at the same kind of
 * line: a book's main lines together, or its alternates at one line (a spread's home −4.5 with away
 * +4.5, so by the line's size). The subject is the player, or the team a position names before its
 * side: each team's over and under of a team total are a market, not the four together.
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
