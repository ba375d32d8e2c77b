import { median } from '../../shared/pricing/consensus.js';

/**
 * Line movement, computed in memory from a series of prices in time order
 * (docs/data.md#line-movement): the opening, the price at the instant asked, high and low, the
 * moves, and the change over fixed windows back from that instant.
 */

/** A price in force from `at` (epoch ms) on. */
export interface PricePoint {
  at: number;
  price: number;
}

/** The windows of `changes`, by name, in ms. */
export const MOVEMENT_WINDOWS = { '5m': 5 * 60_000, '1h': 60 * 60_000, '24h': 24 * 60 * 60_000 } as const;
export type MovementWindow = keyof typeof MOVEMENT_WINDOWS;

export interface Change {
  /** current − reference, in decimal price. */
  price: number;
  /** (1/current − 1/reference) × 100: positive when the price shortened. */
  probability_points: number;
}

export interface Movement {
  opening: PricePoint;
  current: PricePoint;
  high: number;
  low: number;
  /** Price changes after the opening. */
  moves: number;
  first_move_at: number | null;
  last_move_at: number | null;
  changes: Record<MovementWindow, Change>;
}

/**
 * The movement of a series (in time order; null when empty) read at `at`. A move is a
 * point whose price differs from the one before it. A window's reference is the price in force at
 * `at` − window (the last point at or before it), or the opening when the series opened later.
 */
export function movementOf(points: readonly PricePoint[], at: number): Movement | null {
  const [opening] = points;
  const current = points.at(-1);
  if (opening === undefined || current === undefined) return null;
  let high = opening.price;
  let low = opening.price;
  let moves = 0;
  let firstMove: number | null = null;
  let lastMove: number | null = null;
  for (let i = 1; i < points.length; i++) {
    const point = points[i];
    const before = points[i - 1];
    if (point === undefined || before === undefined) continue;
    high = Math.max(high, point.price);
    low = Math.min(low, point.price);
    if (point.price === before.price) continue;
    moves++;
    firstMove ??= point.at;
    lastMove = point.at;
  }
  const changeSince = (window: number): Change => {
    const reference = priceAt(points, at - window) ?? opening.price;
    return { price: current.price - reference, probability_points: (1 / current.price - 1 / reference) * 100 };
  };
  return {
    opening,
    // Since when the price is what it is: its last move, else the opening (a status change moves no price).
    current: { at: lastMove ?? opening.at, price: current.price },
    high,
    low,
    moves,
    first_move_at: firstMove,
    last_move_at: lastMove,
    changes: { '5m': changeSince(MOVEMENT_WINDOWS['5m']), '1h': changeSince(MOVEMENT_WINDOWS['1h']), '24h': changeSince(MOVEMENT_WINDOWS['24h']) },
  };
}

/** The price in force at `at`: the last point at or before it; undefined before the first. */
function priceAt(points: readonly PricePoint[], at: number): number | undefined {
  let found: number | undefined;
  for (const point of points) {
    if (point.at > at) break;
    found = point.price;
  }
  return found;
}

/** One book's recorded states of a selection, in time order: its price, and whether it could be bet. */
export interface BookState {
  at: number;
  price: number;
  open: boolean;
}

/**
 * The consensus series of a selection: the board's consensus (the median decimal price of the
 * books open at that instant) recomputed at every instant at which any book's state changed. An
 * instant at which no book is open has no consensus and adds no point; an instant whose median
 * equals the one before still adds one (it moves nothing).
 */
export function consensusSeriesOf(books: ReadonlyArray<readonly BookState[]>): PricePoint[] {
  const instants = [...new Set(books.flatMap((states) => states.map((s) => s.at)))].sort((a, b) => a - b);
  const cursors = books.map(() => -1);
  const series: PricePoint[] = [];
  for (const at of instants) {
    const prices: number[] = [];
    books.forEach((states, b) => {
      let i = cursors[b] ?? -1;
      while (i + 1 < states.length && (states[i + 1]?.at ?? Infinity) <= at) i++;
      cursors[b] = i;
      const state = states[i];
      if (state?.open) prices.push(state.price);
    });
    const price = median(prices);
    if (price !== undefined) series.push({ at, price });
  }
  return series;
}
