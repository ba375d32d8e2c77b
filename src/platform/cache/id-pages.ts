import { LruCache } from './lru.js';
import type { ChangeFeed } from './change-feed.js';
import type { ReadCache } from './read-cache.js';
import { offsetOf, type Page, pageOf, type Paging } from '../pagination.js';

/**
 * Paging over data that changes only through import. Per data version, each filter
 * combination's ordered id list is computed once (one query, kept as a compact Float64Array);
 * a page is then a slice of that list — no OFFSET and no COUNT per request, so page 5,000 costs
 * what page 1 costs — and the slice's items come from a per-version item cache, the misses
 * fetched by primary key in one query.
 */

/** A page request reduced to its cache key, and how to render it on a miss. */
export interface CachedPage<T> {
  key: string;
  render: () => Promise<Page<T>>;
}

/** An ordered id list. Float64Array: 8 bytes per id, and any upstream integer id fits. */
export type IdList = Float64Array;

export interface IdLists {
  /** The ordered ids of one filter combination, computed once per data version. */
  get(key: string, query: () => Promise<number[] | IdList>): Promise<IdList>;
}

/**
 * Id lists per data version, bounded by bytes rather than by entry count: a list can hold
 * hundreds of thousands of ids, and a caller varying a filter (a threshold of 50.001, 50.002,
 * …) must not be able to fill memory with them (the read cache bounds entries, not bytes).
 * Concurrent misses for one key share one query; an import drops every list.
 */
export function createIdLists(changes: ChangeFeed, budgetBytes: number): IdLists {
  const lists = new Map<string, IdList>();
  const inFlight = new Map<string, Promise<IdList>>();
  let bytes = 0;
  changes.onChange('data', () => {
    lists.clear();
    inFlight.clear();
    bytes = 0;
  });

  const store = (key: string, list: IdList) => {
    if (list.byteLength > budgetBytes) return;
    lists.set(key, list);
    bytes += list.byteLength;
    // Map iteration order is insertion order: the first entries are the least recently used.
    for (const [oldKey, old] of lists) {
      if (bytes <= budgetBytes) break;
      lists.delete(oldKey);
      bytes -= old.byteLength;
    }
  };

  return {
    async get(key, query) {
      const versioned = `${changes.version('data')}|${key}`;
      const hit = lists.get(versioned);
      if (hit) {
        lists.delete(versioned);
        lists.set(versioned, hit);
        return hit;
      }
      const pending = inFlight.get(versioned);
      if (pending) return pending;
      const promise = (async () => {
        try {
          const ids = await query();
          const list = ids instanceof Float64Array ? ids : Float64Array.from(ids);
          // Kept only if no import landed meanwhile (the key would name an old version).
          if (versioned === `${changes.version('data')}|${key}`) store(versioned, list);
          return list;
        } finally {
          inFlight.delete(versioned);
        }
      })();
      inFlight.set(versioned, promise);
      return promise;
    },
  };
}

export interface ItemStore<T> {
  /** Items of `ids`, in that order; ids unknown to the loader are left out. */
  get(ids: readonly number[]): Promise<T[]>;
}

/**
 * Rendered items by id, kept for the current data version (the read cache drops the whole
 * store on import). Bounded, so that paging through everything does not hold every item.
 */
export function itemStore<T>(
  cache: ReadCache,
  name: string,
  load: (ids: number[]) => Promise<Map<number, T>>,
  capacity = 20_000,
): ItemStore<T> {
  const storeKey = `items:${name}`;
  return {
    async get(ids) {
      const store = cache.peek<LruCache<number, T>>(storeKey) ?? (await cache.get(storeKey, () => new LruCache<number, T>(capacity)));
      const found = new Map<number, T>();
      const missing: number[] = [];
      for (const id of ids) {
        const item = store.get(id);
        if (item === undefined) missing.push(id);
        else found.set(id, item);
      }
      if (missing.length > 0) {
        for (const [id, item] of await load(missing)) {
          store.set(id, item);
          found.set(id, item);
        }
      }
      const items: T[] = [];
      for (const id of ids) {
        const item = found.get(id);
        if (item !== undefined) items.push(item);
      }
      return items;
    },
  };
}

/** One page cut from an id list; a page past the end is empty with the right total. */
export async function pageOfIds<T>(ids: IdList, paging: Paging, items: ItemStore<T>): Promise<Page<T>> {
  const start = Math.min(offsetOf(paging), ids.length);
  const slice = Array.from(ids.subarray(start, start + paging.page_size));
  return pageOf(await items.get(slice), ids.length, paging);
}
