import type { ChangeFeed } from './change-feed.js';
import { READ_CACHE_BUDGETS, type ReadCacheBudgets, type ReadCacheNamespace } from './namespaces.js';
import { approximateSize } from './size.js';
import { type CacheUsage, createVersionedCache, type VersionedCache } from './versioned-cache.js';

/**
 * Computed reads of the sports data, which changes only through import: every namespace
 * follows the 'data' counter (an import drops them all) and has its own byte budget
 * (namespaces.ts). Features do not use it directly for lists: the paged-list building block
 * (platform/lists) does; a feature asks at most for a snapshot.
 */
/** A page as sent: its JSON bytes, and the entity tag of those bytes (RFC 9110 §8.8.3). */
export interface RenderedPage {
  readonly body: Buffer;
  readonly etag: string;
  /** A page number past the last page: its (empty) page is not worth keeping. */
  readonly pastEnd: boolean;
}

export interface ReadCache {
  /** Whole rendered pages, as the bytes sent. */
  readonly pages: VersionedCache<RenderedPage>;
  /** Ordered id lists of filter combinations. */
  readonly idLists: VersionedCache<Float64Array>;
  /** A part of the items namespace of its own, for the items of one list. */
  items<T>(label: string): VersionedCache<T>;
  /**
   * A value built from whole tables once per data version (a key index, a small table): the
   * getter builds it on first use and after every import; concurrent first uses share one build.
   */
  snapshot<T>(label: string, build: () => Promise<T>): () => Promise<T>;
  usage(): Record<ReadCacheNamespace, CacheUsage>;
}

export function createReadCache(changes: ChangeFeed, budgets: ReadCacheBudgets = READ_CACHE_BUDGETS): ReadCache {
  const namespace = <V>(name: ReadCacheNamespace, sizeOf: (value: V) => number) =>
    createVersionedCache<V>({ changes, follows: 'data', budgetBytes: budgets[name], sizeOf });
  const pages = namespace<RenderedPage>('pages', (page) => page.body.byteLength + page.etag.length);
  const idLists = namespace<Float64Array>('idLists', (ids) => ids.byteLength);
  const items = namespace<unknown>('items', approximateSize);
  const snapshots = namespace<unknown>('snapshots', approximateSize);
  let parts = 0;
  const partOf = <T>(shared: VersionedCache<unknown>, label: string) => part<T>(shared, `${label}#${++parts}|`);

  return {
    pages,
    idLists,
    items: (label) => partOf(items, label),
    snapshot<T>(label: string, build: () => Promise<T>) {
      const own = partOf<T>(snapshots, label);
      return () => {
        const hit = own.peek('');
        return hit === undefined ? own.get('', build) : Promise.resolve(hit);
      };
    },
    usage: () => ({ snapshots: snapshots.usage(), idLists: idLists.usage(), items: items.usage(), pages: pages.usage() }),
  };
}

/**
 * A part of a namespace with a key prefix no other part has: it shares the namespace's budget
 * and invalidation, and since only this part writes under its prefix, every value under it is
 * a T (hence the casts, the one place a T comes back from `unknown`).
 */
function part<T>(shared: VersionedCache<unknown>, prefix: string): VersionedCache<T> {
  return {
    peek: (key) => shared.peek(prefix + key) as T | undefined,
    get: (key, compute) => shared.get(prefix + key, compute) as Promise<T>,
    async getMany(keys, computeMissing) {
      const found = await shared.getMany(
        keys.map((key) => prefix + key),
        async (missing) => {
          const computed = await computeMissing(missing.map((key) => key.slice(prefix.length)));
          return new Map([...computed].map(([key, value]) => [prefix + key, value]));
        },
      );
      return new Map([...found].map(([key, value]) => [key.slice(prefix.length), value as T]));
    },
    usage: () => shared.usage(),
  };
}
