import type { ChangeFeed } from './change-feed.js';
import { LruCache } from './lru.js';

/**
 * Caches computed reads of the sports data (totals, id lists, rendered pages). Data changes
 * only through import, which bumps the 'data' version: every entry is keyed by that version,
 * and the whole cache is dropped when it moves (on this node at once, elsewhere within a poll).
 * Concurrent misses for one key share one computation.
 */
export interface ReadCache {
  get<T>(key: string, compute: () => Promise<T> | T): Promise<T>;
  /** The synchronous fast path: a hit, or undefined. */
  peek<T>(key: string): T | undefined;
}

export function createReadCache(changes: ChangeFeed, capacity = 10_000): ReadCache {
  const values = new LruCache<string, unknown>(capacity);
  const inFlight = new Map<string, Promise<unknown>>();
  changes.onChange('data', () => {
    values.clear();
    inFlight.clear();
  });

  const versioned = (key: string) => `${changes.version('data')}|${key}`;

  return {
    peek<T>(key: string): T | undefined {
      return values.get(versioned(key)) as T | undefined;
    },

    async get<T>(key: string, compute: () => Promise<T> | T): Promise<T> {
      const k = versioned(key);
      const hit = values.get(k);
      if (hit !== undefined) return hit as T;
      const pending = inFlight.get(k);
      if (pending) return pending as Promise<T>;
      const promise = (async () => {
        try {
          const value = await compute();
          // Keep it only if no import landed meanwhile (the key would name an old version).
          if (k === versioned(key)) values.set(k, value);
          return value;
        } finally {
          inFlight.delete(k);
        }
      })();
      inFlight.set(k, promise);
      return promise;
    },
  };
}
