import { type Compilable, Kysely, type LogEvent, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type ConnectionWaitListener, timeConnectionWaits } from './connection-waits.js';
import type { Schema } from './schema.js';
import { READ_RESERVE, reserveForReads } from './read-reserve.js';
import { SqliteDialect } from './sqlite-dialect.js';
import { SqliteFile } from './sqlite-file.js';
import { SqliteReader } from './sqlite-reader.js';
import { noteStorageFailures, StorageFailures } from './storage-failures.js';
import { databaseUnavailable } from './unavailable.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** Tells `listener` how long each query waited for a connection (db_pool_wait_seconds); replaces the previous one. */
  observeConnectionWaits(listener: ConnectionWaitListener): void;
  /**
   * Readiness: the database takes writes now. Throws the driver's error (classified by
   * unavailable.ts) when it does not: unreachable, read-only, a locked-out connection.
   */
  checkWritable(): Promise<void>;
  /**
   * The first column of every row of a query that may read many rows (an id list), without
   * holding the event loop for the length of the query: on an SQLite file it runs on a reader
   * thread (sqlite-reader.ts); PostgreSQL's driver is asynchronous anyway.
   */
  readIds(query: Compilable): Promise<Float64Array>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  poolSize?: number;
  /**
   * How long a statement waits for the database before 503: for a pooled PostgreSQL
   * connection, for SQLite's write lock held by another process or for the process's SQLite
   * writer held by a transaction.
   */
  waitMs?: number;
  /** Told the SQL of every statement executed (tests count them). */
  onQuery?: (sql: string) => void;
}

/** Default wait: long enough for a login behind a short import, short of a client's patience. */
export const DATABASE_WAIT_MS = 5000;

// int8 (COUNT(*), bigint ids and epoch-millisecond timestamps) as numbers: all stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * The readiness write: it takes the write lock and touches no row. PostgreSQL refuses it on a
 * standby or a read-only session (25006); SQLite on a read-only file (SQLITE_READONLY).
 */
const PROBE_WRITE = 'update change_versions set version = version where 1 = 0';

/**
 * Readiness after a statement failed for want of storage, on SQLite: a write that reaches the
 * disk when committed (a page of the write-ahead log), and changes nothing anyone reads.
 */
const SQLITE_SPACE_PROBE = 'update change_versions set version = version';

/**
 * The same on PostgreSQL, in a transaction that is rolled back: rows enough to need new pages of a
 * temporary table, in the database's own tablespace. PostgreSQL extends a file when it adds the
 * page, not at commit, so a full disk refuses it (53100) although the rows are never kept.
 */
const POSTGRES_SPACE_PROBE = [
  'create temporary table readiness_space_probe (n bigint)',
  'insert into readiness_space_probe select generate_series(1, 2000)',
];

/**
 * Opens `sqlite:PATH` (PATH may be `:memory:`) or `postgres://…` as it is. Processes and
 * commands open their database through connectDatabase (connect.ts), which first checks that
 * it exists (or creates it when asked).
 */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const waitMs = options.waitMs ?? DATABASE_WAIT_MS;
  const { onQuery } = options;
  const log = onQuery && ((event: LogEvent) => (event.level === 'query' ? onQuery(event.query.sql) : undefined));
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), waitMs, log);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options.poolSize ?? 10, waitMs, log);
  throw new Error('DATABASE_URL must start with "sqlite:" or "postgres://"');
}

type QueryLog = ((event: LogEvent) => void) | undefined;

function openSqlite(path: string, waitMs: number, log: QueryLog): Database {
  const file = new SqliteFile(path, waitMs);
  const waits = connectionWaits();
  // The dialect's gate serves the writer; the wait for it is db_pool_wait_seconds (a read waits for none).
  const db = new Kysely<Schema>({ dialect: new SqliteDialect(file, waits.report), ...(log ? { log } : {}) });
  // An in-memory database exists only on its one connection: its reads stay there.
  const reader = path === ':memory:' ? undefined : new SqliteReader(path);
  return {
    db,
    dialect: 'sqlite',
    observeConnectionWaits: waits.observe,
    checkWritable: () => file.probeWritable(PROBE_WRITE, SQLITE_SPACE_PROBE),
    readIds: (query) => {
      if (!reader) return readIdsThrough(db, query);
      const { sql: text, parameters } = query.compile();
      return reader.readIds(text, parameters);
    },
    close: async () => {
      await reader?.close();
      await db.destroy();
    },
  };
}

async function readIdsThrough(db: Kysely<Schema>, query: Compilable): Promise<Float64Array> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(query.compile());
  return Float64Array.from(rows, (row) => Number(Object.values(row)[0]));
}

function openPostgres(connectionString: string, max: number, waitMs: number, log: QueryLog): Database {
  // A bounded wait for a connection (pool exhausted, server not answering): then 503, not a hang.
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: waitMs });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor one that is checked out between two statements of a transaction (the server restarted):
  // pg emits that loss on the client, with no listener an uncaught exception; the transaction's
  // next statement fails with it, and the pool discards the client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const waits = connectionWaits();
  const storage = new StorageFailures();
  const timed = timeConnectionWaits(noteStorageFailures(new PostgresDialect({ pool }), storage), waits.report);
  const dialect = reserveForReads(timed, Math.max(1, max - READ_RESERVE), waitMs);
  const db = new Kysely<Schema>({ dialect, ...(log ? { log } : {}) });
  return {
    db,
    dialect: 'postgres',
    observeConnectionWaits: waits.observe,
    checkWritable: async () => {
      await sql.raw(PROBE_WRITE).execute(db);
      if (storage.failing) await probeSpace(db, storage);
    },
    readIds: (query) => readIdsThrough(db, query),
    close: () => db.destroy(),
  };
}

/**
 * Clears a storage failure once a write that needs new space succeeds. A probe refused for another
 * reason (a role without the TEMPORARY privilege) proves nothing either way: the failure is
 * cleared, and the next write that fails for want of storage sets it again.
 */
async function probeSpace(db: Kysely<Schema>, storage: StorageFailures): Promise<void> {
  try {
    await db.connection().execute(async (connection) => {
      await sql.raw('begin').execute(connection);
      try {
        for (const statement of POSTGRES_SPACE_PROBE) await sql.raw(statement).execute(connection);
      } finally {
        await sql.raw('rollback').execute(connection);
      }
    });
  } catch (error) {
    if (databaseUnavailable(error) !== undefined) throw error;
  }
  storage.clear();
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
