import { Gate } from './gate.js';
import { SqliteConnection } from './sqlite-connection.js';
import { StorageFailures } from './storage-failures.js';
import { DatabaseUnavailableError } from './unavailable.js';

export const isBusy = (error: unknown): boolean => String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');

/**
 * The process's connections to an SQLite file: one that writes, behind a Gate, and one that
 * reads.
 *
 * The writer runs a statement only while its caller holds the gate, so that it never lands
 * inside another request's transaction, and every statement of a transaction, reads included,
 * runs on it: they see the transaction's own writes.
 *
 * The reader runs a query outside any transaction, without the gate (decision 0289): in WAL mode
 * it sees the last commit, and a read never waits for a write transaction of this process. An
 * in-memory database has no reader: a second connection would open another, empty database.
 */
export class SqliteFile {
  readonly gate = new Gate();
  readonly writer: SqliteConnection;
  readonly reader: SqliteConnection | undefined;

  constructor(
    path: string,
    /** How long one statement may wait for the file's write lock or for the gate (then 503). */
    readonly busyWaitMs: number,
    /** Told every failed statement, on either connection (readiness reads it). */
    private readonly storage = new StorageFailures(),
  ) {
    this.writer = new SqliteConnection(path, 'writer', storage);
    try {
      this.reader = path === ':memory:' ? undefined : new SqliteConnection(path, 'reader', storage);
    } catch (error) {
      this.writer.close();
      throw error;
    }
  }

  /**
   * Readiness: can the writer write? A write statement that changes nothing (`probeSql`) in a
   * transaction that is rolled back: it takes the write lock and meets a read-only file
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
    const writer = this.writer;
    if (writer.inTransaction && !writer.isSuspect && !needsSpace) return;
    await this.gate.enter(this.busyWaitMs);
    try {
      writer.reopenIfSuspect();
      try {
        writer.exec('begin immediate');
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (!needsSpace) return;
        throw new DatabaseUnavailableError('storage', 'a write failed for want of storage, and another process holds the write lock', { cause: error });
      }
      try {
        writer.exec(needsSpace ? spaceSql : probeSql);
        if (needsSpace) writer.exec('commit');
      } finally {
        writer.rollbackIfOpen();
      }
      if (needsSpace) this.storage.clear();
    } finally {
      this.gate.leave();
    }
  }

  close(): void {
    this.reader?.close();
    this.writer.close();
  }
}
