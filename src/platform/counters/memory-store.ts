import type { CounterStore, StoreState, Taken, WindowedCounter } from './counter-store.js';
import { windowOf } from './counter-store.js';

interface Entry {
  window: number;
  windowMs: number;
  count: number;
}

/** Old windows are dropped this often, so that counters of addresses seen once do not pile up. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in this process's memory: exact for one process, synchronous (a take is a few map
 * lookups, no promise), and the fallback of the Redis store while Redis is away. JavaScript
 * runs one take at a time, so check-then-count is atomic here.
 */
export interface MemoryStore extends CounterStore {
  take(counters: readonly WindowedCounter[], now: number): Taken;
  read(counters: readonly WindowedCounter[], now: number): readonly number[];
}

export function createMemoryStore(): MemoryStore {
  const entries = new Map<string, Entry>();
  let nextSweep = 0;

  /** The counter's count in the window of `now` (0 when its entry is of an older window). */
  const countOf = (counter: WindowedCounter, now: number): number => {
    const entry = entries.get(counter.key);
    return entry !== undefined && entry.windowMs === counter.windowMs && entry.window === windowOf(now, counter.windowMs) ? entry.count : 0;
  };

  const increment = (counter: WindowedCounter, now: number): number => {
    const window = windowOf(now, counter.windowMs);
    const entry = entries.get(counter.key);
    if (entry === undefined) {
      entries.set(counter.key, { window, windowMs: counter.windowMs, count: 1 });
      return 1;
    }
    if (entry.window !== window || entry.windowMs !== counter.windowMs) {
      entry.window = window;
      entry.windowMs = counter.windowMs;
      entry.count = 0;
    }
    entry.count += 1;
    return entry.count;
  };

  const sweep = (now: number) => {
    nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, entry] of entries) if (entry.window < windowOf(now, entry.windowMs)) entries.delete(key);
  };

  return {
    name: 'in-process limit counters',
    shared: false,

    take(counters, now): Taken {
      if (now >= nextSweep) sweep(now);
      for (const counter of counters) {
        if (countOf(counter, now) >= counter.limit) return { allowed: false, counts: counters.map((c) => countOf(c, now)) };
      }
      return { allowed: true, counts: counters.map((c) => increment(c, now)) };
    },

    read: (counters, now) => counters.map((c) => countOf(c, now)),

    state: (): StoreState => 'ok',
    onStateChange() {},
    start() {},
    stop() {
      entries.clear();
    },
  };
}
