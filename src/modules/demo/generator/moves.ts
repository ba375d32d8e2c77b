import type { Dataset } from '../../import/index.js';
import type { EventModel } from './events.js';
import { bookPrices, type OddsItem, type Quote } from './odds.js';
import type { Outlook } from './outlook.js';
import type { Random } from './random.js';
import { HOUR_MS } from '../../../platform/time.js';

/**
 * When the odds were quoted and how they moved since, which makes the demo's price history
 * (docs/data.md#the-demo-dataset). An event that has started was quoted two days before kick-off
 * and moved a day before and an hour before it (its closing line). An event still to come was
 * quoted in the last six hours, and one book's board in ten has moved once since, at the moment
 * the dataset was made. A move is news or money: the view of the game changes, and a book that
 * follows it reprices its whole board of the event from the new view with the same margins, so
 * that its moneyline, spread and total still agree after the move.
 */

const OPENS_BEFORE_MS = 48 * HOUR_MS;
const MOVES_BEFORE_MS = [24 * HOUR_MS, HOUR_MS] as const;
const RECENT_S = 6 * 3600;
/** One board in ten of the events still to come has moved once. */
const UPCOMING_MOVE_EVERY = 10;
/** How far a move shifts the view of a game: the rating of the home side, and the expected total (a fraction of it). */
const SHIFT = { rating: 0.05, total: 0.01 } as const;
/** A player's prop is not read off the view: its chances move on their own, by about this much in log-odds. */
const PROP_SHIFT = 0.08;

/** The first `updated_at` of a quote on `event`, as seen at `now`. */
export function openingTimes(random: Random, now: number): (event: EventModel) => string {
  // Made once a second over six hours, and once an event: a hundred thousand Date#toISOString calls add up.
  const recent = new Map<number, string>();
  const opened = new Map<number, string>();
  return (event) => {
    if (event.start <= now) return timeText(opened, event.id, event.start - OPENS_BEFORE_MS);
    const secondsAgo = Math.floor(random.next() * RECENT_S);
    return timeText(recent, secondsAgo, now - secondsAgo * 1000);
  };
}

/** The boards that move: every board of an event that has started, one in ten of the others. */
export function movingBoards(now: number): (event: EventModel, board: number) => boolean {
  return (event, board) => event.start <= now || board % UPCOMING_MOVE_EVERY === UPCOMING_MOVE_EVERY - 1;
}

/**
 * The moves, one dataset of odds per import (an import records one change per row), each holding
 * only the rows that changed: a day before kick-off (with the boards of events still to come that
 * moved, at `now`), then an hour before it. `quotes` are those of the moving boards.
 */
export function buildMoves(random: Random, quotes: readonly Quote[], now: number): Dataset[] {
  const moves: OddsItem[][] = MOVES_BEFORE_MS.map(() => []);
  const at = iso(now);
  // The views of a game after its moves, made when a board of it first moves (boards come event by event).
  let views = { event: 0, after: [] as Outlook[] };
  const viewsOf = (event: EventModel) => {
    if (views.event !== event.id) views = { event: event.id, after: movedViews(random, event.outlook, event.start > now ? 1 : MOVES_BEFORE_MS.length) };
    return views.after;
  };
  for (const board of boardsOf(quotes)) {
    const { event } = board[0] ?? {};
    if (event === undefined) continue;
    if (event.start > now) {
      moves[0]?.push(...moveBoard(random, board, at, viewsOf(event)[0]).rows);
      continue;
    }
    let current = board;
    MOVES_BEFORE_MS.forEach((before, i) => {
      // Three books in four follow each move; the others only suspend or reopen a market now and then.
      const next = moveBoard(random, current, iso(event.start - before), random.chance(0.75) ? viewsOf(event)[i] : undefined);
      moves[i]?.push(...next.rows);
      current = next.board;
    });
  }
  return moves.map((odds) => ({ odds }));
}

/**
 * The views after `count` moves, each from the one before. A book whose favourite changes hangs
 * new lines; the demo keeps each row's line, so a move stops short of turning the favourite.
 */
function movedViews(random: Random, outlook: Outlook, count: number): Outlook[] {
  const views: Outlook[] = [];
  let view = outlook;
  for (let i = 0; i < count; i++) {
    const shifted = view.shifted(random.normal() * SHIFT.rating, random.normal() * SHIFT.total);
    if (shifted.homeWins >= 0.5 === view.homeWins >= 0.5) view = shifted;
    views.push(view);
  }
  return views;
}

/** The quotes of each board, in the order quoted; the boards event by event (a board's number starts with its event's). */
function boardsOf(quotes: readonly Quote[]): Quote[][] {
  const boards: Quote[][] = [];
  for (const quote of quotes) {
    const board = boards[quote.board];
    if (board) board.push(quote);
    else boards[quote.board] = [quote];
  }
  return boards.filter((board) => board !== undefined);
}

/** A board after a move at `at` (repriced from `view` when given), and the rows that changed. */
function moveBoard(random: Random, board: readonly Quote[], at: string, view: Outlook | undefined): { board: Quote[]; rows: OddsItem[] } {
  const rows: OddsItem[] = [];
  const after = board.map((quote) => moved(random, quote, at, view, rows));
  return { board: after, rows };
}

/** A quote repriced from `view` (when given), and now and then suspended or reopened; its changed rows go to `changed`. */
function moved(random: Random, quote: Quote, at: string, view: Outlook | undefined, changed: OddsItem[]): Quote {
  let { p } = quote;
  if (view) p = quote.reprice?.(view) ?? shiftedChances(random, p);
  const prices = view ? bookPrices(p, quote.margin) : undefined;
  const first = quote.rows[0]?.status ?? 'open';
  const status = random.chance(0.02) ? (first === 'suspended' ? 'open' : 'suspended') : first;
  const rows = quote.rows.map((row, i) => {
    const price = prices?.[i] ?? row.price_decimal;
    if (price === row.price_decimal && status === row.status) return row;
    const next = { ...row, price_decimal: price, status, updated_at: at };
    changed.push(next);
    return next;
  });
  return { ...quote, rows, p };
}

/** Chances moved a little each, in log-odds, and scaled back to add up to 1. */
function shiftedChances(random: Random, p: readonly number[]): number[] {
  if (p.length === 1) return p.map((x) => Math.min(0.9, Math.max(0.02, x * Math.exp(random.normal() * PROP_SHIFT))));
  const weights = p.map((x) => x * Math.exp(random.normal() * PROP_SHIFT));
  const sum = weights.reduce((a, w) => a + w, 0);
  return weights.map((w) => w / sum);
}

const iso = (instant: number) => new Date(instant).toISOString();

/** The ISO text of `instant`, made once for `key`. */
function timeText(texts: Map<number, string>, key: number, instant: number): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = iso(instant);
    texts.set(key, text);
  }
  return text;
}
