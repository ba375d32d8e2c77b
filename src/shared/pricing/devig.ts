import { bisect, DEFAULT_MAX_STEPS, newtonFromBelow } from './roots.js';

/**
 * Fair prices: one book's market with its margin taken out (docs/data.md#fair-prices-and-de-vig-methods).
 *
 * A book's prices d₁…dₙ imply r_i = 1/d_i, and the r_i of a whole market add up to more than 1: the
 * excess is the book's hold. How the hold was spread over the outcomes is the book's secret, so
 * each method is a model of it, and the methods disagree most on long shots. Every method here
 * keeps the order of the prices (a longer price never gets a larger fair probability) and, when
 * the book has no hold, gives back r_i themselves.
 *
 * Nothing here throws: a market that cannot be de-vigged says why, so that a page of items can
 * show the reason beside the prices instead of failing.
 */

export const DEVIG_METHODS = ['multiplicative', 'additive', 'power', 'shin'] as const;
export type DevigMethod = (typeof DEVIG_METHODS)[number];
export const DEFAULT_DEVIG_METHOD: DevigMethod = 'multiplicative';

export const NO_FAIR_PRICE_REASONS = ['incomplete_market', 'invalid_price', 'non_positive_probability', 'no_convergence'] as const;
/**
 * Why a market has no fair price:
 * - `incomplete_market`: fewer than two outcomes, or an outcome without a price from the book;
 * - `invalid_price`: a price that is not a finite number above 1;
 * - `non_positive_probability`: the method gives an outcome a probability ≤ 0 (additive, on a long
 *   shot), or one too small for a finite price (power, in a market of near-certainties);
 * - `no_convergence`: the equation of power or Shin found no root within the solver's budget.
 */
export type NoFairPriceReason = (typeof NO_FAIR_PRICE_REASONS)[number];

export type Devig =
  | {
      ok: true;
      method: DevigMethod;
      /** Σ r_i − 1: the book's overround (0.0476 for two sides at 1.91). */
      hold: number;
      /** One per outcome, in the order of the prices given; they add up to 1. */
      probabilities: number[];
      /** 1 / probability, the decimal price without the margin. */
      prices: number[];
      /** Power's exponent (p_i = r_i^k), Shin's insider share z; absent for the other methods. */
      k?: number;
      z?: number;
    }
  | { ok: false; method: DevigMethod; reason: NoFairPriceReason; /** Null when the market is incomplete or a price invalid. */ hold: number | null };

export interface DevigOptions {
  /** The solver's step budget for power and Shin; the default is ample (a test lowers it). */
  maxSteps?: number;
}

/** The probability a decimal price implies, 1/d, unrounded (odds-format.ts rounds it for display). */
export function impliedProbability(priceDecimal: number): number {
  return 1 / priceDecimal;
}

/** A book's hold on a market, Σ 1/d_i − 1; undefined for an incomplete market or an invalid price. */
export function holdOf(prices: ReadonlyArray<number | null | undefined>): number | undefined {
  const implied = impliedOf(prices);
  return Array.isArray(implied) ? sum(implied) - 1 : undefined;
}

/**
 * The fair probabilities and prices of one book's market: `prices` holds the book's decimal price
 * of every outcome of the market (null or undefined where the book has none), in any order, which
 * the answer keeps.
 */
export function devig(
  prices: ReadonlyArray<number | null | undefined>,
  method: DevigMethod = DEFAULT_DEVIG_METHOD,
  options: DevigOptions = {},
): Devig {
  const implied = impliedOf(prices);
  if (!Array.isArray(implied)) return { ok: false, method, reason: implied, hold: null };
  const total = sum(implied);
  const hold = total - 1;
  const solved = METHODS[method](implied, total, options.maxSteps ?? DEFAULT_MAX_STEPS);
  if (solved === undefined) return { ok: false, method, reason: 'no_convergence', hold };
  // A probability that underflows to a denormal is as good as 0: its fair price would be infinite.
  if (solved.probabilities.some((p) => !(p > 0 && Number.isFinite(1 / p)))) return { ok: false, method, reason: 'non_positive_probability', hold };
  return { ok: true, method, hold, prices: solved.probabilities.map((p) => 1 / p), ...solved };
}

type Solved = { probabilities: number[]; k?: number; z?: number };

/** Each method from the implied probabilities r and their sum; undefined when its equation has no root in the budget. */
const METHODS: Record<DevigMethod, (r: readonly number[], total: number, maxSteps: number) => Solved | undefined> = {
  // p_i = r_i / Σr: the hold is taken from each outcome in proportion to its probability.
  multiplicative: (r, total) => ({ probabilities: r.map((x) => x / total) }),

  // p_i = r_i − (Σr − 1)/n: every outcome gives up an equal share, which can leave a long shot ≤ 0.
  additive: (r, total) => ({ probabilities: r.map((x) => x - (total - 1) / r.length) }),

  // p_i = r_i^k with k such that Σ r_i^k = 1: long shots give up more, in proportion, than favourites.
  power: (r, total, maxSteps) => {
    // g(k) = Σ r^k − 1 is convex and decreasing (0 < r < 1); g(1) = Σr − 1 and g(0) = n − 1 > 0, so
    // from 1 (a positive hold) or 0 (a negative one) Newton climbs to the root without overshooting.
    const logs = r.map(Math.log);
    const k = newtonFromBelow(
      (k) => {
        const powers = r.map((x) => x ** k);
        return { value: sum(powers) - 1, slope: sum(powers.map((p, i) => p * (logs[i] ?? 0))) };
      },
      total >= 1 ? 1 : 0,
      maxSteps,
    );
    return k === undefined ? undefined : { probabilities: r.map((x) => x ** k), k };
  },

  // Shin (1993): a share z of the money comes from insiders who know the result; the book prices to
  // survive them, which lengthens long shots most. See shinProbabilities for the formula.
  shin: (r, total, maxSteps) => {
    const excess = (z: number) => sum(shinProbabilities(r, total, z)) - 1;
    // At z = 0 the sum is √Σr, above 1 for a positive hold; at z = 1 it is Σr²/Σr, below 1 (each r < 1);
    // at z = −1 it is above n/2 ≥ 1. So the root lies in [0, 1] for a positive hold and in [−1, 0] for
    // a negative one (a book that pays out more than it takes: no insider story, but the same formula
    // stays continuous through a hold of 0, where z = 0 and Shin is the multiplicative method). The
    // side is chosen by the computed sum at 0, not by the hold: at a hold within rounding of 0 the
    // two can disagree, and only the computed sign brackets the root that bisection can find.
    const z = excess(0) >= 0 ? bisect(excess, 0, 1, maxSteps) : bisect(excess, -1, 0, maxSteps);
    return z === undefined ? undefined : { probabilities: shinProbabilities(r, total, z), z };
  },
};

/**
 * Shin's probabilities for an insider share z, in the closed form of Jullien & Salanié (1994) and
 * Štrumbelj (2014): p_i = (√(z² + 4(1 − z) r_i²/Σr) − z) / (2(1 − z)). For z ≥ 0 the equal form
 * 2r_i² / (Σr (√(z² + 4(1 − z) r_i²/Σr) + z)) is used: it subtracts nothing, so a long shot's small
 * probability keeps its digits, and it stays defined at z = 1.
 */
function shinProbabilities(r: readonly number[], total: number, z: number): number[] {
  return r.map((x) => {
    const root = Math.sqrt(z * z + (4 * (1 - z) * x * x) / total);
    return z >= 0 ? (2 * x * x) / (total * (root + z)) : (root - z) / (2 * (1 - z));
  });
}

/** 1/d for every price of a complete market of valid prices, or why there is none. */
function impliedOf(prices: ReadonlyArray<number | null | undefined>): number[] | NoFairPriceReason {
  if (prices.length < 2 || prices.some((d) => d === null || d === undefined)) return 'incomplete_market';
  const implied: number[] = [];
  for (const d of prices) {
    // Imports refuse prices ≤ 1; a price of exactly 1 would also leave power's equation without a root.
    if (typeof d !== 'number' || !Number.isFinite(d) || d <= 1) return 'invalid_price';
    implied.push(impliedProbability(d));
  }
  return implied;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
