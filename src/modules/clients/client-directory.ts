import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { approximateSize } from '../../platform/cache/size.js';
import { type CacheUsage, createVersionedCache, type VersionedCache } from '../../platform/cache/versioned-cache.js';
import type { Schema } from '../../platform/db/schema.js';
import type { AccountLookup, ClientAccount } from '../auth/index.js';
import { createClientsRepository } from './clients.repository.js';

/**
 * Read-through cache of client accounts, by id (Bearer calls) and by API key digest
 * (X-API-Key calls), so that authenticating a call costs no database round trip. It follows
 * the 'clients' counter like the read caches follow 'data': any change to any client drops it
 * (on this node at once, elsewhere at the next change-feed poll), so a disabled client or a
 * new auth_method takes effect on the next request instead of after a TTL.
 */
export interface ClientDirectory extends AccountLookup {
  /** Both indexes together: what `read_cache_requests_total{namespace="clients"}` counts. */
  usage(): CacheUsage;
}

/** Per index: tens of thousands of accounts (an account is well under 1 KB). */
const BUDGET_BYTES = 32 * 1024 * 1024;

export function createClientDirectory(deps: { db: Kysely<Schema>; changes: ChangeFeed }): ClientDirectory {
  const repository = createClientsRepository(deps.db);
  // `null` remembers "no such client", so that unknown keys do not each cost a query.
  const index = () => createVersionedCache<ClientAccount | null>({ changes: deps.changes, follows: 'clients', budgetBytes: BUDGET_BYTES, sizeOf: approximateSize });
  const byId = index();
  const byDigest = index();
  return {
    byId: lookup(byId, (id) => repository.findById(id)),
    byApiKeyDigest: lookup(byDigest, (digest) => repository.findByApiKeyDigest(digest)),
    usage: () => sumOf(byId.usage(), byDigest.usage()),
  };
}

function lookup(cache: VersionedCache<ClientAccount | null>, load: (key: string) => Promise<ClientAccount | undefined>) {
  return async (key: string): Promise<ClientAccount | undefined> => {
    const hit = cache.peek(key);
    const account = hit !== undefined ? hit : await cache.get(key, async () => (await load(key)) ?? null);
    return account ?? undefined;
  };
}

function sumOf(a: CacheUsage, b: CacheUsage): CacheUsage {
  return {
    entries: a.entries + b.entries,
    bytes: a.bytes + b.bytes,
    budgetBytes: a.budgetBytes + b.budgetBytes,
    hits: a.hits + b.hits,
    misses: a.misses + b.misses,
  };
}
