import type { CounterStore, SeedSource, StoreState, Taken, WindowedCounter } from './counter-store.js';
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

/**
 * With `seeds`, start() raises the counters to them first: a restarted process does not give its
 * clients the day back.
 */
export function createMemoryStore(options: { seeds?: SeedSource } = {}): MemoryStore {
  const entries = new Map<string, Entry>();
  let nextSweep = 0;

  /** The counter's entry, at the window of `now` (a count of an older window restarts at 0). */
  const entryOf = (counter: Pick<WindowedCounter, 'key' | 'windowMs'>, now: number): Entry => {
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

    // Nothing is granted ahead here: a changed limit applies to the count as it stands.
    revise() {},

    state: (): StoreState => 'ok',
    onStateChange() {},
    async start(log) {
      if (options.seeds === undefined) return;
      try {
        const { now, seeds } = await options.seeds();
        for (const { counter, count } of seeds) {
          const entry = entryOf(counter, now);
          entry.count = Math.max(entry.count, count);
        }
      } catch (error) {
        log.warn({ err: error }, "reading the day's usage failed: daily quotas count today's requests from 0");
      }
    },
    stop() {
      entries.clear();
    },
  };
}
