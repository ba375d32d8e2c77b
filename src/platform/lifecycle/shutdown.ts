import type { Server } from 'node:http';
import type { Draining } from './draining.js';
import { trackInFlight } from './in-flight.js';
import type { LifecycleLog } from './log.js';

export interface ShutdownPlan {
  server: Server;
  log: LifecycleLog;
  draining: Draining;
  /** SHUTDOWN_DRAIN_MS: how long /readyz answers 503 before the listener closes. */
  drainMs: number;
  /** SHUTDOWN_TIMEOUT: from the end of the drain, how long closing may take before the process exits regardless. */
  timeoutMs: number;
  /** Closes the app (its listener; resolves once its connections are gone), then everything else. */
  close(): Promise<void>;
  exit(code: number): void;
}

const SETTLE_CHECK_MS = 25;

/**
 * SIGTERM and SIGINT: drain (/readyz 503 for drainMs) → the listener closes → requests in
 * flight finish → the remaining connections (idle keep-alive, half-sent requests) are closed →
 * exit 0. A client that never finishes its request cannot hold the process: timeoutMs after the
 * drain it exits with 1. Further signals during the shutdown are logged and ignored (Ctrl-C in a
 * terminal signals every process of a cluster, and the primary then signals its workers too).
 * Install before listening, so every request is counted. Returns a function that uninstalls it.
 */
export function installGracefulShutdown(plan: ShutdownPlan): () => void {
  const { server, log, draining, drainMs, timeoutMs } = plan;
  const requests = trackInFlight(server);
  let started = false;

  async function shutDown(signal: NodeJS.Signals): Promise<void> {
    log.info({ signal, drain_ms: drainMs, timeout_ms: timeoutMs }, 'shutting down');
    draining.start();
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    const deadline = setTimeout(() => {
      log.warn({ requests_in_flight: requests.count(), timeout_ms: timeoutMs }, 'shutdown timeout: exiting with connections still open');
      plan.exit(1);
    }, timeoutMs);
    const closing = plan.close();
    // Node's server.close() waits for every connection, and Fastify closes only the idle ones: a
    // half-sent request, or a keep-alive connection that went idle after its answer, would hold
    // the process. Once the listener is closed and nothing reached the app is unanswered, every
    // connection left is one of those.
    const sweeper = setInterval(() => {
      if (server.listening || requests.count() > 0) return;
      server.closeAllConnections();
    }, SETTLE_CHECK_MS);
    try {
      await closing;
      plan.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      plan.exit(1);
    } finally {
      clearInterval(sweeper);
      clearTimeout(deadline);
    }
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      log.info({ signal }, 'already shutting down');
      return;
    }
    started = true;
    void shutDown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}
