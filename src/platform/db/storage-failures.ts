import type { AbortableOperationOptions, CompiledQuery, DatabaseConnection, Dialect } from 'kysely';
import { databaseUnavailable } from './unavailable.js';

/**
 * Whether the database has refused a statement for want of storage (a full disk: SQLITE_FULL, an
 * I/O error, PostgreSQL's 53100 "could not extend file") since readiness last proved that a write
 * needing new space succeeds. A probe that writes nothing new passes on a full disk while every
 * real write fails: readiness reads this instead, and makes a write that needs space to clear it.
 */
export class StorageFailures {
  #failing = false;

  get failing(): boolean {
    return this.#failing;
  }

  /** Told every failed statement; keeps the storage failures. */
  note(error: unknown): void {
    if (databaseUnavailable(error)?.reason === 'storage') this.#failing = true;
  }

  /** A write that needed new space succeeded. */
  clear(): void {
    this.#failing = false;
  }
}

/**
 * The dialect with every statement's failure told to `failures`: for a driver whose statements
 * pass through no code of ours (PostgreSQL's; SQLite's file tells it directly, sqlite-file.ts).
 * Driver and connections are the dialect's own behind a proxy, so that they keep their identity
 * for the driver's private bookkeeping (its release and discard methods).
 */
export function noteStorageFailures(dialect: Dialect, failures: StorageFailures): Dialect {
  // One wrapper per pooled connection, for as long as the pool keeps it: Kysely decorates each
  // connection it sees once (its query log), and a new wrapper at every acquisition would look new.
  const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const noting = (connection: DatabaseConnection) => {
    let wrapper = wrapped.get(connection);
    if (wrapper === undefined) {
      wrapper = notingConnection(connection, failures);
      wrapped.set(connection, wrapper);
    }
    return wrapper;
  };
  return {
    createDriver: () =>
      forwarding(dialect.createDriver(), {
        acquireConnection: (driver) => async (options?: AbortableOperationOptions) => noting(await driver.acquireConnection(options)),
      }),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

function notingConnection(connection: DatabaseConnection, failures: StorageFailures): DatabaseConnection {
  return forwarding(connection, {
    executeQuery: (inner) => async (query: CompiledQuery, options?: AbortableOperationOptions) => {
      try {
        return await inner.executeQuery(query, options);
      } catch (error) {
        failures.note(error);
        throw error;
      }
    },
    streamQuery: (inner) =>
      async function* (query: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions) {
        try {
          yield* inner.streamQuery(query, chunkSize, options);
        } catch (error) {
          failures.note(error);
          throw error;
        }
      },
  });
}

/**
 * `target` with the methods named in `replaced` made by their factories; everything else its own,
 * bound to it. A property set on the wrapper stays on the wrapper: Kysely's query log replaces a
 * connection's `executeQuery` with one that calls the previous one, and written through to the
 * target it would replace the very method the wrapper calls, which then calls itself.
 */
function forwarding<T extends object>(target: T, replaced: { [K in keyof T]?: (target: T) => unknown }): T {
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(inner, property) {
      if (made.has(property)) return made.get(property);
      const factory = replaced[property as keyof T];
      if (factory !== undefined) {
        made.set(property, factory(inner));
        return made.get(property);
      }
      const value: unknown = Reflect.get(inner, property, inner);
      return typeof value === 'function' ? value.bind(inner) : value;
    },
    set(_inner, property, value: unknown) {
      made.set(property, value);
      return true;
    },
  });
}
