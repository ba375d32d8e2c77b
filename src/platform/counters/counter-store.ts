import type { BackgroundJob } from '../background.js';

/**
 * A counter of events in fixed windows of the epoch: with a window of 60,000 ms its count
 * restarts at every UTC minute, with 86,400,000 ms at every UTC midnight. The key names what is
 * counted (a client, a source address); the store adds the window to it.
 */
export interface WindowedCounter {
  readonly key: string;
  readonly windowMs: number;
  /** A take is refused once the count has reached this. `Infinity`: counted, never refused. */
  readonly limit: number;
  /**
   * A shared store may grant this node a lease of several events at once (never past the
   * limit), served without a round trip. For busy counters (a client's rate limit); not for
   * the ones read back to decide (login failures), whose counts a lease would overstate.
   */
  readonly leaseable?: boolean;
}

export interface Taken {
  /** False when a counter had reached its limit: then nothing was counted. */
  readonly allowed: boolean;
  /** Each counter's count after the take (as it stood, when refused), in the order given. */
  readonly counts: readonly number[];
}

/** A count to start a counter from: what durable records say was used in its window. */
export interface Seed {
  readonly counter: Pick<WindowedCounter, 'key' | 'windowMs'>;
  readonly count: number;
}

/**
 * Reads the counts a store starts from (at its start, and when Redis comes back without its
 * data), with the instant they were read at: each seed counts in the counter's window of `now`.
 */
export type SeedSource = () => Promise<{ now: number; seeds: readonly Seed[] }>;

/** 'ok', or 'degraded' while a shared store is unreachable and this node counts on its own. */
export type StoreState = 'ok' | 'degraded';

/**
 * Where limits are counted: in this process, or in Redis for every node and worker. A take
 * checks and counts in one atomic step, so concurrent takes can never together pass a limit.
 * The in-process store answers synchronously (no promise on the hot path); a shared store
 * answers with a promise and never rejects (it fails open, counting locally).
 */
export interface CounterStore extends BackgroundJob {
  /** True when every node and worker sees the same counts (Redis); false for one process's memory. */
  readonly shared: boolean;
  /** Counts one event in every counter, unless one of them has reached its limit. */
  take(counters: readonly WindowedCounter[], now: number): Taken | Promise<Taken>;
  /**
   * The limits of these counters may have changed: events granted ahead under another limit are
   * given back, so that the new limit starts from what was used.
   */
  revise(counters: readonly WindowedCounter[], now: number): void;
  /** The current counts, counting nothing. */
  read(counters: readonly WindowedCounter[], now: number): readonly number[] | Promise<readonly number[]>;
  state(): StoreState;
  /** Called on every change of state (for /readyz and a metric). */
  onStateChange(listener: (state: StoreState) => void): void;
}

/** The window an instant falls in (its index since the epoch) and when that window ends. */
export function windowOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs);
}

export function windowEnd(now: number, windowMs: number): number {
  return (windowOf(now, windowMs) + 1) * windowMs;
}

/** Whole seconds until the window of `now` ends: 1 to the window's length, never 0. */
export function secondsUntilReset(now: number, windowMs: number): number {
  return Math.max(1, Math.ceil((windowEnd(now, windowMs) - now) / 1000));
}
