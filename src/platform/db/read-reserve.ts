import type {
  AbortableOperationOptions,
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { Gate } from './gate.js';

/** Connections of a pool that transactions never take, so that a read always finds one. */
export const READ_RESERVE = 2;

/**
 * The pool keeps read connections free: transactions (imports, background jobs) hold at most
 * `transactions` of the pool's connections at once; the next ones wait in order, for at most
 * `waitMs` (then 503), before they take one. A query outside a transaction takes a connection
 * as it comes, so that a feed of imports cannot take the pool's last connection from the reads.
 *
 * Kysely acquires a connection before it says whether it will begin a transaction on it, so the
 * driver here hands out a connection that takes its pool client at its first use: BEGIN first
 * waits for a transaction's place; a query takes a client at once. A connection that has run a
 * query and then begins a transaction waits for its place while it holds its client: nothing of
 * ours does that.
 */
export function reserveForReads(dialect: Dialect, transactions: number, waitMs: number): Dialect {
  const places = new Gate(transactions);
  return {
    createDriver: () => new ReservingDriver(dialect.createDriver(), places, waitMs),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

class ReservingDriver implements Driver {
  readonly savepoint?: Driver['savepoint'];
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(
    private readonly inner: Driver,
    private readonly places: Gate,
    private readonly waitMs: number,
  ) {
    // Savepoints exactly as the inner driver has them, on the client the connection took.
    const { savepoint, rollbackToSavepoint, releaseSavepoint } = inner;
    if (savepoint) this.savepoint = (connection, name, compile) => savepoint.call(inner, clientOf(connection), name, compile);
    if (rollbackToSavepoint) this.rollbackToSavepoint = (connection, name, compile) => rollbackToSavepoint.call(inner, clientOf(connection), name, compile);
    if (releaseSavepoint) this.releaseSavepoint = (connection, name, compile) => releaseSavepoint.call(inner, clientOf(connection), name, compile);
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.init(options);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyConnection(this.inner);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const lazy = lazyOf(connection);
    if (!lazy.holdsPlace) {
      await this.places.enter(this.waitMs);
      lazy.holdsPlace = true;
    }
    await this.inner.beginTransaction(await lazy.client(), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(clientOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(clientOf(connection));
  }

  async releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    const lazy = lazyOf(connection);
    try {
      if (lazy.taken) await this.inner.releaseConnection(lazy.taken, options);
    } finally {
      if (lazy.holdsPlace) this.places.leave();
      lazy.holdsPlace = false;
    }
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.destroy(options);
  }
}

/** A connection that takes its pool client when first used. */
class LazyConnection implements DatabaseConnection {
  taken: DatabaseConnection | undefined;
  holdsPlace = false;
  private taking: Promise<DatabaseConnection> | undefined;

  constructor(private readonly inner: Driver) {}

  client(): Promise<DatabaseConnection> {
    if (this.taken) return Promise.resolve(this.taken);
    this.taking ??= this.inner.acquireConnection().then((client) => (this.taken = client));
    return this.taking;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.client()).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.client()).streamQuery<R>(query, chunkSize, options);
  }
}

function lazyOf(connection: DatabaseConnection): LazyConnection {
  if (!(connection instanceof LazyConnection)) throw new Error('not a connection of this driver');
  return connection;
}

/** The client a transaction's statements run on: taken by BEGIN, before any of them. */
function clientOf(connection: DatabaseConnection): DatabaseConnection {
  const client = lazyOf(connection).taken;
  if (!client) throw new Error('no transaction is open on this connection');
  return client;
}
