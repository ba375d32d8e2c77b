import type { SignalOutcome } from './signals.settle.js';

/** The normal quantile of a two-sided 95% interval, as docs/data.md#signals writes it. */
export const Z95 = 1.96;

/** An interval [low, high]. */
export interface Interval {
  low: number;
  high: number;
}

/** What is summed of one signal: its outcome (null until graded), what a unit on it made, its CLV%, its edge. */
export interface SignalResult {
  outcome: SignalOutcome | null;
  profit: number | null;
  clv_pct: number | null;
}

/** The sums of a group of signals (docs/data.md#signals). */
export interface PerformanceStats {
  count: number;
  won: number;
  lost: number;
  push: number;
  void: number;
  /** Not graded yet. */
  pending: number;
  /** won ÷ (won + lost); null without either. */
  hit_rate: number | null;
  hit_rate_interval: Interval | null;
  /** Mean profit per unit over the signals that stood (won, lost, push); null without any. */
  roi: number | null;
  /** roi ± 1.96 × sd ÷ √n (sample sd); null below 2 signals. */
  roi_interval: Interval | null;
  /** Mean CLV% of the signals that have one; null without any. */
  mean_clv_pct: number | null;
  clv_count: number;
}

/** The Wilson score interval of `successes` in `trials` at z (95%: 1.96); null without trials. */
export function wilsonInterval(successes: number, trials: number, z = Z95): Interval | null {
  if (trials === 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/** The mean of `values` with its normal-approximation interval, mean ± z × s ÷ √n (s: the sample standard deviation); the interval null below 2 values. */
export function meanInterval(values: readonly number[], z = Z95): { mean: number | null; interval: Interval | null } {
  const n = values.length;
  if (n === 0) return { mean: null, interval: null };
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  if (n < 2) return { mean, interval: null };
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1);
  const half = (z * Math.sqrt(variance)) / Math.sqrt(n);
  return { mean, interval: { low: mean - half, high: mean + half } };
}

/** The sums of some signals. */
export function performanceOf(signals: readonly SignalResult[]): PerformanceStats {
  const counts = { won: 0, lost: 0, push: 0, void: 0, pending: 0 };
  const stood: number[] = [];
  const clvs: number[] = [];
  for (const signal of signals) {
    if (signal.outcome === null) counts.pending += 1;
    else counts[signal.outcome] += 1;
    // A void bet never stood: it is in no ROI. A push stood and made nothing.
    if (signal.outcome !== null && signal.outcome !== 'void' && signal.profit !== null) stood.push(signal.profit);
    if (signal.clv_pct !== null) clvs.push(signal.clv_pct);
  }
  const decided = counts.won + counts.lost;
  const roi = meanInterval(stood);
  return {
    count: signals.length,
    ...counts,
    hit_rate: decided === 0 ? null : counts.won / decided,
    hit_rate_interval: wilsonInterval(counts.won, decided),
    roi: roi.mean,
    roi_interval: roi.interval,
    mean_clv_pct: meanInterval(clvs).mean,
    clv_count: clvs.length,
  };
}

/** The fixed edge buckets (an edge as a fraction: EV% or profit% ÷ 100), each from its low bound (included) to the next (excluded). */
export const EDGE_BUCKETS = [
  { key: '0-2%', low: 0, high: 0.02 },
  { key: '2-5%', low: 0.02, high: 0.05 },
  { key: '5-10%', low: 0.05, high: 0.1 },
  { key: '10%+', low: 0.1, high: Number.POSITIVE_INFINITY },
] as const;

/** The bucket of an edge; undefined for none (a move) or one below 0. */
export function edgeBucketOf(edge: number | null): string | undefined {
  if (edge === null) return undefined;
  return EDGE_BUCKETS.find((bucket) => edge >= bucket.low && edge < bucket.high)?.key;
}
