import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { type DialectName, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrations.js';
import { TEST_JWT_SECRET } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

/**
 * A database the CLI (its own connection, as a separate process would have) and the test share,
 * with a context over it for assertions. PostgreSQL: the test app's fresh database. SQLite: a
 * file, since `sqlite::memory:` is private to one connection.
 */
export interface CliDatabase {
  env: Record<string, string>;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function cliDatabase(dialect: DialectName): Promise<CliDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-cli-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'postgres') {
    const t = await harness({ dialect });
    return {
      env: { DATABASE_URL: t.config.databaseUrl, DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET },
      ctx: t.ctx,
      close: async () => {
        await t.close();
        removeDir();
      },
    };
  }
  const env = { DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}`, DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET };
  const database = openDatabase(env.DATABASE_URL);
  await migrateToLatest(database.db);
  return {
    env,
    ctx: createContext({ config: loadConfig(env), database }),
    close: async () => {
      await database.close();
      removeDir();
    },
  };
}

/** What another node sees of an X-API-Key after the CLI changed the database: the context learns it on its next poll. */
/**
 * A CLI suite's database, made before its tests and closed after them, with the CLI (`run`) and
 * an API-key check on it: `const { db, run, authenticate } = cliSuite(dialect)` inside a describe.
 */
export function cliSuite(dialect: DialectName) {
  const db = forSuite(() => cliDatabase(dialect));
  return {
    db,
    run: (...args: string[]) => sportsdata(db.env, ...args),
    authenticate: (apiKey: string) => authenticateApiKey(db, apiKey),
  };
}

export async function authenticateApiKey(db: CliDatabase, apiKey: string) {
  await db.ctx.changes.poll();
  return db.ctx.authenticator.authenticate({ 'x-api-key': apiKey });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sportsdata ...args` in-process with this environment, capturing its output. */
export async function sportsdata(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}
