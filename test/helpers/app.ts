import { Writable } from 'node:stream';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { type Clock, type ManualClock, manualClock } from '../../src/platform/clock.js';
import { type Database, type DialectName, openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrations.js';
import type { App } from '../../src/platform/http/types.js';
import { validateResponses } from './openapi-validator.js';
import { throwawayPostgres } from './throwaway-database.js';

/** Every database-touching suite runs once per dialect: `describe.each(DIALECTS)(…)`. */
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long!!';
export const TEST_ADMIN_TOKEN = 'test-admin-token-that-is-at-least-32-bytes';

export interface TestApp {
  app: App;
  ctx: AppContext;
  config: Config;
  /** The clock the app runs on: setting it moves the app's time. */
  clock: ManualClock;
  database: Database;
  /** Everything the app logged, one JSON object per line. */
  logs(): string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect: DialectName;
  /** Extra environment for loadConfig (JWT_SECRET and ADMIN_TOKEN are set by default). */
  env?: Record<string, string>;
  /** The app's clock (default: a manual clock starting now); the system clock for a test under real load. */
  clock?: Clock;
  /** An existing database to use as it is (not dropped), instead of a fresh one. */
  databaseUrl?: string;
  /**
   * A database made for this app instead of a fresh one (a copy of the run's demo database,
   * test/helpers/demo-database.ts): dropped when the app closes, filled by `fill` once migrated.
   */
  database?: MadeDatabase;
  /** Runs on the fresh database before it is migrated to the latest schema (tests of a migration). */
  beforeMigrating?: (database: Database) => Promise<void>;
  /** Routes a test adds beside the app's own, before it is ready (tests of the route policies). */
  routes?: (app: App) => Promise<void>;
  /** Sees the SQL of every statement the app's database runs (tests of what a request writes). */
  onQuery?: (sql: string) => void;
  /**
   * A context the test made and owns (a CLI suite's, over the database the CLI opens): the app
   * serves it as it is, neither starting its background jobs nor closing its database.
   */
  context?: AppContext;
}

/** A database made for one test app; `drop` removes it. */
export interface MadeDatabase {
  url: string;
  drop: () => Promise<void>;
  /** Runs on the database once it is migrated, before the app is built on it. */
  fill?: (database: Database) => Promise<void>;
}

/** A fresh database (in-memory SQLite, or a new PostgreSQL database), migrated, behind the real app. */
export async function buildTestApp(options: TestAppOptions): Promise<TestApp> {
  if (options.context) {
    const nothing = async () => {};
    return serveContext(options.context, options, { start: nothing, stop: nothing, release: nothing });
  }
  const { url, drop, fill }: MadeDatabase =
    options.database ??
    (options.databaseUrl
      ? { url: options.databaseUrl, drop: async () => {} }
      : options.beforeMigrating
        ? await freshDatabaseUrl(options.dialect)
        : await migratedDatabaseUrl(options.dialect));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: '/nonexistent-test-data-dir',
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    // No test sees the demo's prices move unless it asks to (test/demo/ticker*.test.ts).
    DEMO_TICKER_PER_SECOND: '0',
    // Imports in the serving thread: a thread per test app would load the whole program again. The
    // import thread, the serving default, has tests of its own (test/import/import-thread.test.ts).
    IMPORT_THREAD: 'false',
    ...options.env,
  });
  const database = openDatabase(url, { poolSize: 20, ...(options.onQuery && { onQuery: options.onQuery }) });
  await options.beforeMigrating?.(database);
  await migrateToLatest(database.db);
  try {
    await fill?.(database);
  } catch (error) {
    await database.close();
    await drop();
    throw error;
  }
  const clock = options.clock ?? manualClock(Date.now());
  const ctx = createContext({ config, database, clock });
  return serveContext(ctx, options, {
    // As a serving process does: the context's owner runs its background jobs.
    start: (app) => ctx.background.start(app.log),
    stop: () => ctx.background.stop(),
    async release() {
      await database.close();
      await drop();
    },
  });
}

/** What the owner of a context does around the app: its background jobs, and its database. */
interface ContextOwner {
  start(app: App): Promise<void>;
  stop(): Promise<void>;
  /** Closes the database and drops it when it was made for the test. */
  release(): Promise<void>;
}

async function serveContext(ctx: AppContext, options: TestAppOptions, owner: ContextOwner): Promise<TestApp> {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  let app: App;
  try {
    app = await buildApp(ctx, { logStream });
    if (options.routes) await app.register(options.routes);
  } catch (error) {
    // A start-up that fails leaves nothing behind: the database is dropped.
    await owner.release();
    throw error;
  }
  await owner.start(app);
  await app.ready();
  // Every response a test receives through app.inject is checked against the OpenAPI document.
  validateResponses(app);
  return {
    app,
    ctx,
    config: ctx.config,
    clock: settable(ctx.clock),
    database: ctx.database,
    logs: () => lines.join(''),
    async close() {
      await app.close();
      await owner.stop();
      await owner.release();
    },
  };
}

/** The app's clock as a test sets it: itself when it is a manual clock, else one the test reads but cannot move. */
function settable(clock: Clock): ManualClock {
  if (isManual(clock)) return clock;
  const refuse = () => {
    throw new Error('this app runs on a clock that a test cannot move');
  };
  return { now: () => clock.now(), advance: refuse, set: refuse };
}

function isManual(clock: Clock): clock is ManualClock {
  return 'advance' in clock && 'set' in clock;
}

export interface TestDatabase {
  database: Database;
  /** Closes the connection and drops the database. */
  close(): Promise<void>;
}

/** A fresh, migrated database without an app, for tests of the building blocks under it. */
export async function openTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const { url, drop } = await migratedDatabaseUrl(dialect);
  const database = openDatabase(url);
  await migrateToLatest(database.db);
  return {
    database,
    async close() {
      await database.close();
      await drop();
    },
  };
}

/** A fresh database: in-memory SQLite, or a new database on the test PostgreSQL server. */
export async function freshDatabaseUrl(dialect: DialectName): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return { url: 'sqlite::memory:', drop: async () => {} };
  return throwawayPostgres(inject('postgresUrl'), 'test');
}

/**
 * A fresh database already at the latest schema: in-memory SQLite, or on PostgreSQL a copy of the
 * run's migrated template (test/helpers/global-setup.ts), which is quicker than migrating anew.
 * The caller migrates it still, as an app does on start: nothing is left to apply.
 */
async function migratedDatabaseUrl(dialect: DialectName): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return freshDatabaseUrl(dialect);
  return throwawayPostgres(inject('postgresUrl'), 'test', inject('postgresTemplate'));
}

export const adminHeaders = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
