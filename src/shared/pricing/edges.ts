import { bestPriceOf, consensusDevig, type Quote } from './consensus.js';
import { DEFAULT_DEVIG_METHOD, type DevigMethod, type NoFairPriceReason } from './devig.js';

/**
 * Where a price beats the market: expected value against a fair probability, arbitrage across
 * books, and the closing-line value of a price taken before the start.
 */

/**
 * The expected value of a bet, in percent of the stake: EV% = (d × p − 1) × 100, where d is the
 * decimal price and p the fair probability. 2.10 on an outcome fair at 0.5 is +5: a stake of 100
 * returns 105 on average. Percent, as the hit rates are (docs/data.md#percentages-and-fractions).
 */
export function expectedValuePct(priceDecimal: number, fairProbability: number): number {
  return (priceDecimal * fairProbability - 1) * 100;
}

/**
 * Closing-line value in percent: CLV% = (d ÷ fair closing price − 1) × 100. A bet taken at 2.10
 * on a selection whose no-vig consensus closed at 2.00 beat the close by 5 %. It is the expected
 * value of the bet against the closing fair probability, since d ÷ (1/p) = d × p.
 */
export function closingLineValuePct(priceDecimal: number, fairClosingPrice: number): number {
  return (priceDecimal / fairClosingPrice - 1) * 100;
}

/**
 * The closing-line value of a price on outcome `outcome` of a market, against the consensus of the
 * books' closing quotes (one list per outcome), de-vigged with `method`; or why there is none.
 */
export function closingLineValue<Book>(
  priceDecimal: number,
  closingQuotesByOutcome: ReadonlyArray<readonly Quote<Book>[]>,
  outcome: number,
  method: DevigMethod = DEFAULT_DEVIG_METHOD,
): { ok: true; clvPct: number; fairClosingPrice: number } | { ok: false; reason: NoFairPriceReason } {
  const fair = consensusDevig(closingQuotesByOutcome, method);
  if (!fair.ok) return { ok: false, reason: fair.reason };
  const fairClosingPrice = fair.prices[outcome];
  if (fairClosingPrice === undefined) return { ok: false, reason: 'incomplete_market' };
  return { ok: true, clvPct: closingLineValuePct(priceDecimal, fairClosingPrice), fairClosingPrice };
}

/** Stakes on every outcome of a market that return the same whatever the result. */
export interface StakeSplit {
  /** Σ 1/d over the outcomes: below 1 for an arbitrage. */
  impliedSum: number;
  /** Per outcome, the stake out of `total` (100 unless asked) that makes every result pay the same. */
  stakes: number[];
  /** What the stakes return on any result: total ÷ impliedSum. */
  payout: number;
  /** The locked gain in percent of the total staked: (1 ÷ impliedSum − 1) × 100. */
  profitPct: number;
}

/** An arbitrage: the best price of each outcome across books, and the stakes that lock its margin. */
export interface Arbitrage<Book> extends StakeSplit {
  /** Per outcome, the best price and the books offering it. */
  legs: { price: number; books: Book[] }[];
}

/**
 * The arbitrage in a market across books: the best price of each outcome (one list of quotes per
 * outcome, every outcome of the market), when their implied probabilities add up to less than 1.
 * Undefined when they do not, or when an outcome has no quote. The quotes must be for the same
 * line, or the outcomes would not cover every result.
 */
export function arbitrageOf<Book>(quotesByOutcome: ReadonlyArray<readonly Quote<Book>[]>, total = 100): Arbitrage<Book> | undefined {
  if (quotesByOutcome.length < 2) return undefined;
  const legs: { price: number; books: Book[] }[] = [];
  for (const quotes of quotesByOutcome) {
    const best = bestPriceOf(quotes);
    if (best === undefined) return undefined;
    legs.push(best);
  }
  const split = arbitrageStakes(legs.map((leg) => leg.price), total);
  return split.impliedSum < 1 ? { legs, ...split } : undefined;
}

/**
 * Stakes in proportion to the implied probabilities, stake_i = total × (1/d_i) ÷ Σ 1/d_j: then
 * stake_i × d_i = total ÷ Σ 1/d_j for every i, the same payout whichever outcome wins.
 */
export function arbitrageStakes(prices: readonly number[], total = 100): StakeSplit {
  const implied = prices.map((d) => 1 / d);
  const impliedSum = implied.reduce((a, b) => a + b, 0);
  return {
    impliedSum,
    stakes: implied.map((r) => (total * r) / impliedSum),
    payout: total / impliedSum,
    profitPct: (1 / impliedSum - 1) * 100,
  };
}

/**
 * The Kelly stake of a bet, as a fraction of the bankroll: f = fraction × (p × d − 1) ÷ (d − 1),
 * the stake that maximises the expected logarithm of the bankroll at the fair probability p (Kelly,
 * 1956), scaled by `fraction` (a half-Kelly bettor takes half the swings for three quarters of the
 * growth). 2.10 on an outcome fair at 0.5: 0.05 ÷ 1.10 = 0.045455, 4.55 % of the bankroll. A bet
 * without a positive expected value has no stake: 0, never a negative one (Kelly says "do not bet",
 * not "bet the other side", which is another price).
 */
export function kellyStake(priceDecimal: number, fairProbability: number, fraction = 1): number {
  const edge = fairProbability * priceDecimal - 1;
  return edge > 0 ? (fraction * edge) / (priceDecimal - 1) : 0;
}
