import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A new, empty PostgreSQL database on the server `serverUrl` names; `drop` removes it. */
export async function throwawayPostgres(serverUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => dropWhenTheServerCan(serverUrl, name),
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
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
