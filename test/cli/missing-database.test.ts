import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_JWT_SECRET } from '../helpers/app.js';
import { linesOf, runProcess } from '../helpers/process.js';
import { sportsdata } from './cli-helpers.js';

/**
 * The CLI refuses a database that does not exist instead of creating an empty one where
 * it happens to run; `migrate --create` creates it (docs/decisions/0082).
 */
describe('the CLI and a database that does not exist', () => {
  let dir: string;
  const created: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-nodb-'));
  });
  afterAll(async () => {
    for (const name of created) await adminQuery(`drop database if exists ${name} with (force)`);
    rmSync(dir, { recursive: true, force: true });
  });

  const postgresUrl = (database: string) => {
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${database}`;
    return url.toString();
  };

  const COMMANDS = [
    ['clients', 'list'],
    ['clients', 'create', '--name', 'Acme', '--tier', 'pro', '--auth-method', 'both'],
    ['demo-data', '--scale', '0.01'],
    ['tokens', 'purge'],
    ['migrate'],
  ];

  it('SQLite: every command refuses a missing file in one line, and creates neither the file nor its directory', async () => {
    const url = `sqlite:${join(dir, 'nowhere', 'sportsdata.db')}`;
    for (const args of COMMANDS) {
      const result = await sportsdata({ DATABASE_URL: url, DATA_DIR: join(dir, 'nowhere'), JWT_SECRET: TEST_JWT_SECRET }, ...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(linesOf(result.stderr), args.join(' ')).toEqual([
        `error: no SQLite database at ${join(dir, 'nowhere', 'sportsdata.db')} (DATABASE_URL=${url}): run the command where the database is, ` +
          'set DATABASE_URL, or create it with `npx sportsdata migrate --create`',
      ]);
    }
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('SQLite: migrate --create makes the file (and its directory); then the other commands work on it', async () => {
    const url = `sqlite:${join(dir, 'made', 'here.db')}`;
    const env = { DATABASE_URL: url, JWT_SECRET: TEST_JWT_SECRET };
    const migrated = await sportsdata(env, 'migrate', '--create', '--json');
    expect(migrated.code, migrated.stderr).toBe(0);
    expect((JSON.parse(migrated.stdout) as { applied: string[] }).applied.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'made', 'here.db'))).toBe(true);
    const listed = await sportsdata(env, 'clients', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ results: [], total_count: 0 });
  });

  it('PostgreSQL: commands refuse a missing database in one line; migrate --create creates it', async () => {
    const name = `cli_${randomBytes(4).toString('hex')}`;
    const env = { DATABASE_URL: postgresUrl(name), DATA_DIR: dir, JWT_SECRET: TEST_JWT_SECRET };
    for (const args of COMMANDS) {
      const result = await sportsdata(env, ...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(linesOf(result.stderr), args.join(' ')).toEqual([
        expect.stringMatching(new RegExp(`^error: the PostgreSQL database "${name}" does not exist on [^ ]+:\\d+: create it first`)),
      ]);
      expect(result.stderr).not.toContain('postgres:postgres@');
    }
    created.push(name);
    const migrated = await sportsdata(env, 'migrate', '--create');
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/^Applied \d+ migration\(s\)/);
    const again = await sportsdata(env, 'migrate', '--create');
    expect(again.stdout).toBe('The database is up to date.\n');
    expect((await sportsdata(env, 'clients', 'list')).code).toBe(0);
  });

  it('the real CLI, run with the default DATABASE_URL in a directory without a database, leaves that directory empty', async () => {
    const elsewhere = mkdtempSync(join(dir, 'elsewhere-'));
    const result = await runProcess('cli', ['clients', 'list'], { env: {}, cwd: elsewhere });
    expect(result.code).toBe(1);
    expect(linesOf(result.stderr)).toEqual([expect.stringMatching(/^error: no SQLite database at .*data\/sportsdata\.db \(DATABASE_URL=sqlite:\.\/data\/sportsdata\.db\)/)]);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
