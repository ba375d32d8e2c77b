import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrations.js';

/** A new, empty PostgreSQL database on the server `serverUrl` names (or a copy of `template`); `drop` removes it. */
export async function throwawayPostgres(serverUrl: string, prefix: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, template === undefined ? `create database ${name}` : `create database ${name} template ${template}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => dropWhenTheServerCan(serverUrl, name),
  };
}

/**
 * A database migrated to the latest schema, made once per run by the global setup, that every
 * test app's PostgreSQL database is copied from (`create database … template …`): a copy takes a
 * fraction of the time the migrations take, and the schema is the one they make. Nothing connects
 * to it after it is made (a template with a connection cannot be copied).
 */
export async function migratedTemplate(serverUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const template = await throwawayPostgres(serverUrl, 'migrated');
  const database = openDatabase(template.url);
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  return { name: new URL(template.url).pathname.slice(1), drop: template.drop };
}

/** Drops every database of the server whose name starts with `prefix` (a run's demo databases). */
export async function dropDatabasesStartingWith(serverUrl: string, prefix: string): Promise<void> {
  const { rows } = await adminQuery<{ datname: string }>(serverUrl, 'select datname from pg_database where starts_with(datname, $1)', [prefix]);
  for (const { datname } of rows) await dropWhenTheServerCan(serverUrl, datname);
}

async function adminQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(serverUrl: string, statement: string, values: unknown[] = []): Promise<pg.QueryResult<Row>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query<Row>(statement, values);
  } finally {
    await client.end();
  }
}

/**
 * A drop asks the server for a checkpoint, which fails for every database of the server while any
 * one of them holds pages it cannot write: the full-disk test fills a tablespace on purpose, and a
 * drop of another test's database at that moment failed with "checkpoint request failed". The drop
 * is tried again until that test frees its disk (it does within seconds), at most a minute.
 */
async function dropWhenTheServerCan(serverUrl: string, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      if (!/checkpoint request failed/.test(String(error)) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
