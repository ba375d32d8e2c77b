import { type Kysely, type RawBuilder, SqliteAdapter, sql, type Transaction } from 'kysely';
import type { ChangeVersionName, Schema } from './schema.js';

/** A version counter as read, with how long ago it last moved on the database's clock (null until it has). */
export interface ChangeVersionRow {
  readonly name: ChangeVersionName;
  readonly version: number;
  readonly ageMs: number | null;
}

/**
 * The version counters of the change feed (platform/cache/change-feed.ts). Both the bump and the
 * read take their time from the database's clock, so that a lag is measured on one clock and no
 * two machines' clocks are compared.
 */
export interface ChangeVersionsRepository {
  /** Every counter, with the milliseconds since it last moved. */
  read(): Promise<ChangeVersionRow[]>;
  /** Bumps a counter inside `trx` (the change's own transaction), stamping when it moved. */
  bump(trx: Kysely<Schema> | Transaction<Schema>, name: ChangeVersionName): Promise<void>;
}

export function createChangeVersionsRepository(db: Kysely<Schema>): ChangeVersionsRepository {
  const databaseNow = databaseNowMs(db);
  return {
    async read() {
      const rows = await db
        .selectFrom('change_versions')
        .select(['name', 'version', sql<number | null>`${databaseNow} - changed_at`.as('age_ms')])
        .execute();
      return rows.map((row) => ({ name: row.name as ChangeVersionName, version: Number(row.version), ageMs: row.age_ms === null ? null : Number(row.age_ms) }));
    },

    async bump(trx, name) {
      await trx
        .updateTable('change_versions')
        .set({ version: sql<number>`version + 1`, changed_at: databaseNow })
        .where('name', '=', name)
        .execute();
    },
  };
}

/** The database's clock in epoch milliseconds, read when the statement runs. */
function databaseNowMs(db: Kysely<Schema>): RawBuilder<number> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sql<number>`cast(round((julianday('now') - 2440587.5) * 86400000.0) as integer)`
    : sql<number>`cast(extract(epoch from clock_timestamp()) * 1000 as bigint)`;
}
