import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Schema } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

// int8 (COUNT(*), bigint ids and epoch-millisecond timestamps) as numbers: all stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  poolSize?: number;
  /** Told the SQL of every statement executed (tests count them). */
  onQuery?: (sql: string) => void;
}

/** Opens `sqlite:PATH` (PATH may be `:memory:`) or `postgres://…`. */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const { onQuery } = options;
  const log = onQuery && ((event: LogEvent) => (event.level === 'query' ? onQuery(event.query.sql) : undefined));
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), log);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options.poolSize ?? 10, log);
  throw new Error('DATABASE_URL must start with "sqlite:" or "postgres://"');
}

function openSqlite(path: string, log: ((event: LogEvent) => void) | undefined): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }), ...(log ? { log } : {}) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(connectionString: string, max: number, log: ((event: LogEvent) => void) | undefined): Database {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
