import { Writable } from 'node:stream';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { type Clock, manualClock } from '../../src/platform/clock.js';
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
  clock: ReturnType<typeof manualClock>;
  database: Database;
  /** Everything the app logged, one JSON object per line. */
  logs(): string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect: DialectName;
  /** Extra environment for loadConfig (JWT_SECRET and ADMIN_TOKEN are set by default). */
  env?: Record<string, string>;
  clock?: Clock;
}

/** A fresh database (in-memory SQLite, or a new PostgreSQL database), migrated, behind the real app. */
export async function buildTestApp(options: TestAppOptions): Promise<TestApp> {
  const { url, drop } = await freshDatabaseUrl(options.dialect);
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: '/nonexistent-test-data-dir',
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const database = openDatabase(url, { poolSize: 20 });
  await migrateToLatest(database.db);
  const clock = manualClock(Date.now());
  const ctx = createContext({ config, database, clock: options.clock ?? clock });
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = await buildApp(ctx, { logStream });
  await app.ready();
  // Every response a test receives through app.inject is checked against the OpenAPI document.
  validateResponses(app);
  return {
    app,
    ctx,
    config,
    clock,
    database,
    logs: () => lines.join(''),
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}

/** A database of its own: in-memory SQLite, or a new PostgreSQL database that `drop` removes. */
export async function freshDatabaseUrl(dialect: DialectName): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return { url: 'sqlite::memory:', drop: async () => {} };
  return throwawayPostgres(inject('postgresUrl'), 'test');
}

export const adminHeaders = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
