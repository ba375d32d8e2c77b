import { readFileSync } from 'node:fs';
import { TIER_TABLE } from '../../src/modules/policy/index.js';
import type { BenchDatabase } from '../databases.js';
import type { EventLoopDelay } from '../event-loop-probe.js';
import type { Build } from '../feed/builds.js';
import { guarded } from '../feed/cleanup.js';
import { type Listener, runFeed, slateOf } from '../feed/feeder.js';
import { ADMIN_TOKEN, feedRows, onFreshDatabase } from '../feed/phases.js';
import { cpuTicks } from '../load.js';
import { bearerFor } from '../scenarios/data.js';
import { probe } from '../scenarios/event-loop.js';
import { quantiles, rssMb } from '../scenarios/history.js';
import { call } from '../scenarios/http.js';
import { startFleet } from './fleet.js';
import { monotonicMs, type StreamReport } from './protocol.js';

export interface CapacityOptions {
  scale: number;
  pgServer: string | undefined;
  seconds: number;
  /** Changes per second the feed imports. */
  rate: number;
  /** Child processes that read the streams. */
  processes: number;
  /** What each stream follows: every change, or only the probe's event's. */
  follow: 'all' | 'event';
}

/** One count of streams on one database: a row of the table. */
export interface CapacityPoint {
  database: BenchDatabase;
  streams: number;
  clients: number;
  openSeconds: number;
  achieved: number;
  /** The import requests' duration, ms: the part of change-to-client before the change has committed. */
  importP50: number;
  importP99: number;
  /** Change-to-client, ms: from each import's request to each stream's receipt of its probe change. */
  p50: number;
  p99: number;
  samples: number;
  /** Probe changes some stream had not received 10 s after the feed, and the streams short of one. */
  missed: number;
  behind: number;
  /** Streams the server ended, or whose connection failed, before the bench closed them. */
  dropped: number;
  rssBefore: number;
  rssOpen: number;
  rssAfter: number;
  loop: EventLoopDelay;
  /** Server CPU-ms per 1,000 changes imported: the feed alone, and the feed with the streams open. */
  cpuAlone: number;
  cpuWith: number;
}

const WARMUP_MS = 2000;
/** Lets the garbage of what came before be collected before the RSS is read. */
const SETTLE_MS = 1500;
/** How long the streams have, after the feed, to receive its last changes. */
const CATCH_UP_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Open files the limit allows this process (and so the server and the stream clients it starts). */
function openFilesLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === undefined || soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
}

/**
 * An API key per stream: the enterprise tier holds the most open streams per client
 * (TIER_TABLE), so as many enterprise clients as needed, each key used for that many streams.
 */
async function streamKeys(url: string, count: number): Promise<{ keys: string[]; clients: number }> {
  const cap = TIER_TABLE.enterprise.streams;
  const clients: string[] = [];
  for (let i = 0; i < Math.ceil(count / cap); i += 1) {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    clients.push((await call<{ api_key: string }>(url, 'POST', '/admin/v1/clients', { headers, body: { name: `Streams ${i}`, tier: 'enterprise', auth_method: 'both' } })).api_key);
  }
  return { keys: Array.from({ length: count }, (_, i) => clients[Math.floor(i / cap)] ?? ''), clients: clients.length };
}

/** Server CPU-ms (user + system, /proc) per 1,000 changes over `work`, which returns the changes imported. */
async function cpuPer1000(pid: number, work: () => Promise<number>): Promise<number> {
  const before = cpuTicks(pid) ?? Number.NaN;
  const changes = await work();
  return (((cpuTicks(pid) ?? Number.NaN) - before) * 10 * 1000) / changes;
}

/** Change-to-client of every stream: its n-th probe change against the feed's n-th batch. */
function latencies(reports: StreamReport[], asked: number[]) {
  const delays: number[] = [];
  let [missed, behind, extra] = [0, 0, 0];
  for (const report of reports) {
    for (let n = 0; n < Math.min(report.seen.length, asked.length); n += 1) delays.push((report.seen[n] ?? 0) - (asked[n] ?? 0));
    missed += Math.max(0, asked.length - report.seen.length);
    if (report.seen.length < asked.length) behind += 1;
    if (report.seen.length > asked.length) extra += 1;
  }
  // The pairing assumes each stream saw only the measured batches' probes: one that saw more makes the figures wrong.
  if (extra > 0) throw new Error(`${extra} streams saw more probe changes than the feed sent: the pairing of changes with imports is off`);
  return { ...quantiles(delays), missed, behind };
}

/**
 * `count` odds streams on one server with a fresh demo database: the feed alone (warm-up, then its
 * CPU time), the streams opened from the child processes, the feed with them open, and what each
 * stream received.
 */
export async function measureCapacity(build: Build, database: BenchDatabase, count: number, options: CapacityOptions): Promise<CapacityPoint> {
  // The server holds a socket per stream, and so do the stream clients between them.
  if (openFilesLimit() < count + 1024) throw new Error(`${count} streams need more open files than this process may have (${openFilesLimit()}): raise it first, e.g. \`ulimit -n ${count + 4096}\``);
  return onFreshDatabase(build, database, options, {}, async (api, demo) => {
    const pid = api.child.pid ?? 0;
    const authorization = await bearerFor(api.url, demo);
    const slate = slateOf(await feedRows(api.url, { authorization }));
    const { keys, clients } = await streamKeys(api.url, count);
    const feed = (listeners: Listener[], ms: number) => runFeed(api.url, ADMIN_TOKEN, slate, options.rate, listeners, () => sleep(ms));
    await feed([], WARMUP_MS);
    const cpuAlone = await cpuPer1000(pid, async () => (await feed([], options.seconds * 1000)).imported);
    await sleep(SETTLE_MS);
    const rssBefore = rssMb(pid);
    const fleet = await startFleet(options.processes);
    return guarded(fleet.close, async () => {
      const opening = performance.now();
      const only = options.follow === 'event' ? `?event_ids=${slate.probe.event_id}` : '';
      await fleet.open(`${api.url}/v1/stream/odds${only}`, keys, `"odds_id":${slate.probe.id},`);
      const openSeconds = (performance.now() - opening) / 1000;
      await sleep(SETTLE_MS);
      const rssOpen = rssMb(pid);
      // The time of each import's request, on the clock the stream clients stamp their receipts with.
      const asked: number[] = [];
      const stamp: Listener = () => {
        asked.push(monotonicMs());
        return Promise.resolve(undefined);
      };
      await probe(api.child, 'event-loop:reset');
      let achieved = 0;
      let imports = quantiles([]);
      let loop: EventLoopDelay | undefined;
      const cpuWith = await cpuPer1000(pid, async () => {
        const fed = await feed([stamp], options.seconds * 1000);
        achieved = fed.imported / fed.seconds;
        imports = quantiles(fed.importMs);
        loop = (await probe(api.child, 'event-loop:read')) as EventLoopDelay;
        // The fan-out of the last imports counts too: the CPU time is read once the streams have them.
        const deadline = performance.now() + CATCH_UP_MS;
        while ((await fleet.progress()).fewestSeen < asked.length && performance.now() < deadline) await sleep(200);
        return fed.imported;
      });
      const rssAfter = rssMb(pid);
      const reports = await fleet.report();
      const heard = latencies(reports, asked);
      return {
        database,
        streams: count,
        clients,
        openSeconds,
        achieved,
        importP50: imports.p50,
        importP99: imports.p99,
        p50: heard.p50,
        p99: heard.p99,
        samples: heard.samples.length,
        missed: heard.missed,
        behind: heard.behind,
        dropped: reports.filter((r) => r.ended).length,
        rssBefore,
        rssOpen,
        rssAfter,
        loop: loop ?? { type: 'event-loop-delay', p50Ms: Number.NaN, p99Ms: Number.NaN, maxMs: Number.NaN, samples: 0 },
        cpuAlone,
        cpuWith,
      };
    });
  });
}
