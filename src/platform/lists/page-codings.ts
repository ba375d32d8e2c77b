import { ByteLru } from '../cache/byte-lru.js';
import type { RenderedPage } from '../cache/read-cache.js';
import { type Coding, compressBytes } from '../http/compression.js';

const MiB = 1024 * 1024;

/**
 * Compressed pages, about a fifth of the pages namespace (64 MiB of JSON): JSON pages compress
 * 5–10×, so this keeps the compressed form of more pages than that namespace keeps plain.
 */
export const PAGE_CODINGS_BUDGET_BYTES = 32 * MiB;

export interface PageCodings {
  /** The page's bytes in `coding`: compressed once, then a map lookup. */
  encoded(page: RenderedPage, coding: Coding): Buffer | Promise<Buffer>;
}

/**
 * A rendered page is sent many times and never changes: compressing it for every request would
 * cost a repeated page most of its speed (decision 0074's figures). Each page is compressed once
 * per coding, off the event loop (zlib's thread pool), and kept by its ETag — a digest of the
 * bytes, so an entry can never go stale and needs no invalidation. Concurrent first requests
 * share one compression. Bounded by bytes; least recently used goes first.
 */
export function createPageCodings(budgetBytes = PAGE_CODINGS_BUDGET_BYTES): PageCodings {
  const cache = new ByteLru<Buffer>(budgetBytes, (bytes) => bytes.length);
  const pending = new Map<string, Promise<Buffer>>();
  return {
    encoded(page, coding) {
      const key = `${coding} ${page.etag}`;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      let compressing = pending.get(key);
      if (compressing === undefined) {
        compressing = compressBytes(coding, page.body)
          .then((bytes) => {
            cache.set(key, bytes);
            return bytes;
          })
          .finally(() => pending.delete(key));
        pending.set(key, compressing);
      }
      return compressing;
    },
  };
}
