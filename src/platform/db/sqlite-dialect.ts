import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { isBusy, type SqliteFile } from './sqlite-file.js';
import { DatabaseUnavailableError } from './unavailable.js';

/**
 * Kysely's SQLite dialect over our SqliteFile, so that a writer that finds the file locked by
 * another process (a CLI import, another worker) waits without blocking the event loop:
 * `busy_timeout` is 0 and the wait is an asynchronous retry with backoff, bounded by
 * `busyWaitMs`, then SQLITE_BUSY → 503 with Retry-After.
 *
 * What is retried, and why only that:
 * - A statement outside a transaction (autocommit). A statement that fails with SQLITE_BUSY
 *   has changed nothing, so running it again is the same statement.
 * - BEGIN IMMEDIATE, which opens every transaction: it takes the write lock up front, so the
 *   statements inside cannot meet SQLITE_BUSY. A statement inside a transaction is never
 *   retried: with a deferred BEGIN, a transaction that has read and then finds the lock taken
 *   gets SQLITE_BUSY_SNAPSHOT, which no amount of waiting cures (its snapshot is stale; only the
 *   whole transaction could be run again), and retrying one statement would silently re-base
 *   the ones before it. Taking the lock at BEGIN makes that case impossible instead.
 * While a retry waits it leaves the gate, so that reads and other writers of this process go on.
 */
export class SqliteDialect implements Dialect {
  constructor(private readonly file: SqliteFile) {}

  createDriver(): Driver {
    return new SqliteDriver(this.file);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new GatedSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely serializes a single-connection dialect with a mutex that waits without limit and
 * cannot be left during a retry. Our driver brings its own (the Gate), so Kysely's is off.
 */
class GatedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class SqliteDriver implements Driver {
  constructor(private readonly file: SqliteFile) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const lease = new Lease(this.file);
    await lease.enter(this.file.busyWaitMs);
    this.file.reopenIfSuspect();
    return lease;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await leaseOf(connection).retryBusy(() => this.file.exec('begin immediate'));
  }

  async commitTransaction(): Promise<void> {
    this.file.exec('commit');
  }

  async rollbackTransaction(): Promise<void> {
    // A failed COMMIT may already have ended the transaction.
    this.file.rollbackIfOpen();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    leaseOf(connection).leave();
  }

  async destroy(): Promise<void> {
    this.file.close();
  }
}

function leaseOf(connection: DatabaseConnection): Lease {
  if (!(connection instanceof Lease)) throw new Error('not a connection of this driver');
  return connection;
}

/** Backoff between attempts: 1, 2, 4, … up to 100 ms, with jitter so that processes do not retry in step. */
const backoffMs = (attempt: number) => Math.min(100, 2 ** attempt) * (0.5 + Math.random() / 2);

/**
 * One acquisition of the connection: holds the gate from acquire to release, except while a
 * retry waits. Kysely releases what it acquired even when a retry gave up outside the gate, so
 * each lease knows whether it holds it.
 */
class Lease implements DatabaseConnection {
  private held = false;

  constructor(private readonly file: SqliteFile) {}

  async enter(timeoutMs: number): Promise<void> {
    await this.file.gate.enter(timeoutMs);
    this.held = true;
  }

  leave(): void {
    if (!this.held) return;
    this.held = false;
    this.file.gate.leave();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.file.inTransaction) return this.file.execute<R>(query);
    return this.retryBusy(() => this.file.execute<R>(query));
  }

  /** Kysely's interface asks for streaming; we do not stream (long reads are chunked by keyset instead). */
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(query);
  }

  /** Runs `attempt` until it does not meet SQLITE_BUSY, waiting asynchronously, for at most busyWaitMs. */
  async retryBusy<T>(attempt: () => T): Promise<T> {
    const deadline = Date.now() + this.file.busyWaitMs;
    for (let tries = 0; ; tries += 1) {
      try {
        return attempt();
      } catch (error) {
        const left = deadline - Date.now();
        if (!isBusy(error)) throw error;
        if (left <= 0) throw new DatabaseUnavailableError('busy', `the database stayed locked for ${this.file.busyWaitMs} ms`, { cause: error });
        this.leave();
        await sleep(Math.min(left, backoffMs(tries)));
        await this.enter(deadline - Date.now());
      }
    }
  }
}
