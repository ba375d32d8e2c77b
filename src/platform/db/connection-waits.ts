import type {
  AbortableOperationOptions,
  DatabaseConnection,
  Dialect,
  DialectAdapter,
  Driver,
  TransactionSettings,
} from 'kysely';

/** Told how long each query (or transaction) waited for its connection, in seconds. */
export type ConnectionWaitListener = (seconds: number) => void;

/**
 * Times how long Kysely waits for a connection: from asking the driver until holding one.
 *
 * PostgreSQL: the wait for a pool client (`pool.connect()`), which includes opening a new
 * connection while the pool is below its size — the figure that grows when the pool is too small.
 *
 * SQLite has one connection. Kysely queues every query and transaction for it behind a lock of its
 * own, outside the driver, where no wrapper can time it; so for single-connection dialects this
 * wrapper takes that lock over (a FIFO queue, the same rule) and Kysely is told the dialect has
 * several connections. The figure is then the time a query waited behind another query or an
 * open transaction. Time spent waiting for another process's write lock (SQLITE_BUSY) is not in
 * it, just as lock waits inside PostgreSQL are not: that is executing, not waiting for a connection.
 */
export function timeConnectionWaits(dialect: Dialect, listener: ConnectionWaitListener): Dialect {
  const adapter = dialect.createAdapter();
  const single = !adapter.supportsMultipleConnections;
  return {
    createDriver: () => new TimedDriver(dialect.createDriver(), listener, single ? new ConnectionQueue() : undefined),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => (single ? claimingSeveralConnections(adapter) : adapter),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** The adapter as is (so `instanceof SqliteAdapter` still holds), but Kysely leaves the queueing to TimedDriver. */
function claimingSeveralConnections(adapter: DialectAdapter): DialectAdapter {
  return new Proxy(adapter, {
    get(target, property) {
      if (property === 'supportsMultipleConnections') return true;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** One holder at a time, the others served in the order they asked. */
class ConnectionQueue {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    // Handed straight to the next in line: nobody can slip in between.
    if (next) next();
    else this.held = false;
  }
}

class TimedDriver implements Driver {
  // Savepoints exactly as the inner driver has them (Kysely refuses them when a driver has none).
  readonly savepoint?: Driver['savepoint'];
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(
    private readonly inner: Driver,
    private readonly listener: ConnectionWaitListener,
    private readonly queue: ConnectionQueue | undefined,
  ) {
    this.savepoint = inner.savepoint?.bind(inner);
    this.rollbackToSavepoint = inner.rollbackToSavepoint?.bind(inner);
    this.releaseSavepoint = inner.releaseSavepoint?.bind(inner);
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const start = performance.now();
    await this.queue?.acquire();
    let connection: DatabaseConnection;
    try {
      connection = await this.inner.acquireConnection(options);
    } catch (error) {
      this.queue?.release();
      throw error;
    }
    this.listener((performance.now() - start) / 1000);
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    try {
      await this.inner.releaseConnection(connection, options);
    } finally {
      this.queue?.release();
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.destroy(options);
  }
}
