import type { Schema } from './schema.js';
import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { credentialsMigration } from './migration-0011-credentials.js';

/**
 * One set of migrations for both dialects, written with Kysely's schema builder and portable
 * column types only (text, integer, bigint, double precision).
 */
const migrations: Record<string, Migration> = {
  '0001_clients_and_tokens': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tenants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tier', 'text', (c) => c.notNull())
        .addColumn('auth_method', 'text', (c) => c.notNull())
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('api_key_digest', 'text', (c) => c.notNull().unique())
        .addColumn('client_secret_digest', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('clients_tenant_idx').on('clients').column('tenant_id').execute();
      await db.schema
        .createTable('refresh_tokens')
        .addColumn('digest', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('flow', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
      await db.schema.createIndex('refresh_tokens_client_idx').on('refresh_tokens').column('client_id').execute();
      await db.schema
        .createTable('change_versions')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into change_versions (name, version) values ('clients', 0), ('data', 0)`.execute(db);
    },
  },
  '0002_sports_data': {
    async up(db: Kysely<unknown>) {
      // SQLite only makes an INTEGER PRIMARY KEY the fast rowid key; PostgreSQL wants bigint.
      const id = db.getExecutor().adapter instanceof SqliteAdapter ? 'integer' : 'bigint';
      // Data tables carry no foreign keys: the import validates every reference of a dataset
      // before writing, and upserts by the upstream's ids (docs/decisions/0006-import.md).
      for (const table of ['sports', 'operators']) {
        await db.schema
          .createTable(table)
          .addColumn('id', id, (c) => c.primaryKey())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${table}_key_idx`).on(table).column('key').execute();
      }
      await db.schema
        .createTable('leagues')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sport_id', 'bigint', (c) => c.notNull())
        .addColumn('country_key', 'text')
        .addColumn('country_name', 'text')
        .execute();
      await db.schema.createIndex('leagues_key_idx').on('leagues').column('key').execute();
      await db.schema.createIndex('leagues_sport_idx').on('leagues').columns(['sport_id', 'id']).execute();
      await db.schema
        .createTable('teams')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('abbreviation', 'text')
        .addColumn('location', 'text')
        .addColumn('league_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('teams_key_idx').on('teams').column('key').execute();
      await db.schema.createIndex('teams_league_idx').on('teams').columns(['league_id', 'id']).execute();
      await db.schema
        .createTable('players')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'text')
        .addColumn('team_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('players_key_idx').on('players').column('key').execute();
      await db.schema.createIndex('players_team_idx').on('players').columns(['team_id', 'id']).execute();
      await db.schema
        .createTable('betting_markets')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('sport_id', 'bigint')
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('league_id', 'bigint', (c) => c.notNull())
        .addColumn('sport_id', 'bigint', (c) => c.notNull())
        .addColumn('start_time', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('home_team_id', 'bigint', (c) => c.notNull())
        .addColumn('away_team_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_start_idx').on('events').columns(['start_time', 'id']).execute();
      await db.schema.createIndex('events_league_idx').on('events').columns(['league_id', 'start_time']).execute();
      await db.schema
        .createTable('odds')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('operator_id', 'bigint', (c) => c.notNull())
        .addColumn('betting_market_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('line', 'double precision')
        .addColumn('price_decimal', 'double precision', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('odds_event_idx').on('odds').columns(['event_id', 'id']).execute();
      await db.schema
        .createTable('flows')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('flow_type', 'text', (c) => c.notNull())
        .addColumn('bet_type', 'text', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('sport_id', 'bigint', (c) => c.notNull())
        .addColumn('league_id', 'bigint', (c) => c.notNull())
        .addColumn('focus_entity_type', 'text', (c) => c.notNull())
        .addColumn('focus_entity_id', 'bigint')
        .addColumn('betting_market_id', 'bigint')
        .addColumn('line', 'double precision')
        .addColumn('split', 'text')
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('hit_rate_pct', 'double precision', (c) => c.notNull())
        .addColumn('likelihood', 'text', (c) => c.notNull())
        .addColumn('price_decimal', 'double precision')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('flows_event_idx').on('flows').columns(['event_id', 'id']).execute();
      await db.schema.createIndex('flows_type_idx').on('flows').columns(['flow_type', 'id']).execute();
      await db.schema.createIndex('flows_league_idx').on('flows').columns(['league_id', 'id']).execute();
      await db.schema
        .createTable('flow_legs')
        .addColumn('flow_id', 'bigint', (c) => c.notNull())
        .addColumn('leg_id', 'bigint', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('flow_legs_pk', ['flow_id', 'position'])
        .execute();
    },
  },
  '0011_credentials': credentialsMigration,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to `name` (tests of a migration: the data it finds, then what it makes of it). */
export async function migrateTo(db: Kysely<Schema>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Brings the schema up to date; safe to run on every start and from several nodes in turn. */
export async function migrateToLatest(db: Kysely<Schema>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
