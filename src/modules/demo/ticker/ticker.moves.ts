import { bookPrices } from '../generator/odds.js';
import { SPORTS } from '../generator/catalog.js';
import type { Random } from '../generator/random.js';
import type { TickerEvent, TickerPrice } from './ticker.repository.js';

/**
 * What one tick of the demo ticker does to the data, without the database: a book's quote of a
 * market moves a small step (its sides together, its margin kept), now and then a quote is
 * suspended or reopened, and a game that has started goes live, scores and ends.
 */

/** How far one move shifts a side's chance, in log-odds (the standard deviation): a price of 1.90 moves by a few hundredths. */
const STEP = 0.05;
/** A quote picked is suspended this often; a suspended one picked reopens. */
const SUSPEND = 0.03;
/** A single-sided quote (a player to score) carries this margin: the generator's. */
const ONE_SIDE_MARGIN = 0.2;
/** The least and most fair chance a side is moved to: no price goes under 1.03, none past a long shot's. */
const FAIR = { min: 0.01, max: 0.97 } as const;
/** The margin a move keeps, within what a book charges. */
const MARGIN = { min: 0, max: 0.3 } as const;
/** How long a game of an unknown sport lasts, and what it totals. */
const FALLBACK = { minutes: 120, total: 3 } as const;

/** One book's prices of one market's sides, as made one after the other. */
export type Quote = readonly TickerPrice[];

/** A stored price moved: what the import's `price_updates` item says. */
export interface PriceMove {
  odds_id: number;
  price_decimal: number;
  status: string;
}

/**
 * The quotes among `prices` (ordered by id): a run of rows of one event, book, market, player and
 * period, on one line (a handicap's sides carry it with opposite signs), each position once.
 */
export function quotesOf(prices: readonly TickerPrice[]): Quote[] {
  const quotes: TickerPrice[][] = [];
  let current: TickerPrice[] = [];
  for (const price of prices) {
    const first = current[0];
    const same =
      first !== undefined &&
      first.eventId === price.eventId &&
      first.operatorId === price.operatorId &&
      first.marketId === price.marketId &&
      first.playerId === price.playerId &&
      first.periodId === price.periodId &&
      Math.abs(first.line ?? 0) === Math.abs(price.line ?? 0) &&
      current.every((p) => p.position !== price.position);
    if (!same) {
      if (current.length > 0) quotes.push(current);
      current = [];
    }
    current.push(price);
  }
  if (current.length > 0) quotes.push(current);
  return quotes;
}

/** The moves of one quote picked by a tick: reopened when suspended, else now and then suspended, else repriced. */
export function moveQuote(random: Random, quote: Quote): PriceMove[] {
  const suspended = quote[0]?.status === 'suspended';
  if (suspended) return changed(quote, repriced(random, quote), 'open');
  if (random.chance(SUSPEND)) return changed(quote, quote.map((p) => p.price), 'suspended');
  return changed(quote, repriced(random, quote), quote[0]?.status ?? 'open');
}

function changed(quote: Quote, prices: readonly number[], status: string): PriceMove[] {
  return quote.flatMap((row, i) => {
    const price = prices[i] ?? row.price;
    return price === row.price && status === row.status ? [] : [{ odds_id: row.id, price_decimal: price, status }];
  });
}

/**
 * The quote's prices after a small move: the sides' fair chances are read back from the prices
 * (the margin as the generator shares it out, the long shot carrying most), each shifted a little
 * in log-odds, and priced again with the same margin, so the overround stays where it was.
 */
function repriced(random: Random, quote: Quote): number[] {
  const implied = quote.map((p) => 1 / p.price);
  if (implied.length === 1) {
    const fair = (implied[0] ?? 0.5) / (1 + ONE_SIDE_MARGIN);
    return bookPrices([clamp(shift(random, fair), FAIR.min, 0.75)], 0);
  }
  const margin = clamp(implied.reduce((a, q) => a + q, 0) - 1, MARGIN.min, MARGIN.max);
  const share = margin / (implied.length - 1);
  const read = implied.map((q) => (q - share) / (1 - share));
  // A quote priced otherwise than the generator does (rounding at the extremes) is read in proportion.
  const fair = read.every((p) => p > 0) ? read : implied.map((q) => q / (1 + margin));
  const moved = fair.map((p) => clamp(shift(random, p), FAIR.min, FAIR.max));
  const sum = moved.reduce((a, p) => a + p, 0);
  return bookPrices(
    moved.map((p) => clamp(p / sum, FAIR.min, FAIR.max)),
    margin,
  );
}

/** `p` moved by a normal step in log-odds. */
function shift(random: Random, p: number): number {
  const odds = (p / (1 - p)) * Math.exp(random.normal() * STEP);
  return odds / (1 + odds);
}

const clamp = (x: number, min: number, max: number) => Math.min(max, Math.max(min, x));

/** An event's new status and score, for the import's `events` item. */
export interface EventProgress {
  event: TickerEvent;
  status: 'live' | 'final';
  score: { home: number; away: number };
}

/**
 * Where a game near now stands after `elapsedMs` more: one that has started goes live at 0–0;
 * a live one scores now and then, at its sport's usual rate; once its sport's length has passed it
 * is final (a sport without draws settles a tie by one more score). Undefined when nothing changed.
 */
export function progress(random: Random, event: TickerEvent, now: number, elapsedMs: number): EventProgress | undefined {
  if (now < event.start) return undefined;
  const sport = SPORTS.find((s) => s.key === event.sportKey);
  const minutes = sport?.minutes ?? FALLBACK.minutes;
  const score = { ...(event.score ?? { home: 0, away: 0 }) };
  if (now >= event.start + minutes * 60_000) {
    if (score.home === score.away && sport?.draws !== true) {
      if (random.chance(0.5)) score.home++;
      else score.away++;
    }
    return { event, status: 'final', score };
  }
  // Each side's expected scores in the time since the last tick, half the game's expected total each.
  const perSide = ((sport?.scoring.total[0] ?? FALLBACK.total) / 2) * (Math.min(elapsedMs, 60_000) / (minutes * 60_000));
  let scored = false;
  for (const side of ['home', 'away'] as const) {
    const goals = Math.floor(perSide) + (random.chance(perSide - Math.floor(perSide)) ? 1 : 0);
    score[side] += goals;
    scored ||= goals > 0;
  }
  if (event.status === 'live' && !scored && event.score !== undefined) return undefined;
  return { event, status: 'live', score };
}
