import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { approximateSize } from '../../platform/cache/size.js';
import { type CacheUsage, createVersionedCache, type VersionedCache } from '../../platform/cache/versioned-cache.js';
import type { Schema } from '../../platform/db/schema.js';
import type { MaybePromise } from '../../platform/maybe-promise.js';
import type { AccountLookup, ClientAccount, CredentialHolder } from '../auth/index.js';
import { createClientsRepository } from './clients.repository.js';

/**
 * Read-through cache of client accounts, by id (Bearer calls) and by credential digest
 * (X-API-Key calls, OAuth logins), so that authenticating a call costs no database round trip.
 * An account carries its credentials, so an access token's `cred` claim is checked against the
 * current set from the same entry. It follows the 'clients' counter like the read caches follow
 * 'data': any change to any client or credential drops it (on this node at once, elsewhere at the
 * next change-feed poll), so a disabled client, a deleted key or a reset takes effect on the next
 * request instead of after a TTL.
 */
export interface ClientDirectory extends AccountLookup {
  /** Both indexes together: what `read_cache_requests_total{namespace="clients"}` counts. */
  usage(): CacheUsage;
}

/** Per index: tens of thousands of accounts (an account with its credentials is a few KB at most). */
const BUDGET_BYTES = 32 * 1024 * 1024;

export function createClientDirectory(deps: { db: Kysely<Schema>; changes: ChangeFeed }): ClientDirectory {
  const repository = createClientsRepository(deps.db);
  // `null` remembers "none", so that unknown ids and keys do not each cost a query.
  const cache = <V extends object>() =>
    createVersionedCache<V | null>({ changes: deps.changes, follows: 'clients', budgetBytes: BUDGET_BYTES, sizeOf: approximateSize });
  const accounts = cache<ClientAccount>();
  const holders = cache<CredentialHolder>();
  const byId = lookup(accounts, (id) => repository.findById(id));
  const byCredentialDigest = lookup<CredentialHolder>(holders, async (digest) => {
    const found = await repository.findCredentialByDigest(digest);
    const account = found && (await byId(found.credential.clientId));
    return found && account && { account, credential: found.credential, digest: found.digest };
  });
  return { byId, byCredentialDigest, usage: () => sumOf(accounts.usage(), holders.usage()) };
}

/** A hit is answered at once; a miss loads (once, for concurrent callers) and caches. */
function lookup<V extends object>(cache: VersionedCache<V | null>, load: (key: string) => Promise<V | undefined>) {
  return (key: string): MaybePromise<V | undefined> => {
    const hit = cache.peek(key);
    if (hit !== undefined) return hit ?? undefined;
    return cache.get(key, async () => (await load(key)) ?? null).then((value) => value ?? undefined);
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
