import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { MIGRATIONS, migrateTo } from '../../src/platform/db/migrations.js';
import { sportsdata } from '../cli/cli-helpers.js';
import { DIALECTS, freshDatabaseUrl, TEST_JWT_SECRET } from '../helpers/app.js';
import { nodeEnv, startNode } from '../helpers/node-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const [NEWEST = '', BEFORE_NEWEST = ''] = Object.keys(MIGRATIONS).reverse();

/** A database one migration behind: what the previous release left, before an upgrade. */
async function databaseBehind(dialect: 'sqlite' | 'postgres', dataDir: string): Promise<string> {
  let url = `sqlite:${join(dataDir, 'sportsdata.db')}`;
  if (dialect === 'postgres') {
    const fresh = await freshDatabaseUrl('postgres');
    cleanups.push(fresh.drop);
    url = fresh.url;
  }
  const database = openDatabase(url);
  try {
    await migrateTo(database.db, BEFORE_NEWEST);
  } finally {
    await database.close();
  }
  return url;
}

/**
 * After an upgrade the log once did not say which migrations ran. A serving process logs
 * them before it serves, and the schema it left; a start with nothing to do says the schema is
 * current; a command of the CLI that migrates says so on stderr (its stdout is its answer).
 */
describe.each(DIALECTS)('which migrations ran, in the log (%s)', (dialect) => {
  it('a start that migrates names the migrations and the schema; the next start says it is up to date', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-migration-log-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = nodeEnv(dataDir, { DATABASE_URL: await databaseBehind(dialect, dataDir) });

    const upgraded = await startNode({ env });
    cleanups.push(async () => void (await upgraded.stop()));
    await upgraded.waitForLog((line) => line.msg === 'serving', 60_000);
    const messages = upgraded.logs().map((line) => line.msg);
    expect(upgraded.logs().find((line) => line.msg === 'migrated the database')).toMatchObject({ applied: [NEWEST], schema: NEWEST });
    expect(messages.indexOf('migrated the database')).toBeLessThan(messages.indexOf('serving'));
    await upgraded.stop();

    const again = await startNode({ env });
    cleanups.push(async () => void (await again.stop()));
    await again.waitForLog((line) => line.msg === 'serving', 60_000);
    expect(again.logs().find((line) => line.msg === 'the database schema is up to date')).toMatchObject({ schema: NEWEST });
    expect(again.logs().map((line) => line.msg)).not.toContain('migrated the database');
  }, 120_000);

  it('a CLI command that migrates says which migrations it applied on stderr', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-migration-log-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: await databaseBehind(dialect, dataDir), DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET };
    const first = await sportsdata(env, 'clients', 'list', '--json');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe(`migrated the database: ${NEWEST}\n`);
    expect(JSON.parse(first.stdout)).toMatchObject({ results: [], total_count: 0 });
    const second = await sportsdata(env, 'clients', 'list', '--json');
    expect(second.stderr).toBe('');
  });
});
