import type { Dataset } from '../../import/index.js';
import type { EventModel } from './events.js';
import { lineFamilies, mainOffers, type Offer, propOffers } from './offers.js';
import type { Random } from './random.js';
import type { World } from './references.js';

export type OddsItem = NonNullable<Dataset['odds']>[number];

/** One book's quote of one market: its rows, side by side, and what they were priced from (moves reprice it). */
export interface Quote {
  event: EventModel;
  /** The book's board of the event (unique to the event and the book): its quotes move together. */
  board: number;
  /** The sides' chances under another view (absent for a player's props, which no view prices). */
  reprice: Offer['reprice'];
  rows: OddsItem[];
  /** The fair chances of the sides, in the order of `rows`. */
  p: number[];
  margin: number;
}

/** Splits `total` over `parts` as evenly as integers allow (the first ones get the remainder). */
export function quotas(total: number, parts: number): number[] {
  if (parts === 0) return [];
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Splits `total` in proportion to integer `weights`, exactly: largest remainders get the
 * leftover units.
 */
export function weightedQuotas(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, n) => a + n, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    out[i] = (out[i] ?? 0) + 1;
    left--;
  }
  return out;
}

/** An event is quoted by 5 to 8 books. */
const MAX_BOOKS = 8;
/** Every tenth event is a marquee game: operators quote it four times as deeply. */
const MARQUEE_EVERY = 10;
const MARQUEE_WEIGHT = 4;
/** Props, alternate lines and three-way markets carry this much more margin than a book's main lines. */
const EXTRA_MARGIN = 0.015;
/** A player-to-score market has one side: its price carries a margin of its own. */
const ONE_SIDE_MARGIN = 0.2;

/**
 * Decimal prices of a market's sides from their fair chances and a book's margin (the overround:
 * the implied chances add up to 1 + margin). Each side takes a share of the margin in proportion
 * to its chance of losing, so the long shot carries most of it, as with real books, and a
 * favourite's implied chance stays below 1: it is never priced as a certainty.
 */
export function bookPrices(p: readonly number[], margin: number): number[] {
  return p.map((x) => sidePrice(x, margin, p.length));
}

/** The price of one side of a market of `sides` sides (see bookPrices). */
function sidePrice(p: number, margin: number, sides: number): number {
  if (sides === 1) return priceFrom(Math.min(0.9, p * (1 + ONE_SIDE_MARGIN)));
  const fair = Math.min(0.985, Math.max(0.005, p));
  return priceFrom(fair + (margin / (sides - 1)) * (1 - fair));
}

const priceFrom = (implied: number) => Math.max(1.01, Math.round(100 / implied) / 100);

/**
 * The odds of `events`, about `total` rows, ids from `firstId`: each event gets its share (marquee
 * games a larger one), quoted by 5 to 8 books from the event's outlook, each with its own margin:
 * first each book's main markets, then the props, then alternate lines one step further out at a
 * time. A market is quoted whole or not at all; what an event's share cannot hold moves to the
 * next event. `openedAt` gives a quote's first `updated_at`; the quotes of the boards that
 * `keep` names are returned beside the rows, for their moves.
 */
export function buildOdds(
  random: Random,
  world: World,
  events: readonly EventModel[],
  total: number,
  firstId: number,
  openedAt: (event: EventModel) => string,
  keep: (event: EventModel, board: number) => boolean,
): { rows: OddsItem[]; quotes: Quote[] } {
  const all: OddsItem[] = [];
  const quotes: Quote[] = [];
  let nextId = firstId;
  const perEvent = weightedQuotas(
    total,
    events.map((_, i) => (i % MARQUEE_EVERY === 0 ? MARQUEE_WEIGHT : 1)),
  );
  let budget = 0;
  events.forEach((event, index) => {
    budget += perEvent[index] ?? 0;
    const books = random
      .sample(world.operators, random.int(5, MAX_BOOKS))
      .sort((a, b) => a.id - b.id)
      .map((book, i) => ({ book, board: event.id * MAX_BOOKS + i }));
    const quote = (offer: Offer, { book, board }: (typeof books)[number], alternate = false): void => {
      const { sides } = offer;
      if (sides.length > budget) return;
      const margin = book.margin + (offer.extra ? EXTRA_MARGIN : 0);
      // A book suspends a market whole, as it does around team news.
      const status = random.chance(0.03) ? 'suspended' : 'open';
      const updatedAt = openedAt(event);
      // Only the boards that move keep their quotes: most rows are made once and left.
      const kept: OddsItem[] | undefined = keep(event, board) ? [] : undefined;
      for (const side of sides) {
        const row: OddsItem = {
          id: nextId++,
          event_id: event.id,
          operator_id: book.id,
          betting_market_id: side.market.id,
          position: side.position,
          price_decimal: sidePrice(side.p, margin, sides.length),
          status,
          updated_at: updatedAt,
        };
        if (side.line !== null) row.line = side.line;
        // What a feed says beside the market and position; the defaults (no player, the full game,
        // the main line, before the start) are left out, so that the files stay as small as they were.
        if (side.focus.type === 'player') row.player_id = side.focus.player.id;
        if (alternate) row.is_main = false;
        if (event.status === 'live') row.is_live = true;
        all.push(row);
        kept?.push(row);
      }
      if (kept) quotes.push({ event, board, reprice: offer.reprice, rows: kept, p: sides.map((side) => side.p), margin });
      budget -= sides.length;
    };
    const { outlook, props } = event;
    const mains = mainOffers(event, outlook);
    for (const book of books) for (const offer of mains) if (budget > 0) quote(offer, book);
    for (const offer of propOffers(event, outlook, props)) {
      if (budget === 0) break;
      for (const book of books) quote(offer, book);
    }
    // Alternates one step further out at a time, each line quoted by every book, made only while
    // the event's share has room for one (a unit left over moves on with the rest).
    const room = () => budget >= 2;
    const families = room() ? lineFamilies(event, outlook, props) : [];
    for (let round = 1, offered = true; offered && room(); round++) {
      offered = false;
      for (const family of families) {
        for (const line of [family.main - round, family.main + round]) {
          const offer = room() ? family.at(line) : undefined;
          if (offer === undefined) continue;
          offered = true;
          for (const book of books) quote(offer, book, true);
        }
      }
    }
  });
  return { rows: all, quotes };
}
