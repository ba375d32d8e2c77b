import type { Random } from './random.js';

/**
 * How the demo prices a competition's markets, without the database: the chances of each
 * participant (to win, to finish within N places, to beat its rivals) come from its hidden
 * strength, and a book turns them into prices with its overround, the long shots carrying most of
 * it, as books that sell outrights do.
 */

/** Finishing orders drawn to read the top-N and matchup chances from: enough that a top-20 chance moves by well under a point. */
const RUNS = 3_000;
/** The longest price a book offers (1000/1, as most do): a longer chance is priced at it. */
export const LONGEST_PRICE = 1001;

/**
 * A participant's performance in one run: its strength plus a Gumbel draw, so that the chance of
 * finishing first is exp(s) / Σ exp(s) (a Plackett–Luce order) and the places below follow from
 * the same draws.
 */
export function performance(random: Random, strength: number): number {
  return strength - Math.log(-Math.log(Math.max(Number.MIN_VALUE, random.next())));
}

/** The chance of each participant to win: exp(strength), in proportion. */
export function winChances(strengths: readonly number[]): number[] {
  const top = Math.max(...strengths);
  const weights = strengths.map((s) => Math.exp(s - top));
  const sum = weights.reduce((a, w) => a + w, 0);
  return weights.map((w) => w / sum);
}

/** What `RUNS` simulated finishing orders say: each participant's chance to finish within `places`, and a rival group's chance to finish best. */
export interface Simulated {
  within(places: number): number[];
  /** The chance that each of `group` (participant indexes) finishes ahead of the others of the group. */
  bestOf(group: readonly number[]): number[];
}

export function simulate(random: Random, strengths: readonly number[]): Simulated {
  const n = strengths.length;
  const ranks: Int16Array[] = [];
  const order = Array.from({ length: n }, (_, i) => i);
  for (let run = 0; run < RUNS; run++) {
    const perf = strengths.map((s) => performance(random, s));
    order.sort((a, b) => (perf[b] ?? 0) - (perf[a] ?? 0));
    const rank = new Int16Array(n);
    order.forEach((participant, place) => {
      rank[participant] = place + 1;
    });
    ranks.push(rank);
  }
  return {
    within(places) {
      const count = new Array<number>(n).fill(0);
      for (const rank of ranks) for (let i = 0; i < n; i++) if ((rank[i] ?? n) <= places) count[i] = (count[i] ?? 0) + 1;
      // Never a certainty nor nothing: a book prices every runner.
      return count.map((c) => Math.min(RUNS - 0.5, Math.max(0.5, c)) / RUNS);
    },
    bestOf(group) {
      const wins = group.map(() => 0.5);
      for (const rank of ranks) {
        let best = 0;
        group.forEach((p, i) => {
          if ((rank[p] ?? n) < (rank[group[best] ?? p] ?? n)) best = i;
        });
        wins[best] = (wins[best] ?? 0) + 1;
      }
      const sum = wins.reduce((a, w) => a + w, 0);
      return wins.map((w) => w / sum);
    },
  };
}

/**
 * A book's prices for chances `p` that add up to `places` (1 for a winner market, 5 for a top 5),
 * with overround `margin`: the implied chances are p^k, k below 1 found so that they add up to
 * places × (1 + margin). A power below 1 raises a small chance more than a large one, so the long
 * shots carry most of the margin (the favourite-longshot bias). Prices are rounded to a book's
 * ladder and capped at LONGEST_PRICE.
 */
export function outrightPrices(p: readonly number[], places: number, margin: number): number[] {
  const target = places * (1 + margin);
  const total = (k: number) => p.reduce((a, x) => a + Math.min(0.99, x ** k), 0);
  // Down to 0.01: a league of two sides (a small demo) may have a near-certain favourite, and the long shot then carries the margin.
  let [low, high] = [0.01, 1];
  for (let step = 0; step < 60; step++) {
    const k = (low + high) / 2;
    if (total(k) > target) low = k;
    else high = k;
  }
  return p.map((x) => ladder(1 / Math.min(0.99, x ** low)));
}

/** A price as a book shows it: finer steps for short prices, whole numbers and fives and tens for long ones. */
export function ladder(price: number): number {
  const step = price < 4 ? 0.01 : price < 10 ? 0.1 : price < 30 ? 0.5 : price < 100 ? 1 : price < 300 ? 5 : 10;
  const rounded = Math.round(Math.round(price / step) * step * 100) / 100;
  return Math.min(LONGEST_PRICE, Math.max(1.01, rounded));
}
