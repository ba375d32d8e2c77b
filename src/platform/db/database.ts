import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type ConnectionWaitListener, timeConnectionWaits } from './connection-waits.js';
import type { Schema } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** Tells `listener` how long each query waited for a connection (db_pool_wait_seconds); replaces the previous one. */
  observeConnectionWaits(listener: ConnectionWaitListener): void;
  close(): Promise<void>;
}

// int8 (COUNT(*), bigint ids and epoch-millisecond timestamps) as numbers: all stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Opens `sqlite:PATH` (PATH may be `:memory:`) or `postgres://…`. */
export function openDatabase(url: string, options: { poolSize?: number } = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options.poolSize ?? 10);
  throw new Error('DATABASE_URL must start with "sqlite:" or "postgres://"');
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const waits = connectionWaits();
  const db = new Kysely<Schema>({ dialect: timeConnectionWaits(new SqliteDialect({ database: sqlite }), waits.report) });
  return { db, dialect: 'sqlite', observeConnectionWaits: waits.observe, close: () => db.destroy() };
}

function openPostgres(connectionString: string, max: number): Database {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const waits = connectionWaits();
  const db = new Kysely<Schema>({ dialect: timeConnectionWaits(new PostgresDialect({ pool }), waits.report) });
  return { db, dialect: 'postgres', observeConnectionWaits: waits.observe, close: () => db.destroy() };
}

/** The database opens before the metrics that record its waits exist: they subscribe later. */
function connectionWaits(): { report: ConnectionWaitListener; observe: (listener: ConnectionWaitListener) => void } {
  let current: ConnectionWaitListener = () => {};
  return {
    report: (seconds) => current(seconds),
    observe: (listener) => {
      current = listener;
    },
  };
}
