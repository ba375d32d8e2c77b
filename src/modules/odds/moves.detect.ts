import { figure } from '../../shared/figures.js';
import { median } from '../../shared/pricing/consensus.js';
import type { PriceRow } from './board.repository.js';
import { selectionKeyOf } from './board.keys.js';

/**
 * Steam moves and drops (docs/data.md#steam-moves-and-drops), found at each price change as the
 * history knew it when that change was recorded. Pure: the rows and the history are read by the
 * caller (moves.work.ts), only for the selections the changes touched and only over the window.
 */

/** The thresholds of a move: the configured ones detect, a request's may only be tighter. */
export interface MoveThresholds {
  /** Steam: at least this many books… */
  minBooks: number;
  /** …each shortening by at least this many implied-probability points. */
  minMove: number;
  /** Drop: one book shortening by at least this percent of its decimal price. */
  minDrop: number;
  /** Both: against each book's price open this many seconds before the change. */
  windowSeconds: number;
}

/** A price change as the detection reads it: epoch-ms `changed_at`, the state before (`from`) and after (`to`). */
export interface MoveChange {
  id: number;
  odds_id: number;
  changed_at: number;
  from: PriceState | null;
  to: PriceState;
}

/** An odds row's price at some instant: open (can be bet) or not, at a line. */
export interface PriceState {
  price: number;
  line: number | null;
  open: boolean;
}

/** One book's part in a move: its price at the window's start and at the move, and since when it moved. */
export interface MoveBook {
  operator_id: number;
  odds_id: number;
  from_price: number;
  to_price: number;
  /** Implied-probability points, 100 × (1/to − 1/from), to 6 decimals. */
  points: number;
  /** Percent of the decimal price, 100 × (from − to) / from, to 6 decimals. */
  percent: number;
  /** Epoch ms: the book's first change within the window (its move happened between then and the move). */
  since: number;
}

/** A move found: a steam move's books are those that moved at least the threshold, a drop's its one book. */
export interface DetectedMove {
  kind: 'steam' | 'drop';
  history_id: number;
  /** The row the board's selection stands on: its keys. */
  selection: PriceRow;
  /** The odds row whose change made the move. */
  odds_id: number;
  books: MoveBook[];
  changed_at: number;
}

/** A selection's rows (every book, open or not) and each row's changes over the window, by (changed_at, id). */
export interface SelectionHistory {
  rows: readonly PriceRow[];
  changes: ReadonlyMap<number, readonly MoveChange[]>;
}

/** A change that shortens its book's price: open before and after, at the same line, the price lower. */
export function isShortening(change: MoveChange): boolean {
  const { from, to } = change;
  return from !== null && from.open && to.open && from.line === to.line && to.price < from.price;
}

/**
 * The moves one shortening change makes, at its changed_at and as of its id: a steam move when it
 * brings the books of its selection that moved at least `minMove` points to `minBooks` (they were
 * fewer just before it), a drop when it brings its own book's fall to `minDrop` percent (it was
 * less just before it). A move is therefore found once, when its condition starts to hold.
 */
export function movesOf(change: MoveChange, own: PriceRow, selection: SelectionHistory, t: MoveThresholds): DetectedMove[] {
  if (!isShortening(change) || change.from === null) return [];
  const at = change.changed_at;
  const start = at - t.windowSeconds * 1_000;
  const stateOf = (row: PriceRow, instant: number) => stateAt(row, selection.changes.get(row.id) ?? [], instant, change.id);
  const ownStart = stateOf(own, start);
  const moves: DetectedMove[] = [];
  const ownBook = (state: PriceState) => bookMove(own, ownStart, state, selection.changes.get(own.id) ?? [], start, at, change.id);

  const dropAfter = ownBook(change.to);
  const dropBefore = ownBook(change.from);
  if (dropAfter !== undefined && dropAfter.percent >= t.minDrop && !(dropBefore !== undefined && dropBefore.percent >= t.minDrop)) {
    moves.push({ kind: 'drop', history_id: change.id, selection: own, odds_id: own.id, books: [dropAfter], changed_at: at });
  }

  // One row per book (its lowest id), as the board counts a book once.
  const books = onePerOperator(selection.rows);
  if (books.get(own.operator.id) !== own) return moves;
  const after: MoveBook[] = [];
  let countBefore = 0;
  for (const row of books.values()) {
    if (row === own) {
      if (dropAfter !== undefined && dropAfter.points >= t.minMove) after.push(dropAfter);
      if (dropBefore !== undefined && dropBefore.points >= t.minMove) countBefore++;
      continue;
    }
    const book = bookMove(row, stateOf(row, start), stateOf(row, at), selection.changes.get(row.id) ?? [], start, at, change.id);
    if (book !== undefined && book.points >= t.minMove) {
      after.push(book);
      countBefore++;
    }
  }
  if (after.length >= t.minBooks && countBefore < t.minBooks) {
    moves.push({ kind: 'steam', history_id: change.id, selection: own, odds_id: own.id, books: after.sort((a, b) => a.operator_id - b.operator_id), changed_at: at });
  }
  return moves;
}

/** A book's move between two states: undefined unless both are open at one line. */
function bookMove(row: PriceRow, from: PriceState | null, to: PriceState | null, changes: readonly MoveChange[], start: number, at: number, asOf: number): MoveBook | undefined {
  if (from === null || to === null || !from.open || !to.open || from.line !== to.line) return undefined;
  const first = changes.find((c) => c.id <= asOf && c.changed_at > start && c.changed_at <= at);
  return {
    operator_id: row.operator.id,
    odds_id: row.id,
    from_price: from.price,
    to_price: to.price,
    points: figure(100 * (1 / to.price - 1 / from.price)),
    percent: figure((100 * (from.price - to.price)) / from.price),
    since: first?.changed_at ?? at,
  };
}

/**
 * A row's state at `instant` as the history knew it after the change `asOf` (changes with a
 * higher id are not known yet): the state after its last known change at or before the instant;
 * else the state before its first known change in the window read; else, when its only changes
 * read are later ones, the state before the first of them; else the row as it stands.
 */
export function stateAt(row: PriceRow, changes: readonly MoveChange[], instant: number, asOf: number): PriceState | null {
  let last: MoveChange | undefined;
  let first: MoveChange | undefined;
  let later: MoveChange | undefined;
  for (const change of changes) {
    if (change.id > asOf) {
      if (later === undefined || change.id < later.id) later = change;
      continue;
    }
    first ??= change;
    if (change.changed_at <= instant) last = change;
  }
  if (last !== undefined) return last.to;
  if (first !== undefined) return first.from;
  if (later !== undefined) return later.from;
  return { price: row.price, line: row.line, open: row.open };
}

function onePerOperator(rows: readonly PriceRow[]): Map<number, PriceRow> {
  const books = new Map<number, PriceRow>();
  for (const row of rows) {
    const seen = books.get(row.operator.id);
    if (seen === undefined || row.id < seen.id) books.set(row.operator.id, row);
  }
  return books;
}

/** The selection key a move is stored under: the board's (board.selections.ts). */
export const moveSelectionKeyOf = (row: PriceRow): string => selectionKeyOf(row);

/**
 * A steam move's figures from its books: their median prices before and after (to 6 decimals),
 * its size the least of their moves (every book counted moved at least that much), and its start.
 */
export function steamFiguresOf(books: readonly MoveBook[]): { operator_ids: number[]; from_price: number; to_price: number; size: number; started_at: number } {
  return {
    operator_ids: books.map((b) => b.operator_id),
    from_price: figure(median(books.map((b) => b.from_price)) ?? 0),
    to_price: figure(median(books.map((b) => b.to_price)) ?? 0),
    size: Math.min(...books.map((b) => b.points)),
    started_at: Math.min(...books.map((b) => b.since)),
  };
}
