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

  /** The counter's entry, at the window of `now` (a count of an older window restarts at 0). */
  const entryOf = (counter: WindowedCounter, now: number): Entry => {
    const window = windowOf(now, counter.windowMs);
    let entry = entries.get(counter.key);
    if (entry === undefined) {
      entry = { window, windowMs: counter.windowMs, count: 0 };
      entries.set(counter.key, entry);
    } else if (entry.window !== window || entry.windowMs !== counter.windowMs) {
      entry.window = window;
      entry.windowMs = counter.windowMs;
      entry.count = 0;
    }
    return entry;
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
      // One lookup per counter and no closure: this runs on every request.
      const found: Entry[] = [];
      let allowed = true;
      for (const counter of counters) {
        const entry = entryOf(counter, now);
        if (entry.count >= counter.limit) allowed = false;
        found.push(entry);
      }
      const counts: number[] = [];
      for (const entry of found) counts.push(allowed ? ++entry.count : entry.count);
      return { allowed, counts };
    },

    // Reads create nothing: a flood of sources that only get read leaves no entries behind.
    read: (counters, now) =>
      counters.map((counter) => {
        const entry = entries.get(counter.key);
        return entry !== undefined && entry.windowMs === counter.windowMs && entry.window === windowOf(now, counter.windowMs) ? entry.count : 0;
      }),

    state: (): StoreState => 'ok',
    onStateChange() {},
    start() {},
    stop() {
      entries.clear();
    },
  };
}
