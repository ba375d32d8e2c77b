import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { lockedTransaction } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';

/**
 * Runs a change to client accounts the way every such change must run: in a locked transaction
 * (so that a login checking the same rows waits for it, or it for the login), bumping the
 * 'clients' counter inside it, and dropping this node's caches after commit, before the change
 * answers. Other nodes follow at their next poll of the counter.
 */
export async function changeAccounts<T>(deps: { db: Kysely<Schema>; changes: ChangeFeed }, work: (trx: Kysely<Schema>) => Promise<T>): Promise<T> {
  const result = await lockedTransaction(deps.db, async (trx) => {
    const value = await work(trx);
    await deps.changes.bump(trx, 'clients');
    return value;
  });
  await deps.changes.changed('clients');
  return result;
}
