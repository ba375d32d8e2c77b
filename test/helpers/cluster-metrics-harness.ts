/**
 * A node of N cluster workers on one port, each running the real app, with the metrics
 * aggregator in the primary: what `serve --workers N` will be, reduced to what the metrics need.
 * Run by test/metrics/cluster.test.ts as `node --import tsx cluster-metrics-harness.ts` with
 * PORT and WORKERS in the environment.
 *
 * The primary writes one JSON line per event on stdout, each with `"harness": <event>`:
 * `ready` once every worker listens. It reads commands from stdin, one per line:
 * - `local`: every worker's own exposition (`texts`), asked of each worker directly;
 * - `stop-aggregator`: the primary stops answering scrapes (`stopped`);
 * - `probe`: one worker asks for the node's metrics with a 300 ms timeout (`probed`: scope, fallback).
 */
import cluster, { type Worker } from 'node:cluster';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/serve.js';
import { nodeMetrics, startMetricsAggregator } from '../../src/platform/metrics/cluster.js';
import type { Metrics } from '../../src/platform/metrics/metrics.js';

interface Command {
  harness: 'local' | 'probe';
}

const say = (event: string, fields: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ harness: event, ...fields })}\n`);

if (cluster.isPrimary) await primary();
else await worker();

async function primary(): Promise<void> {
  const aggregator = startMetricsAggregator();
  const count = Number(process.env.WORKERS ?? '2');
  const workers: Worker[] = [];
  await Promise.all(
    Array.from({ length: count }, () => {
      const w = cluster.fork();
      workers.push(w);
      return new Promise<void>((resolve) => w.once('listening', () => resolve()));
    }),
  );
  say('ready', { pids: workers.map((w) => w.process.pid) });

  // Asks every worker (or the first) one command and gathers their answers in fork order.
  const ask = (targets: Worker[], command: Command) =>
    Promise.all(
      targets.map(
        (w) =>
          new Promise<unknown>((resolve) => {
            const onMessage = (message: unknown) => {
              if (typeof message === 'object' && message !== null && 'harness' in message && message.harness === command.harness) {
                w.off('message', onMessage);
                resolve(message);
              }
            };
            w.on('message', onMessage);
            w.send(command);
          }),
      ),
    );

  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'local') say('local', { answers: await ask(workers, { harness: 'local' }) });
    else if (line === 'probe') say('probed', { answers: await ask(workers.slice(0, 1), { harness: 'probe' }) });
    else if (line === 'stop-aggregator') {
      aggregator.stop();
      say('stopped');
    }
  }
  // stdin closed: the test is done with this node.
  for (const w of workers) w.kill();
}

async function worker(): Promise<void> {
  // As a serving worker does: the background jobs (the metrics' sharing among them) run.
  const { ctx } = await startServer(loadConfig({ ...process.env, DATABASE_URL: 'sqlite::memory:', DEMO_DATA: 'false', DEMO_TICKER_PER_SECOND: '0', LOG_LEVEL: 'warn' }));
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || !('harness' in message)) return;
    if (message.harness === 'local') void answerLocal(ctx.metrics);
    if (message.harness === 'probe') void answerProbe(ctx.metrics);
  });
}

async function answerLocal(metrics: Metrics): Promise<void> {
  process.send?.({ harness: 'local', pid: process.pid, text: await metrics.registry.metrics() });
}

async function answerProbe(metrics: Metrics): Promise<void> {
  const scrape = await nodeMetrics(metrics.registry, 300);
  process.send?.({ harness: 'probe', pid: process.pid, scope: scrape.scope, fallback: scrape.fallback?.message ?? null });
}
