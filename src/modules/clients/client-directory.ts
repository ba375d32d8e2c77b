import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { LruCache } from '../../platform/cache/lru.js';
import type { ClientAccount, ClientsRepository } from './clients.repository.js';

/**
 * Read-through cache of client accounts, by id (Bearer calls) and by API key digest
 * (X-API-Key calls), so that authenticating a call costs no database round trip.
 * Any change to any client drops the whole cache: on this node at once, on other nodes at
 * their next change-feed poll. A disabled client or a new auth_method therefore takes effect
 * on the next request instead of after a TTL.
 */
export interface ClientDirectory {
  byId(id: string): Promise<ClientAccount | undefined>;
  byApiKeyDigest(apiKeyDigest: string): Promise<ClientAccount | undefined>;
  invalidate(): void;
}

const CAPACITY = 50_000;

export function createClientDirectory(repository: ClientsRepository, changes: ChangeFeed): ClientDirectory {
  // `null` remembers "no such client", so that unknown keys do not each cost a query.
  const byId = new LruCache<string, ClientAccount | null>(CAPACITY);
  const byDigest = new LruCache<string, ClientAccount | null>(CAPACITY);
  let generation = 0;

  const invalidate = () => {
    generation += 1;
    byId.clear();
    byDigest.clear();
  };
  changes.onChange('clients', invalidate);

  async function readThrough(
    cache: LruCache<string, ClientAccount | null>,
    key: string,
    load: (key: string) => Promise<ClientAccount | undefined>,
  ): Promise<ClientAccount | undefined> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const seen = generation;
    const account = await load(key);
    // A change that landed while we were loading may have made this row stale: don't keep it.
    if (seen === generation) cache.set(key, account ?? null);
    return account;
  }

  return {
    byId: (id) => readThrough(byId, id, (key) => repository.findById(key)),
    byApiKeyDigest: (digest) => readThrough(byDigest, digest, (key) => repository.findByApiKeyDigest(key)),
    invalidate,
  };
}
