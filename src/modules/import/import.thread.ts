import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../platform/background.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import { serviceUnavailable } from '../../platform/errors.js';
import type { RecentChanges } from '../history/index.js';
import type { ImportResult } from './import-result.schemas.js';
import type { Dataset } from './import.schemas.js';
import type { ImportService } from './import.service.js';
import { errorOfThread, type FromImportThread, type ToImportThread } from './import.thread-messages.js';

/**
 * The import route's imports, made on a thread of their own (decision 0333): the transaction, the
 * grading after it and the history processors (board events, moves, signals, webhook deliveries)
 * run there with their own database connection, so that a feed's writes do not hold the event
 * loop that answers the reads. What the serving thread keeps is the request (its body parsed and
 * checked against the schema), and what its readers need of an import: the changes, held for its
 * streams, and the counters, read again before the import is answered, so that a read made after
 * the answer sees the import.
 */
export interface ImportThread extends BackgroundJob, Pick<ImportService, 'importChecked'> {}

export interface ImportThreadDeps {
  /** The thread's program: src/import-thread.ts, or its build. */
  entry: URL;
  /** What the program is started with (the configuration). */
  workerData: unknown;
  clock: Clock;
  changes: ChangeFeed;
  recent: RecentChanges;
  background: BackgroundJobs;
}

/** How long a stopping thread has to finish its processors' runs and close its database before it is ended. */
const STOP_WITHIN_MS = 10_000;
/** The Retry-After of an import the thread could not make (it ended, or it is starting again). */
const RETRY_AFTER_SECONDS = 1;

interface Pending {
  resolve(result: ImportResult): void;
  reject(error: Error): void;
}

interface Running {
  worker: Worker;
  ready: Promise<void>;
}

export function createImportThread(deps: ImportThreadDeps): ImportThread {
  const pending = new Map<number, Pending>();
  const told = tellingTo(deps, pending);
  let running: Running | undefined;
  let log: JobLog | undefined;
  let nextId = 1;

  function spawn(): Running {
    const worker = startWorker(deps.entry, deps.workerData);
    const ready = new Promise<void>((resolve, reject) => {
      // Taken one after the other, in the order told: an import's counters are read before its answer is given.
      let previous = Promise.resolve();
      worker.on('message', (message: FromImportThread) => {
        if (message.type === 'ready') resolve();
        else previous = previous.then(() => told(message));
      });
      worker.once('exit', (code) => reject(new Error(`the import thread ended before it was ready (exit code ${code})`)));
    });
    // Told to whoever waits for it (thread()); not an unhandled rejection when nobody does yet.
    ready.catch(() => {});
    worker.on('error', (error) => log?.error({ err: error }, 'import thread failed'));
    worker.on('exit', () => {
      if (running?.worker === worker) running = undefined;
      // Whatever it was importing is unknown: committed or not, the client is told to retry (an import is an upsert).
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(serviceUnavailable('the import could not be completed; retry it', RETRY_AFTER_SECONDS));
      }
    });
    return { worker, ready };
  }

  /** The running thread, started again after it ended. */
  async function thread(): Promise<Worker> {
    running ??= spawn();
    const { worker, ready } = running;
    await ready.catch((error: unknown) => {
      throw serviceUnavailable(`the import thread is not available: ${error instanceof Error ? error.message : String(error)}`, RETRY_AFTER_SECONDS);
    });
    return worker;
  }

  return deps.background.own({
    name: 'import thread',

    async importChecked(dataset: Dataset) {
      const worker = await thread();
      const id = nextId++;
      const answer = new Promise<ImportResult>((resolve, reject) => pending.set(id, { resolve, reject }));
      post(worker, { type: 'import', id, dataset, now: deps.clock.now() });
      return answer;
    },

    async start(jobLog) {
      log = jobLog;
      await thread();
    },

    async stop() {
      const current = running;
      if (current === undefined) return;
      running = undefined;
      const exited = once(current.worker, 'exit');
      post(current.worker, { type: 'stop' });
      const timer = setTimeout(() => void current.worker.terminate(), STOP_WITHIN_MS);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

/** What the serving thread does with what the import thread tells it. */
function tellingTo(deps: Pick<ImportThreadDeps, 'changes' | 'recent'>, pending: Map<number, Pending>): (message: FromImportThread) => Promise<void> {
  const { changes, recent } = deps;
  const settle = (id: number): Pending | undefined => {
    const waiting = pending.get(id);
    pending.delete(id);
    return waiting;
  };
  return async (message) => {
    switch (message.type) {
      case 'hold':
        recent.hold(message.after, message.rows);
        return;
      case 'changed':
        // A failed read is retried by the feed's own poll.
        await changes.changedInProcess(message.name).catch(() => {});
        return;
      case 'done':
        // The import's 'changed' came first and has been read: a read after the answer is not served from the cache before it.
        settle(message.id)?.resolve(message.result);
        return;
      case 'failed':
        settle(message.id)?.reject(errorOfThread(message.error));
        return;
      default:
        return;
    }
  };
}

/** The thread, started; run from the sources (tests, `tsx`), it loads TypeScript as this thread does, with this project's tsx. */
function startWorker(entry: URL, workerData: unknown): Worker {
  const fromSources = entry.pathname.endsWith('.ts');
  const worker = new Worker(entry, { workerData, ...(fromSources ? { execArgv: ['--import', import.meta.resolve('tsx')] } : {}) });
  // A process whose serving has stopped is not kept alive by an idle thread.
  worker.unref();
  return worker;
}

function post(worker: Worker, message: ToImportThread): void {
  worker.postMessage(message);
}
