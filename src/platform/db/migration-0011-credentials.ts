import { randomUUID } from 'node:crypto';
import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Several live credentials per client (decision 0100). Until now each client had one API key and one
 * client secret, as digests on its row. They move into `client_credentials`, one row each, named
 * `onboarding` and shown with their prefix only (the plaintext was never stored, so their last
 * characters are unknown); existing refresh tokens are bound to the credential of their flow, so
 * that every session and every credential of every client goes on working. The two columns then
 * leave the client row, which gains the credential generation and `deleted_at`.
 */
export const credentialsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // PostgreSQL: the migrator runs each migration in a transaction.
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await moveCredentials(db);
      for (const column of DIGEST_COLUMNS) await db.schema.alterTable('clients').dropColumn(column).execute();
      return;
    }
    // SQLite: the caller holds the transaction, with foreign keys off around it (migrations.ts),
    // as SQLite's way of rebuilding a table asks; the keys are checked before it commits.
    await moveCredentials(db);
    await rebuildClientsWithoutDigests(db);
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error('migration 0011: the rebuilt clients table breaks a foreign key');
  },
};

const DIGEST_COLUMNS = ['api_key_digest', 'client_secret_digest'];

async function moveCredentials(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_credentials')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('preview', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('client_credentials_client_idx').on('client_credentials').columns(['client_id', 'kind']).execute();

  const clients = await sql<{ id: string; api_key_digest: string; client_secret_digest: string; created_at: number | string }>`
    select id, api_key_digest, client_secret_digest, created_at from clients`.execute(db);
  for (const client of clients.rows) {
    const createdAt = Number(client.created_at);
    for (const [kind, digest, preview] of [
      ['api_key', client.api_key_digest, 'sdk_…'],
      ['client_secret', client.client_secret_digest, 'sds_…'],
    ] as const) {
      await sql`insert into client_credentials (code, client_id, kind, digest, name, preview, created_at)
        values (${randomUUID()}, ${client.id}, ${kind}, ${digest}, 'onboarding', ${preview}, ${createdAt})`.execute(db);
    }
  }

  await db.schema.alterTable('clients').addColumn('credential_generation', 'bigint', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('clients').addColumn('deleted_at', 'bigint').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('credential_code', 'text').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('generation', 'bigint', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('refresh_tokens').addColumn('revoked_reason', 'text').execute();
  await sql`update refresh_tokens set credential_code = (
      select code from client_credentials c
      where c.client_id = refresh_tokens.client_id
        and c.kind = case refresh_tokens.flow when 'api_key' then 'api_key' else 'client_secret' end)`.execute(db);
  await db.schema.createIndex('refresh_tokens_credential_idx').on('refresh_tokens').column('credential_code').execute();
}

/**
 * SQLite cannot drop a UNIQUE column (api_key_digest), so the table is rebuilt the way SQLite
 * documents it (new table, copy, drop, rename; foreign keys off around it), keeping every other
 * column and index as it is: migrations of other features may have added columns to clients.
 */
async function rebuildClientsWithoutDigests(db: Kysely<unknown>): Promise<void> {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'clients'`.execute(db);
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'clients' and sql is not null`.execute(db);
  const columns = await sql<{ name: string }>`select name from pragma_table_info('clients')`.execute(db);
  const kept = columns.rows.map((c) => c.name).filter((name) => !DIGEST_COLUMNS.includes(name));
  let create = table.rows[0]?.sql ?? '';
  for (const column of DIGEST_COLUMNS) {
    const definition = new RegExp(`,\\s*"${column}"[^,)]*`);
    if (!definition.test(create)) throw new Error(`migration 0011: cannot find the ${column} column of clients`);
    create = create.replace(definition, '');
  }
  create = create.replace(/^create table "clients"/i, 'create table "clients_rebuilt"');
  const list = sql.join(kept.map((name) => sql.ref(name)));
  await sql.raw(create).execute(db);
  await sql`insert into clients_rebuilt (${list}) select ${list} from clients`.execute(db);
  await sql`drop table clients`.execute(db);
  await sql`alter table clients_rebuilt rename to clients`.execute(db);
  for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
}
