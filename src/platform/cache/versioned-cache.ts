import type { ChangeVersionName } from '../db/schema.js';
import { ByteLru } from './byte-lru.js';
import type { ChangeFeed } from './change-feed.js';

/**
 * A cache of values derived from data that one change-feed counter follows ('clients' or
 * 'data'). This is the one invalidation rule of the code base: a change drops every entry
 * (on this node at once, elsewhere at the next poll), and a value computed while a change
 * landed is returned but not kept, since it may predate the change. Bounded by bytes.
 */
export interface VersionedCache<V> {
  /**
   * The cached value, or `compute`d now; concurrent misses for one key share one computation.
   * A computed value is kept unless `worthKeeping` says no (it is returned all the same).
   */
  get(key: string, compute: () => Promise<V> | V, worthKeeping?: (value: V) => boolean): Promise<V>;
  /** Values of many keys: hits from the cache, every miss computed by one call of `computeMissing`. */
  getMany(keys: readonly string[], computeMissing: (missing: string[]) => Promise<ReadonlyMap<string, V>>): Promise<Map<string, V>>;
  /** The synchronous fast path: a hit, or undefined. Counts a hit only: the `get` that follows a miss counts the miss. */
  peek(key: string): V | undefined;
  usage(): CacheUsage;
}

export interface CacheUsage {
  entries: number;
  bytes: number;
  budgetBytes: number;
  /**
   * Lookups since the cache was made, one per key (a `getMany` of a page counts each item);
   * kept across invalidations. Joining a computation in flight is a miss: the caller waits.
   */
  hits: number;
  misses: number;
}

export interface VersionedCacheOptions<V> {
  changes: ChangeFeed;
  /** The counter whose changes make the values stale. */
  follows: ChangeVersionName;
  budgetBytes: number;
  /** Estimated bytes of a value (undefined is not a value: it means a miss). */
  sizeOf: (value: V) => number;
}

export function createVersionedCache<V>(options: VersionedCacheOptions<V>): VersionedCache<V> {
  const { changes, follows } = options;
  const values = new ByteLru<V>(options.budgetBytes, options.sizeOf);
  const inFlight = new Map<string, Promise<V>>();
  // Plain numbers, read at scrape time (read_cache_requests_total): nearly every request looks up.
  let hits = 0;
  let misses = 0;
  changes.onChange(follows, () => {
    values.clear();
    inFlight.clear();
  });

  /** Keeps a value computed since `seen` only if no change landed meanwhile. */
  const keep = (seen: number, key: string, value: V) => {
    if (changes.version(follows) === seen) values.set(key, value);
  };

  return {
    peek(key) {
      const hit = values.get(key);
      if (hit !== undefined) hits++;
      return hit;
    },

    get(key, compute, worthKeeping) {
      const hit = values.get(key);
      if (hit !== undefined) {
        hits++;
        return Promise.resolve(hit);
      }
      misses++;
      const pending = inFlight.get(key);
      if (pending) return pending;
      const seen = changes.version(follows);
      const promise: Promise<V> = Promise.resolve()
        .then(compute)
        .then((value) => {
          if (worthKeeping === undefined || worthKeeping(value)) keep(seen, key, value);
          return value;
        })
        .finally(() => {
          // A change may have replaced this computation by a newer one: leave that one be.
          if (inFlight.get(key) === promise) inFlight.delete(key);
        });
      inFlight.set(key, promise);
      return promise;
    },

    async getMany(keys, computeMissing) {
      const found = new Map<string, V>();
      const missing: string[] = [];
      for (const key of keys) {
        const hit = values.get(key);
        if (hit === undefined) missing.push(key);
        else found.set(key, hit);
      }
      hits += keys.length - missing.length;
      misses += missing.length;
      if (missing.length === 0) return found;
      const seen = changes.version(follows);
      for (const [key, value] of await computeMissing(missing)) {
        keep(seen, key, value);
        found.set(key, value);
      }
      return found;
    },

    usage: () => ({ entries: values.size, bytes: values.bytes, budgetBytes: values.budgetBytes, hits, misses }),
  };
}
