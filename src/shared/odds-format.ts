import { exactValue, type Ratio, reduced, roundedQuotient } from './exact-decimal.js';

/**
 * Prices in the formats a client may ask for (docs/data.md#odds-formats). A price is stored once,
 * as decimal odds (a double precision column: `price_decimal`); every other form is derived here,
 * when an item is rendered, so that the forms can never disagree.
 *
 * The conversions are exact. A stored double is read as the shortest decimal that gives it back
 * (1.91 is "1.91", whatever its binary value), and the arithmetic runs on integers: 1.32 is −313
 * (−312.5 rounded away from zero) and 6.4 implies 0.1563 (0.15625 rounded up), where
 * floating-point arithmetic gives −312 and 0.1562.
 */

// `multiplier` and `percent` are Odditt's names (its clients send them): the decimal payout, and
// the implied probability in percent.
export const ODDS_FORMATS = ['decimal', 'american', 'fractional', 'implied_probability', 'multiplier', 'percent'] as const;
export type OddsFormat = (typeof ODDS_FORMATS)[number];

/**
 * The largest decimal price accepted, from a feed or a client: 1,000,001, a win of a million per
 * unit (+100,000,000 American), past any outright long shot (10,000/1 is 10,001) or long parlay.
 * A bound keeps every format of every price a finite number (American 100 × (d − 1) overflows past
 * 1.8e306, and an answer's schema cannot carry Infinity), and Shin's de-vig within its digits.
 */
export const MAX_PRICE_DECIMAL = 1_000_001;

/** The price of `priceDecimal` in `format`: a string for `fractional`, a number for the others. */
export function priceIn(format: 'fractional', priceDecimal: number): string;
export function priceIn(format: Exclude<OddsFormat, 'fractional'>, priceDecimal: number): number;
export function priceIn(format: OddsFormat, priceDecimal: number): number | string;
export function priceIn(format: OddsFormat, priceDecimal: number): number | string {
  switch (format) {
    case 'decimal':
      return priceDecimal;
    case 'american':
      return americanOf(priceDecimal);
    case 'fractional':
      return fractionalOf(priceDecimal);
    case 'implied_probability':
      return impliedProbabilityOf(priceDecimal);
    case 'multiplier':
      return priceDecimal;
    case 'percent':
      return impliedPercentOf(priceDecimal);
  }
}

/** American odds: d ≥ 2 → +round((d−1)×100), the win on a 100 stake; else −round(100/(d−1)), the stake that wins 100. */
export function americanOf(priceDecimal: number): number {
  const win = winPerStake(priceDecimal);
  // Imports refuse prices ≤ 1; 0 keeps the field an integer should one slip through.
  if (win === undefined) return 0;
  const { n, d } = win;
  return n >= d ? Number(roundedQuotient(100n * n, d)) : -Number(roundedQuotient(100n * d, n));
}

/**
 * The decimal price of American odds, the inverse of americanOf: +a → 1 + a/100, −a → 1 + 100/a
 * (−110 → 1.9090…, unrounded: the price is a double for arithmetic, not a figure to show). Odds
 * between −100 and +100 do not exist (+100 and −100 are both evens, 2.00): undefined for those
 * and for anything not finite.
 */
export function decimalOfAmerican(american: number): number | undefined {
  if (!Number.isFinite(american) || Math.abs(american) < 100) return undefined;
  return american > 0 ? 1 + american / 100 : 1 + 100 / -american;
}

/** Fractional odds: d − 1 as a reduced fraction, the win per unit staked (2.25 → "5/4", 2.00 → "1/1"). */
export function fractionalOf(priceDecimal: number): string {
  const win = winPerStake(priceDecimal);
  return win === undefined ? '0/1' : `${win.n}/${win.d}`;
}

/** The probability a price implies, 1/d as a fraction from 0 to 1, to 4 decimals. */
export function impliedProbabilityOf(priceDecimal: number): number {
  const price = exactValue(priceDecimal);
  if (price === undefined || price.n <= price.d) return 1;
  return Number(roundedQuotient(10_000n * price.d, price.n)) / 10_000;
}

/** The probability a price implies in percent, 100/d to 2 decimals (the implied probability × 100, exactly). */
export function impliedPercentOf(priceDecimal: number): number {
  const price = exactValue(priceDecimal);
  if (price === undefined || price.n <= price.d) return 100;
  return Number(roundedQuotient(10_000n * price.d, price.n)) / 100;
}

/** d − 1 of a price, exactly; undefined for a price that is not above 1. */
function winPerStake(priceDecimal: number): Ratio | undefined {
  const price = exactValue(priceDecimal);
  if (price === undefined || price.n <= price.d) return undefined;
  return reduced(price.n - price.d, price.d);
}
