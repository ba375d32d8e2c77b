import type { Taken, WindowedCounter } from './counter-store.js';
import { windowOf } from './counter-store.js';

/**
 * Events of one counter that a shared store granted this node ahead of time, in the counter's
 * current window. Every granted event keeps its own place in the shared count (its ticket), so
 * the counts a request sees are exact positions, as one round trip each would have given them.
 */
interface Lease {
  window: number;
  /** Ranges of tickets not handed out yet, [next, last], oldest first. */
  ranges: Array<[number, number]>;
  /** The shared count as last heard of (the count a refused take reports). */
  last: number;
  /** Events promised to a batch on its way to the store: not handed out to other takes meanwhile. */
  pledged: number;
}

export interface Leases {
  /**
   * A take served from the leases, synchronously, when every counter has an event left; undefined
   * otherwise (nothing is handed out then).
   */
  serve(counters: readonly WindowedCounter[], now: number): Taken | undefined;
  /** The take refused: the counts as last heard of. */
  refused(counters: readonly WindowedCounter[], now: number): Taken;
  /** Events of the counter this node holds in its current window (pledged ones included). */
  held(counter: WindowedCounter, now: number): number;
  /** Promises up to `wanted` of the events held and not promised yet to a batch; returns how many. */
  pledge(counter: WindowedCounter, now: number, wanted: number): number;
  /** Takes back a promise (the batch's answer came, or it failed). */
  release(counter: WindowedCounter, now: number, pledged: number): void;
  /** Adds a grant: the store's count went up by `granted` to `after`. */
  grant(counter: WindowedCounter, now: number, granted: number, after: number): void;
}

/**
 * Leases per counter, so that each window keeps its own: the events of a day granted ahead stay
 * valid when the minute they came with ends. By counter object: the limiter hands every
 * request of a client the same ones.
 */
export function createLeases(): Leases {
  const leases = new WeakMap<WindowedCounter, Lease>();

  const current = (counter: WindowedCounter, now: number): Lease | undefined => {
    const lease = leases.get(counter);
    return lease !== undefined && lease.window === windowOf(now, counter.windowMs) ? lease : undefined;
  };

  const held = (counter: WindowedCounter, now: number): number =>
    current(counter, now)?.ranges.reduce((sum, [next, last]) => sum + last - next + 1, 0) ?? 0;

  return {
    serve(counters, now) {
      for (const counter of counters) {
        const lease = current(counter, now);
        if (lease === undefined || held(counter, now) - lease.pledged <= 0) return undefined;
      }
      return {
        allowed: true,
        counts: counters.map((counter) => {
          const lease = current(counter, now);
          const range = lease?.ranges[0];
          if (lease === undefined || range === undefined) return 0;
          const ticket = range[0];
          if (ticket === range[1]) lease.ranges.shift();
          else range[0] = ticket + 1;
          return ticket;
        }),
      };
    },

    refused: (counters, now) => ({ allowed: false, counts: counters.map((counter) => current(counter, now)?.last ?? 0) }),

    held,

    pledge(counter, now, wanted) {
      const lease = current(counter, now);
      if (lease === undefined) return 0;
      const pledged = Math.max(0, Math.min(wanted, held(counter, now) - lease.pledged));
      lease.pledged += pledged;
      return pledged;
    },

    release(counter, now, pledged) {
      const lease = current(counter, now);
      if (lease !== undefined) lease.pledged = Math.max(0, lease.pledged - pledged);
    },

    grant(counter, now, granted, after) {
      const window = windowOf(now, counter.windowMs);
      let lease = current(counter, now);
      if (lease === undefined) {
        lease = { window, ranges: [], last: after, pledged: 0 };
        leases.set(counter, lease);
      }
      lease.last = Math.max(lease.last, after);
      if (granted > 0) lease.ranges.push([after - granted + 1, after]);
    },
  };
}
