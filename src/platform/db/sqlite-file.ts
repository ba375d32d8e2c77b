import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery, QueryResult } from 'kysely';
import { LruCache } from '../cache/lru.js';
import { Gate } from './gate.js';
import { StorageFailures } from './storage-failures.js';
import { DatabaseUnavailableError, databaseUnavailable } from './unavailable.js';

type Handle = BetterSqlite3.Database;

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

export const isBusy = (error: unknown): boolean => String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');

function openHandle(path: string, busyTimeoutMs: number): Handle {
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
    return handle;
  } catch (error) {
    handle.close();
    throw error;
  }
}

/**
 * The process's one connection to an SQLite file, behind a Gate: a statement runs only while
 * its caller holds the gate, so that it never lands inside another request's transaction.
 *
 * A connection that SQLite opened read-only (the file, its -wal or -shm not writable at open)
 * stays read-only for its whole life, and one whose file was moved keeps failing: after a
 * read-only or storage failure the file is reopened (at most once a second, never an in-memory
 * database), so that fixing the file's permissions brings writes back without a restart.
 */
export class SqliteFile {
  readonly gate = new Gate();
  private handle: Handle;
  private statements = new LruCache<string, BetterSqlite3.Statement<readonly unknown[], unknown>>(STATEMENT_CACHE_SIZE);
  private suspect = false;
  private lastReopen = 0;

  constructor(
    private readonly path: string,
    /** How long one statement may wait for the file's write lock or for the gate (then 503). */
    readonly busyWaitMs: number,
    /** Told every failed statement (readiness reads it). */
    private readonly storage = new StorageFailures(),
  ) {
    this.handle = openHandle(path, STARTUP_BUSY_TIMEOUT_MS);
  }

  get inTransaction(): boolean {
    return this.handle.inTransaction;
  }

  /** Runs one compiled statement. The caller holds the gate. */
  execute<R>(query: CompiledQuery): QueryResult<R> {
    return this.noting(() => {
      const statement = this.statementFor(query.sql) as BetterSqlite3.Statement<readonly unknown[], R>;
      if (statement.reader) return { rows: statement.all(query.parameters) };
      const { changes, lastInsertRowid } = statement.run(query.parameters);
      return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
    });
  }

  private statementFor(sql: string): BetterSqlite3.Statement<readonly unknown[], unknown> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.handle.prepare<readonly unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs a statement without parameters (BEGIN, COMMIT, …). The caller holds the gate. */
  exec(sql: string): void {
    this.noting(() => this.handle.exec(sql));
  }

  rollbackIfOpen(): void {
    if (this.handle.inTransaction) this.exec('rollback');
  }

  /** Called by whoever has just entered the gate, when no transaction can be open. */
  reopenIfSuspect(): void {
    if (!this.suspect || this.path === ':memory:' || Date.now() - this.lastReopen < REOPEN_INTERVAL_MS) return;
    this.lastReopen = Date.now();
    let fresh: Handle;
    try {
      // No synchronous wait at run time: a lock held elsewhere fails this attempt; the next one retries.
      fresh = openHandle(this.path, 0);
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

  /**
   * Readiness: can this connection write? A write statement that changes nothing (`probeSql`)
   * in a transaction that is rolled back: it takes the write lock and meets a read-only file
   * (SQLITE_READONLY) without writing a page. Held elsewhere (SQLITE_BUSY), the lock shows that
   * the file takes writes; our own open transaction (BEGIN IMMEDIATE) holds it already.
   *
   * That probe reaches no disk, so it passes on a full one. Once a statement has failed for want
   * of storage, the probe is `spaceSql` committed instead: the commit appends to the write-ahead
   * log, which on a full disk fails as the other writes do (SQLITE_FULL), and once it succeeds
   * the failure is over.
   */
  async probeWritable(probeSql: string, spaceSql: string): Promise<void> {
    const needsSpace = this.storage.failing;
    if (this.handle.inTransaction && !this.suspect && !needsSpace) return;
    await this.gate.enter(this.busyWaitMs);
    try {
      this.reopenIfSuspect();
      try {
        this.exec('begin immediate');
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (!needsSpace) return;
        throw new DatabaseUnavailableError('storage', 'a write failed for want of storage, and another process holds the write lock', { cause: error });
      }
      try {
        this.exec(needsSpace ? spaceSql : probeSql);
        if (needsSpace) this.exec('commit');
      } finally {
        this.rollbackIfOpen();
      }
      if (needsSpace) this.storage.clear();
    } finally {
      this.gate.leave();
    }
  }

  close(): void {
    this.handle.close();
  }

  /** A read-only or storage failure marks the connection for reopening. */
  private noting<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      const reason = databaseUnavailable(error)?.reason;
      if (reason === 'read_only' || reason === 'storage') this.suspect = true;
      this.storage.note(error);
      throw error;
    }
  }
}
