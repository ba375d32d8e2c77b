import cluster, { type Worker } from 'node:cluster';
import type { LifecycleLog } from '../lifecycle/log.js';
import { startMetricsAggregator } from '../metrics/cluster.js';
import { createRestartBackoff, type RestartBackoff } from './restart-backoff.js';

export interface PrimaryOptions {
  workers: number;
  log: LifecycleLog;
  /** How long workers get to shut down (their drain and timeout, and a margin) before SIGKILL. */
  stopWithinMs: number;
  exit(code: number): void;
}

interface Slot {
  worker: Worker | undefined;
  startedAt: number;
  restart: NodeJS.Timeout | undefined;
  backoff: RestartBackoff;
}

/**
 * The cluster primary: forks `workers` processes that each run the whole server on one shared
 * port (node:cluster hands connections round-robin), replaces a worker that dies (with a
 * backoff when they keep dying), and on SIGTERM/SIGINT signals every worker, which runs its own
 * graceful shutdown, then exits once all are gone. It serves nothing and opens no database.
 */
export function runPrimary(options: PrimaryOptions): void {
  const { log } = options;
  const slots: Slot[] = Array.from({ length: options.workers }, () => ({
    worker: undefined,
    startedAt: 0,
    restart: undefined,
    backoff: createRestartBackoff(),
  }));
  let stopping = false;

  // A scrape of /metrics on any worker sees the whole node: the primary sums every worker's registry.
  const metrics = startMetricsAggregator();

  const fork = (slot: Slot) => {
    slot.restart = undefined;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    log.info({ worker_pid: worker.process.pid, worker: worker.id }, 'worker started');
  };

  cluster.on('listening', (worker, address) => {
    log.info({ worker_pid: worker.process.pid, worker: worker.id, port: address.port }, 'worker listening');
  });

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.find((s) => s.worker === worker);
    if (slot === undefined) return;
    slot.worker = undefined;
    const fields = { worker_pid: worker.process.pid, worker: worker.id, code, signal };
    if (stopping) {
      log.info(fields, 'worker stopped');
      if (slots.every((s) => s.worker === undefined)) finish(0);
      return;
    }
    const delay = slot.backoff.next(Date.now() - slot.startedAt);
    log.warn({ ...fields, restart_in_ms: delay }, 'worker exited; replacing it');
    slot.restart = setTimeout(() => fork(slot), delay);
  });

  let deadline: NodeJS.Timeout | undefined;
  const finish = (code: number) => {
    metrics.stop();
    clearTimeout(deadline);
    log.info({ code }, 'every worker has stopped');
    options.exit(code);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.info({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    log.info({ signal, workers: slots.filter((s) => s.worker).length }, 'shutting down the workers');
    for (const slot of slots) clearTimeout(slot.restart);
    const live = slots.flatMap((s) => (s.worker ? [s.worker] : []));
    if (live.length === 0) return finish(0);
    // Each worker drains, finishes its requests and exits on its own (platform/lifecycle/shutdown.ts).
    for (const worker of live) worker.process.kill('SIGTERM');
    deadline = setTimeout(() => {
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      log.warn({ stop_within_ms: options.stopWithinMs }, 'workers did not stop in time; killed');
      options.exit(1);
    }, options.stopWithinMs);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  for (const slot of slots) fork(slot);
}
