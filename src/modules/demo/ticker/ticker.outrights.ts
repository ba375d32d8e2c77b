import { ladder } from '../generator/competition-pricing.js';
import type { Random } from '../generator/random.js';
import type { PriceMove, Quote } from './ticker.moves.js';

/**
 * What one tick does to a competition's prices: in one book's many-outcome market (a winner, a
 * top 10), one runner shortens and another drifts by as much implied chance (news on one, money
 * on the other), so the market's overround stays where it was, rounding to the book's ladder aside.
 */

/** How far one move shifts the shortening runner's implied chance, relatively (the standard deviation). */
const STEP = 0.08;
/** A drifting runner keeps at least this share of its implied chance. */
const KEEP = 0.5;

export function moveOutright(random: Random, quote: Quote): PriceMove[] {
  if (quote.length < 2 || quote[0]?.status === 'suspended') return [];
  const [up, down] = random.sample(quote, 2);
  if (up === undefined || down === undefined) return [];
  const [qUp, qDown] = [1 / up.price, 1 / down.price];
  const shift = Math.min(qUp * Math.abs(random.normal()) * STEP, qDown * (1 - KEEP));
  return [
    [up, ladder(1 / Math.min(0.99, qUp + shift))],
    [down, ladder(1 / (qDown - shift))],
  ].flatMap(([row, price]) => (typeof row === 'object' && typeof price === 'number' && price !== row.price ? [{ odds_id: row.id, price_decimal: price, status: row.status }] : []));
}
