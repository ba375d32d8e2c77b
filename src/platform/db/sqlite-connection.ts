import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery, QueryResult } from 'kysely';
import { LruCache } from '../cache/lru.js';
import type { StorageFailures } from './storage-failures.js';
import { databaseUnavailable } from './unavailable.js';

type Handle = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<readonly unknown[], unknown>;

/** At start-up only, before serving: the opening pragmas may wait for the lock synchronously. */
const STARTUP_BUSY_TIMEOUT_MS = 5000;
/**
 * Prepared statements kept per connection, by SQL text: the queries are a fixed set (Kysely
 * builds the same text for the same query shape), and preparing one costs more than running it
 * (decision 0143).
 */
const STATEMENT_CACHE_SIZE = 500;
/** A connection that failed at the storage level is reopened at most this often. */
const REOPEN_INTERVAL_MS = 1000;

/**
 * What the reading connection may run: a query (its text begins with SELECT or WITH) that SQLite
 * says changes nothing. A pragma stays on the writing connection, whose settings it reads or sets.
 */
const QUERY_TEXT = /^\s*(select|with)\b/i;

export type ConnectionRole = 'writer' | 'reader';

function openHandle(path: string, role: ConnectionRole, busyTimeoutMs: number): Handle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const handle = new BetterSqlite3(path, { timeout: busyTimeoutMs });
  try {
    handle.pragma('journal_mode = WAL');
    handle.pragma('synchronous = NORMAL');
    handle.pragma('foreign_keys = ON');
    // From here on a locked database is waited for asynchronously (sqlite-dialect.ts): SQLite's
    // busy handler sleeps inside the call, and with a synchronous driver that sleep froze the
    // whole process (decision 0061: /healthz took 5,017 ms while a CLI import held the lock).
    handle.pragma('busy_timeout = 0');
    // The reading connection refuses any write, whatever its text: writes belong to the one writer.
    if (role === 'reader') handle.pragma('query_only = 1');
    return handle;
  } catch (error) {
    handle.close();
    throw error;
  }
}

/**
 * One better-sqlite3 connection to the file with its prepared statements. A connection that
 * SQLite opened read-only (the file, its -wal or -shm not writable at open) stays read-only for
 * its whole life, and one whose file was moved keeps failing: after a read-only or storage
 * failure it is reopened (at most once a second, never an in-memory database), so that fixing
 * the file's permissions brings writes back without a restart.
 */
export class SqliteConnection {
  private handle: Handle;
  private statements = new LruCache<string, Statement>(STATEMENT_CACHE_SIZE);
  private suspect = false;
  private lastReopen = 0;

  constructor(
    private readonly path: string,
    private readonly role: ConnectionRole,
    /** Told every failed statement (readiness reads it). */
    private readonly storage: StorageFailures,
  ) {
    this.handle = openHandle(path, role, STARTUP_BUSY_TIMEOUT_MS);
  }

  get inTransaction(): boolean {
    return this.handle.inTransaction;
  }

  get isSuspect(): boolean {
    return this.suspect;
  }

  /** Runs one compiled statement. */
  execute<R>(query: CompiledQuery): QueryResult<R> {
    return this.noting(() => run<R>(this.statementFor(query.sql), query.parameters));
  }

  /** Whether `sql` only reads, so that the reading connection may run it (see QUERY_TEXT). */
  onlyReads(sql: string): boolean {
    if (!QUERY_TEXT.test(sql)) return false;
    const statement = this.noting(() => this.statementFor(sql));
    return statement.reader && statement.readonly;
  }

  /** Runs a statement without parameters (BEGIN, COMMIT, …). */
  exec(sql: string): void {
    this.noting(() => this.handle.exec(sql));
  }

  rollbackIfOpen(): void {
    if (this.handle.inTransaction) this.exec('rollback');
  }

  /** Called when no transaction can be open on this connection. */
  reopenIfSuspect(): void {
    if (!this.suspect || this.path === ':memory:' || Date.now() - this.lastReopen < REOPEN_INTERVAL_MS) return;
    this.lastReopen = Date.now();
    let fresh: Handle;
    try {
      // No synchronous wait at run time: a lock held elsewhere fails this attempt; the next one retries.
      fresh = openHandle(this.path, this.role, 0);
    } catch {
      return;
    }
    const old = this.handle;
    this.handle = fresh;
    // Statements belong to the connection that prepared them.
    this.statements.clear();
    this.suspect = false;
    old.close();
  }

  close(): void {
    this.handle.close();
  }

  private statementFor(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.handle.prepare<readonly unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A read-only or storage failure marks the connection for reopening. */
  private noting<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      const reason = databaseUnavailable(error)?.reason;
      if (reason === 'read_only' || reason === 'storage') this.suspect = true;
      this.storage.note(error);
      throw error;
    }
  }
}

function run<R>(statement: Statement, parameters: readonly unknown[]): QueryResult<R> {
  const typed = statement as BetterSqlite3.Statement<readonly unknown[], R>;
  if (typed.reader) return { rows: typed.all(parameters) };
  const { changes, lastInsertRowid } = typed.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}
