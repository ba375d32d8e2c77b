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
import type { ConnectionWaitListener } from './connection-waits.js';
import { backgroundTurn, loopTurnIfHeld } from './loop-slices.js';
import type { SqliteConnection } from './sqlite-connection.js';
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
 *
 * Who waits for whom (decision 0289): a query outside a transaction runs on the file's reading
 * connection and takes no gate, so reads never wait for a write transaction; a connection
 * enters the gate at its first write or BEGIN, not when Kysely acquires it. Between two
 * statements, once the loop has been held for a slice (loop-slices.ts, decision 0292), the
 * statement waits for a turn of the loop, in which reads, I/O and timers run: a long transaction
 * holds the loop a slice at a time, not for its whole length.
 */
export class SqliteDialect implements Dialect {
  constructor(
    private readonly file: SqliteFile,
    /** Told how long each connection waited for the gate (db_pool_wait_seconds); a read waits for none. */
    private readonly onWait: ConnectionWaitListener = () => {},
  ) {}

  createDriver(): Driver {
    return new SqliteDriver(this.file, this.onWait);
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
 * Kysely serializes a single-connection dialect with a mutex that waits without limit, cannot be
 * left during a retry, and would queue reads behind transactions. Our driver brings its own (the
 * Gate, for writes only), so Kysely's is off.
 */
class GatedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class SqliteDriver implements Driver {
  constructor(
    private readonly file: SqliteFile,
    private readonly onWait: ConnectionWaitListener,
  ) {}

  async init(): Promise<void> {}

  /** Takes nothing yet: the lease enters the gate when it first needs the writer. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this.file, this.onWait);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = leaseOf(connection);
    await lease.holdWriter();
    await lease.retryBusy(() => this.file.writer.exec('begin immediate'));
  }

  async commitTransaction(): Promise<void> {
    await loopTurnIfHeld();
    this.file.writer.exec('commit');
  }

  async rollbackTransaction(): Promise<void> {
    // A failed COMMIT may already have ended the transaction.
    this.file.writer.rollbackIfOpen();
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
 * One acquisition of a connection. Its queries run on the reader until it first needs the
 * writer (a write, BEGIN); from then on it holds the gate until release, except while a retry
 * waits, and every statement runs on the writer, in the order given. Kysely releases what it
 * acquired even when a retry gave up outside the gate, so each lease knows whether it holds it.
 */
class Lease implements DatabaseConnection {
  private held = false;
  private writing = false;
  private waitReported = false;
  /** Kysely acquires a connection right before its first use: the wait runs from here. */
  private readonly acquired = performance.now();

  constructor(
    private readonly file: SqliteFile,
    private readonly onWait: ConnectionWaitListener,
  ) {}

  /** Enters the gate for good: the writer serves this lease from now on. */
  async holdWriter(): Promise<void> {
    if (this.writing) return;
    await this.enter(this.file.busyWaitMs);
    this.writing = true;
    this.reportWait(performance.now() - this.acquired);
    this.file.writer.reopenIfSuspect();
  }

  leave(): void {
    if (!this.held) return;
    this.held = false;
    this.file.gate.leave();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { reader, writer } = this.file;
    if (!this.writing && reader && this.readable(reader, query.sql)) {
      this.reportWait(0);
      // A read while nobody writes holds nothing a foreground import needs: it may wait for one. While
      // someone writes, it may be their read (a transaction's work reading outside it): it never waits then.
      await (this.file.gate.full ? loopTurnIfHeld() : backgroundTurn());
      return this.retryBusy(() => reader.execute<R>(query));
    }
    await this.holdWriter();
    if (!writer.inTransaction) return this.retryBusy(() => writer.execute<R>(query));
    // A turn of the loop once it has been held a slice: the gate stays held, the reader serves.
    await loopTurnIfHeld();
    return writer.execute<R>(query);
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
        const holding = this.held;
        this.leave();
        await sleep(Math.min(left, backoffMs(tries)));
        if (holding) await this.enter(deadline - Date.now());
      }
    }
  }

  private async enter(timeoutMs: number): Promise<void> {
    await this.file.gate.enter(timeoutMs);
    this.held = true;
  }

  private readable(reader: SqliteConnection, sql: string): boolean {
    reader.reopenIfSuspect();
    return reader.onlyReads(sql);
  }

  /** Once per lease, at its first use: the wait for the gate, or none for a read. */
  private reportWait(ms: number): void {
    if (this.waitReported) return;
    this.waitReported = true;
    this.onWait(ms / 1000);
  }
}
