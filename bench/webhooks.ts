import { writeFileSync } from 'node:fs';
import { benchArgs, type BenchDatabase } from './databases.js';
import { guarded } from './feed/cleanup.js';
import { type Listener, runFeed, slateOf, type Slate } from './feed/feeder.js';
import { ADMIN_TOKEN, feedRows, type FeedOptions, onFreshDatabase } from './feed/phases.js';
import type { Running } from './processes.js';
import { cpuTicks } from './load.js';
import { bearerFor } from './scenarios/data.js';
import { quantiles } from './scenarios/history.js';
import { type Receivers, receiversEnv, startReceivers } from './webhooks/receivers.js';

/**
 * `npx tsx bench/webhooks.ts [--database sqlite|postgres|both] [--rates 1000,4000] [--endpoints 50]
 * [--seconds 10] [--down-seconds 60] [--pg URL] [--out FILE]`: what webhooks cost and how fast they
 * arrive, on one node.
 *
 * Each database gets a fresh demo database (the build's own CLI) and the server on it
 * (NODE_ENV=production, loopback allowed by OUTBOUND_ALLOW_CIDRS). `--endpoints` endpoints, each
 * subscribed to odds.changed without filters, point at one local HTTP server of this process that
 * answers 200 at once. Then, at each rate, the import feed of bench/feed (batches of 500 price
 * changes) for `--seconds`, measuring:
 * - import-to-2xx p50/p99: from each import's request to the delivery carrying its probe change
 *   reaching each receiver (the commit is inside the request, so this bounds commit-to-2xx);
 * - the pending deliveries' depth, sampled from /metrics every 250 ms (its peak: bounded, or growing);
 * - deliveries a second per endpoint (the batching: a few a second, whatever the feed);
 * - the server's CPU-ms per 1,000 changes with every endpoint subscribed.
 * Last, one receiver answers 503 for `--down-seconds` under a 1,000/s feed, then 200 again: the
 * time from then until it holds every sequence its healthy twin holds (the retry schedule's next
 * attempt included), and whether its sequences arrived in order with repeats only of retried ids.
 */
const args = process.argv.slice(2);
const { flag, databases: databasesOf } = benchArgs(args);
const seconds = Number(flag('seconds') ?? 10);
const endpoints = Number(flag('endpoints') ?? 50);
const downSeconds = Number(flag('down-seconds') ?? 60);
const rates = (flag('rates') ?? '1000,4000').split(',').map(Number);
const options: FeedOptions = { scale: 1, seconds, warmupSeconds: 2, rates, connections: 0, pgServer: flag('pg') ?? process.env.TEST_DATABASE_URL, upstream: false };
const env = receiversEnv(endpoints);

interface RatePoint {
  rate: number;
  achieved: number;
  p50: number;
  p99: number;
  heard: number;
  expected: number;
  depthPeak: number;
  perEndpointPerSecond: number;
  cpuMsPer1000: number;
}

interface Outage {
  downSeconds: number;
  drainedSeconds: number | undefined;
  inOrder: boolean;
  gapless: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pending deliveries /metrics reports (the gauge's sum over its labels), undefined when absent. */
async function pendingDepth(url: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const lines = text.split('\n').filter((line) => /^webhook_backlog_deliveries(\{[^}]*\})? /.test(line));
  return lines.length === 0 ? undefined : lines.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/** Samples the depth every 250 ms while `during` runs; the peak seen. */
async function peakDepth<T>(url: string, during: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, (await pendingDepth(url).catch(() => undefined)) ?? 0);
      await sleep(250);
    }
  })();
  try {
    return { result: await during(), peak };
  } finally {
    running = false;
    await sampler;
  }
}

const listenersOf = (receivers: Receivers, count: number): Listener[] =>
  Array.from({ length: count }, (_, i): Listener => (probe, price) => receivers.waitFor(i, probe.id, price));

async function atRate(api: Running, receivers: Receivers, slate: Slate, rate: number): Promise<RatePoint> {
  const before = Array.from({ length: endpoints }, (_, i) => receivers.received(i).deliveries);
  const cpuBefore = cpuTicks(api.child.pid);
  const { result: fed, peak } = await peakDepth(api.url, () => runFeed(api.url, ADMIN_TOKEN, slate, rate, listenersOf(receivers, endpoints), () => sleep(seconds * 1000), { open: true }));
  const cpuMs = ((cpuTicks(api.child.pid) ?? Number.NaN) - (cpuBefore ?? Number.NaN)) * 10;
  const delays = fed.heard.flatMap((h) => h.delays);
  const latency = quantiles(delays);
  const delivered = Array.from({ length: endpoints }, (_, i) => receivers.received(i).deliveries - (before[i] ?? 0));
  return {
    rate,
    achieved: fed.imported / fed.seconds,
    p50: latency.p50,
    p99: latency.p99,
    heard: delays.length,
    expected: (fed.imported / 500) * endpoints,
    depthPeak: peak,
    perEndpointPerSecond: delivered.reduce((a, b) => a + b, 0) / endpoints / fed.seconds,
    cpuMsPer1000: (cpuMs / fed.imported) * 1000,
  };
}

/** Receiver 0 down under a 1,000/s feed, then up: how long until it holds what receiver 1 holds. */
async function outage(api: Running, receivers: Receivers, slate: Slate): Promise<Outage> {
  receivers.setDown(0, true);
  await runFeed(api.url, ADMIN_TOKEN, slate, 1_000, [], () => sleep(downSeconds * 1000));
  receivers.setDown(0, false);
  const up = performance.now();
  const newest = (i: number) => Math.max(0, ...receivers.received(i).sequences);
  // The healthy twin's newest, once its deliveries have stopped coming.
  await sleep(2_000);
  const target = newest(1);
  let drainedSeconds: number | undefined;
  while (performance.now() - up < 15 * 60_000) {
    if (newest(0) >= target) {
      drainedSeconds = (performance.now() - up) / 1000;
      break;
    }
    await sleep(200);
  }
  const sequences = receivers.received(0).sequences;
  const inOrder = sequences.every((s, i) => i === 0 || s >= (sequences[i - 1] ?? 0));
  const distinct = [...new Set(sequences)];
  const gapless = distinct.every((s, i) => s === (distinct[0] ?? 1) + i);
  return { downSeconds, drainedSeconds, inOrder, gapless };
}

async function measureOn(database: BenchDatabase): Promise<{ points: RatePoint[]; outage: Outage | undefined }> {
  return onFreshDatabase({ name: 'this checkout', dir: process.cwd() }, database, options, env, async (api, demo) => {
    const authorization = await bearerFor(api.url, demo);
    const receivers = await startReceivers(endpoints);
    return guarded(receivers.close, async () => {
      const slate = slateOf(await feedRows(api.url, { authorization }));
      slate.uniqueProbe = true;
      await receivers.register(api.url, `${authorization}`, endpoints);
      // Warms the path (JIT, the former's and the dispatcher's first runs).
      await runFeed(api.url, ADMIN_TOKEN, slate, 1_000, [], () => sleep(2_000));
      const points: RatePoint[] = [];
      for (const rate of rates) points.push(await atRate(api, receivers, slate, rate));
      return { points, outage: downSeconds > 0 && endpoints > 1 ? await outage(api, receivers, slate) : undefined };
    });
  });
}

const f = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const lines: string[] = [];
for (const database of databasesOf('sqlite')) {
  const { points, outage: down } = await measureOn(database);
  const printed = lines.length;
  lines.push(`\n${database}: ${endpoints} endpoints subscribed to odds.changed, ${seconds} s a rate`);
  lines.push('| changes/s asked | achieved | import-to-2xx p50 / p99 ms | probes heard / expected | pending depth peak | deliveries/s per endpoint | CPU-ms per 1,000 changes |');
  lines.push('|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of points) {
    lines.push(`| ${p.rate} | ${f(p.achieved, 0)} | ${f(p.p50)} / ${f(p.p99)} | ${p.heard} / ${f(p.expected, 0)} | ${p.depthPeak} | ${f(p.perEndpointPerSecond)} | ${f(p.cpuMsPer1000)} |`);
  }
  if (down !== undefined) {
    lines.push(
      `receiver down ${down.downSeconds} s under 1,000 changes/s: caught up ${f(down.drainedSeconds)} s after it came back; sequences in order: ${down.inOrder}; gapless: ${down.gapless}`,
    );
  }
  // Each database's table as soon as it is measured: a later failure keeps it.
  console.log(lines.slice(printed).join('\n'));
}
const report = lines.join('\n');
const out = flag('out');
if (out !== undefined) writeFileSync(out, `${report}\n`);
