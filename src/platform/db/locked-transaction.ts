import { type Kysely, type SelectQueryBuilder, SqliteAdapter, sql } from 'kysely';
import type { Schema } from './schema.js';

/**
 * A transaction for a check that must still hold when its write commits (a login's credential,
 * a key cap), serialized with every transaction that changes what it checks.
 *
 * - PostgreSQL (READ COMMITTED): the row locks that `locked` adds. A `share` lock waits for an
 *   `update` lock held by a change and reads the row as that change committed it; a change's
 *   `update` lock waits for every `share` holder, so its next statement sees their writes.
 * - SQLite has no row locks: every transaction begins IMMEDIATE (sqlite-dialect.ts), taking the
 *   database's one write lock at the start, so such transactions run one after another, also
 *   across processes (waiting without blocking the event loop).
 */
export function lockedTransaction<T>(db: Kysely<Schema>, work: (trx: Kysely<Schema>) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}

export type LockMode = 'share' | 'update';

/** The query with `FOR SHARE` / `FOR UPDATE` on PostgreSQL; SQLite's write lock is already held. */
export function locked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, mode: LockMode, db: Kysely<Schema>): SelectQueryBuilder<DB, TB, O> {
  if (isSqlite(db)) return query;
  return mode === 'share' ? query.forShare() : query.forUpdate();
}

export function isSqlite(db: Kysely<Schema>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The advisory-lock id of writes to the sports data (any constant unique within this database). */
const DATA_WRITE_LOCK_ID = 7_301_001;

/**
 * Writes to the sports data (an import, a grading) run one at a time: two that touch overlapping
 * rows in different orders would deadlock on PostgreSQL, and a grading must read the results as
 * the import that changed them committed them. A transaction-scoped advisory lock queues them,
 * across nodes too; SQLite's single writer already does.
 */
export async function lockDataWrites(trx: Kysely<Schema>): Promise<void> {
  if (!isSqlite(trx)) await sql`select pg_advisory_xact_lock(${DATA_WRITE_LOCK_ID})`.execute(trx);
}
