import cluster from 'node:cluster';
import { type Config, workersProblem } from './config.js';
import { runPrimary } from './platform/cluster/primary.js';
import { createLogger } from './platform/logging.js';
import { cannotStart, startServer } from './serve.js';

/** A worker gets this long beyond its own drain and timeout before the primary kills it. */
const STOP_MARGIN_MS = 5000;

/**
 * Serves with `config.workers` processes: one serves in this process; more run a node:cluster
 * primary here that forks them. Each worker is the same program started again (same script,
 * arguments and environment), so it reaches this function too and, being a worker, serves.
 */
export async function serve(config: Config): Promise<void> {
  if (config.workers <= 1) {
    await startServer(config);
    return;
  }
  const problem = workersProblem(config.workers, config.redisUrl);
  if (problem !== undefined) cannotStart(problem);
  if (cluster.isWorker) {
    await startWorker(config);
    return;
  }
  const log = createLogger(config.logLevel).child({ role: 'primary' });
  runPrimary({
    workers: config.workers,
    log,
    stopWithinMs: config.shutdownDrainMs + config.shutdownTimeoutMs + STOP_MARGIN_MS,
    exit: (code) => process.exit(code),
  });
}

async function startWorker(config: Config): Promise<void> {
  try {
    await startServer(config);
  } catch (error) {
    // The IPC channel to the primary keeps a worker's process alive: one that cannot serve
    // (database away, bad port) must exit, so that the primary replaces it after its backoff.
    cannotStart(error);
  }
}
