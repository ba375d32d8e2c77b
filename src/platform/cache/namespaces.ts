const MiB = 1024 * 1024;

/**
 * The read cache's namespaces: one per kind of cached thing, each bounded by its own byte
 * budget, so that a flood of one kind (every page number of a long list, every threshold of a
 * filter) evicts only its own kind, never the key indexes that every request needs. Sizes
 * are estimates (byte lengths for pages and id lists, a heap estimate for objects).
 */
export const READ_CACHE_BUDGETS = {
  /** Values built from whole tables once per data version: key indexes, the reference tables. */
  snapshots: 64 * MiB,
  /** Each filter combination's ordered ids, 8 bytes an id: every flow at --scale 10 is 1.6 MB. */
  idLists: 176 * MiB,
  /** Rendered list items, by list and id (about 2 KB a flow with its legs). */
  items: 128 * MiB,
  /** Whole pages as the JSON bytes sent (a page of 25 flows is about 15 KB). */
  pages: 64 * MiB,
} as const;

export type ReadCacheNamespace = keyof typeof READ_CACHE_BUDGETS;
export type ReadCacheBudgets = Record<ReadCacheNamespace, number>;
