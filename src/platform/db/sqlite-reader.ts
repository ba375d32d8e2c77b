import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Long reads of an SQLite file on a worker thread of their own, with their own read-only
 * connection. better-sqlite3 runs a query inside the call, so building the id list of a new
 * flows filter at --scale 10 held the event loop for 100–500 ms in one block; split into keyset
 * chunks it does not shrink where the plan sorts or scans a subquery first (decision 0063). On
 * a worker the loop only receives the finished list, transferred, not copied.
 *
 * WAL mode lets this connection read beside the process's own one (and beside writers): it sees
 * what is committed, like every other node. A worker that dies is replaced on the next read.
 */
export class SqliteReader {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (ids: Float64Array) => void; reject: (error: Error) => void }>();

  constructor(private readonly path: string) {}

  /** The first column of every row of `sql`, as numbers, in the query's order. */
  readIds(sql: string, parameters: readonly unknown[]): Promise<Float64Array> {
    const worker = this.worker ?? this.start();
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll(new Error('The database connection is not open'));
  }

  private start(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path: this.path } });
    // Reads in flight keep their promises; an idle reader must not keep the process alive.
    worker.unref();
    worker.on('message', (message: ReaderReply) => {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if ('ids' in message) waiter.resolve(message.ids);
      else waiter.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
    });
    const gone = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the SQLite reader stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}

type ReaderReply = { id: number; ids: Float64Array } | { id: number; error: { message: string; code?: string } };

/**
 * The worker, as CommonJS source: it runs the same in the compiled server and under the test
 * runner, which has no compiled file to point a worker at. The connection is read-only
 * (query_only), waits for locks with SQLite's own busy handler (blocking this thread only), and
 * transfers each list's buffer to the main thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 5000 });
db.pragma('query_only = 1');
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    const ids = Float64Array.from(db.prepare(sql).pluck().all(parameters), Number);
    parentPort.postMessage({ id, ids }, [ids.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;
