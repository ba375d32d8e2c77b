import type { Server } from 'node:http';
import type { Draining } from './draining.js';
import { trackConnections } from './connections.js';
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

/** How often idle and stalled connections are looked for while the process stops. */
const SWEEP_MS = 25;

/**
 * What is kept of SHUTDOWN_TIMEOUT for exiting itself: half a second, or a quarter of a shorter
 * timeout. The deadline's timer fires on a busy event loop, and the process must be gone by the
 * bound, not start leaving then.
 */
const EXIT_MARGIN_MS = 500;
const exitMarginOf = (timeoutMs: number) => Math.min(EXIT_MARGIN_MS, timeoutMs / 4);

/**
 * SIGTERM and SIGINT: drain for drainMs (/readyz 503; every answer, those under way included,
 * with `Connection: close`; idle keep-alive connections closed) → the listener closes, and so does
 * every connection with no request in flight (idle, or stalled part-way through its request line
 * or headers) → requests in flight finish, each closing its connection → exit 0. A client that
 * never finishes its request cannot hold the process: within timeoutMs after the drain it has
 * exited, with 1. Further signals during the shutdown are logged and ignored (Ctrl-C in a terminal
 * signals every process of a cluster, and the primary then signals its workers too). Install
 * before listening, so every connection is tracked. Returns a function that uninstalls it.
 */
export function installGracefulShutdown(plan: ShutdownPlan): () => void {
  const { server, log, draining, drainMs, timeoutMs } = plan;
  const connections = trackConnections(server);
  let started = false;

  async function shutDown(signal: NodeJS.Signals): Promise<void> {
    // Counted from the signal, so that a drain timer that fired late does not push the deadline.
    const deadlineAt = Date.now() + drainMs + timeoutMs - exitMarginOf(timeoutMs);
    log.info({ signal, drain_ms: drainMs, timeout_ms: timeoutMs }, 'shutting down');
    draining.start();
    connections.closeAfterAnswers();
    // Node's server.close() waits for every connection: a half-sent request line or headers would
    // hold the process. Once the listener is closed, a connection without a request in flight
    // will never have one the app would serve.
    const sweeper = setInterval(() => connections.closeQuiet({ halfSent: !server.listening }), SWEEP_MS);
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    const deadline = setTimeout(
      () => {
        log.warn({ requests_in_flight: connections.inFlight(), timeout_ms: timeoutMs }, 'shutdown timeout: exiting with connections still open');
        plan.exit(1);
      },
      Math.max(0, deadlineAt - Date.now()),
    );
    try {
      await plan.close();
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
