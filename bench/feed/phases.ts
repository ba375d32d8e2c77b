import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCredentialsFile } from '../../src/modules/demo/index.js';
import { openStream, type SseStream } from '../../test/helpers/sse.js';
import { isBoardEventOf } from '../board.js';
import { type BenchDatabase, throwawayDatabase } from '../databases.js';
import { cpuTicks, measure, type Scenario } from '../load.js';
import { benchEnv } from '../local-demo.js';
import { type Running, startApi } from '../processes.js';
import type { DemoCredentials } from '../run.js';
import { busiestEvent, bearerFor } from '../scenarios/data.js';
import { probe } from '../scenarios/event-loop.js';
import { quantiles } from '../scenarios/history.js';
import { call, type PageOfItems } from '../scenarios/http.js';
import type { EventLoopDelay } from '../event-loop-probe.js';
import type { Build } from './builds.js';
import { guarded } from './cleanup.js';
import { startUpstream, type Upstream } from './upstream.js';
import { receiversEnv, startReceivers } from '../webhooks/receivers.js';
import { BATCH, type Listener, type OddsRow, openRowsOf, runFeed, type Slate, slateOf } from './feeder.js';

export interface FeedOptions {
  scale: number;
  seconds: number;
  warmupSeconds: number;
  rates: number[];
  connections: number;
  pgServer: string | undefined;
  /** A local upstream (bench/feed/upstream.ts) the server under test polls beside the feed. */
  upstream: boolean;
  /** Webhook endpoints subscribed to odds.changed on local receivers while the feed runs (0: none). */
  webhooks?: number;
}

/** The upstream poller over one build's run: odds answers served, prices moved, and what the server says it imported. */
export interface UpstreamSeen {
  polls: number;
  moved: number;
  /** `/readyz`'s `upstream.rows_imported` at the end (undefined from a build without the feed). */
  rowsImported: number | undefined;
  state: string | undefined;
}

/** One build's figures at one feed rate (a row of the table, before the rounds' medians). */
export interface RatePoint {
  rate: number;
  achieved: number;
  importP50: number;
  importP99: number;
  readsKept: number;
  streamP99: number;
  /** Undefined where the build has no board events. */
  boardP99: number | undefined;
  loopP99: number;
  loopMax: number;
  cpuMsPer1000: number;
  /** Of it, the serving (main) thread's: the rest is the import thread's, and the runtime's own (the garbage collector's, the compiler's). */
  mainCpuMsPer1000: number;
  upstream?: UpstreamSeen;
}

export const ADMIN_TOKEN = 'bench-admin-token-bench-admin-token-0123456789';

/**
 * A fresh database of `build`'s own making (its CLI: `migrate --create`, then `demo-data`), and
 * that build's server on it with the event-loop probe, handed to `use`; everything removed after.
 * Also the streams' benchmark's (bench/streams.ts).
 */
export async function onFreshDatabase<T>(build: Build, database: BenchDatabase, options: Pick<FeedOptions, 'scale' | 'pgServer'>, extraEnv: Record<string, string>, use: (api: Running, demo: DemoCredentials) => Promise<T>): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), 'sportsdata-feed-'));
  return guarded(
    () => rmSync(work, { recursive: true, force: true }),
    async () => {
      const store = await throwawayDatabase(database, work, options.pgServer);
      return guarded(store.drop, async () => {
        const env = { ...benchEnv(work), ADMIN_TOKEN, DATABASE_URL: store.url, LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '1000000' };
        for (const command of [['migrate', '--create'], ['demo-data', '--scale', String(options.scale), ...matchupsOnly(build)]]) {
          execFileSync(process.execPath, [join(build.dir, 'bin/sportsdata.js'), ...command], { cwd: build.dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
        }
        let api: Running | undefined;
        return guarded(
          () => api?.stop(),
          async () => {
            api = await startApi({ ...env, ...extraEnv }, { probe: true, dir: build.dir });
            const demo = JSON.parse(readFileSync(demoCredentialsFile(work, store.url), 'utf8')) as DemoCredentials;
            return use(api, demo);
          },
        );
      });
    },
  );
}

/**
 * What leaves the competitions out of a build's `demo-data`, which adds them by default since
 * decision 0331: every build measured on the matchups alone. A build from before knows no
 * `--no-competitions` (and adds none), so it is asked by its own help whether it does.
 */
function matchupsOnly(build: Build): string[] {
  const help = execFileSync(process.execPath, [join(build.dir, 'bin/sportsdata.js'), 'demo-data', '--help'], { cwd: build.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return help.includes('--no-competitions') ? ['--no-competitions'] : [];
}

/** The open main-line rows of the first days' events, until there are a few batches of them. */
export async function feedRows(url: string, headers: Record<string, string>): Promise<OddsRow[]> {
  const rows: OddsRow[] = [];
  for (let day = 0; day < 4 && rows.length < 4 * BATCH; day += 1) {
    const event_date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    const events = await call<PageOfItems<{ id: number }>>(url, 'POST', '/v1/events/upcoming-events', { headers, body: { event_date, page_size: 100 } });
    rows.push(...(await openRowsOf(url, headers, events.results.map((e) => e.id))));
  }
  return rows;
}

/** The odds page the reads ask for: the busiest upcoming event's first 100 odds, as a client reads them (cached). */
async function readScenario(url: string, authorization: string, pid: number | undefined): Promise<Scenario> {
  const busiest = await busiestEvent(url, { authorization });
  return {
    name: 'POST odds/upcoming-odds-by-event, page of 100',
    ...(pid === undefined ? {} : { pid }),
    requests: [
      {
        method: 'POST',
        path: '/v1/odds/upcoming-odds-by-event',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ event_id: busiest.id, page_size: 100 }),
      },
    ],
  };
}

/**
 * The streams a feed phase listens on: price changes of the probe's event, and its board events
 * where the build has them (a build without refuses `types=board` as an unknown field: 422).
 */
async function listenersFor(url: string, apiKey: string, slate: Slate): Promise<{ listeners: Listener[]; board: boolean; close(): void }> {
  const streams: SseStream[] = [];
  const close = () => streams.forEach((s) => s.close());
  try {
    const only = `event_ids=${slate.probe.event_id}`;
    const odds = await openStream(`${url}/v1/stream/odds?${only}`, { 'x-api-key': apiKey });
    streams.push(odds);
    if (odds.status !== 200) throw new Error(`the odds stream answered ${odds.status}: ${odds.error}`);
    const oddsHeard = sharedListening(odds);
    const listeners: Listener[] = [(row, price) => oddsHeard(isPriceChangeOf(row, price))];
    const board = await openStream(`${url}/v1/stream/odds?types=board&${only}`, { 'x-api-key': apiKey });
    streams.push(board);
    if (board.status === 200) {
      const boardHeard = sharedListening(board);
      listeners.push((row, price) => boardHeard(isBoardEventOf(row, price)));
    }
    else if (board.status !== 422) throw new Error(`the board stream answered ${board.status}: ${board.error}`);
    return { listeners, board: board.status === 200, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** How long a probe is listened for before it counts as not heard. */
const HEARD_WITHIN_MS = 10_000;

/**
 * One reader of `stream` for every probe listened for at once: the feed does not wait for one
 * probe before the next import, so several are pending, and each event is offered to all of them
 * (readers of their own would take each other's events). Resolves each with when its event came
 * (performance.now()), or undefined after HEARD_WITHIN_MS or once the stream ends.
 */
function sharedListening(stream: SseStream): (matches: (data: unknown) => boolean) => Promise<number | undefined> {
  const waiting = new Set<{ matches: (data: unknown) => boolean; resolve: (at: number | undefined) => void }>();
  let ended = false;
  void stream.ended.then(() => (ended = true));
  void (async () => {
    while (!ended) {
      let event;
      try {
        event = await stream.next(HEARD_WITHIN_MS);
      } catch {
        // No event for a while is not the end; the stream's end is.
        continue;
      }
      const at = performance.now();
      const data: unknown = JSON.parse(event.data);
      for (const waiter of [...waiting]) {
        if (!waiter.matches(data)) continue;
        waiting.delete(waiter);
        waiter.resolve(at);
      }
    }
    for (const waiter of waiting) waiter.resolve(undefined);
    waiting.clear();
  })();
  return (matches) =>
    new Promise((resolve) => {
      const waiter = { matches, resolve };
      waiting.add(waiter);
      setTimeout(() => {
        if (waiting.delete(waiter)) resolve(undefined);
      }, HEARD_WITHIN_MS).unref();
    });
}

/** The stream's price change of the probe to its new price. */
const isPriceChangeOf = (row: OddsRow, price: number) => (data: unknown) => {
  const change = data as { odds_id: number; price_decimal: { to: number } };
  return change.odds_id === row.id && change.price_decimal.to === price;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One build on one database, at each rate: a warm-up of the feed, reads without the feed (the
 * baseline, taken right before the phase it is compared with, so that a slow moment of the machine
 * hits both or neither), the feed under reads with the streams listening and the event loop
 * measured, and the feed alone for the server's CPU time per change.
 */
export async function measureBuild(build: Build, database: BenchDatabase, options: FeedOptions): Promise<RatePoint[]> {
  if (!options.upstream) return measureOn(build, database, options, undefined);
  const upstream = await startUpstream();
  return guarded(upstream.close, () => measureOn(build, database, options, upstream));
}

/** The demo's Premier League teams, by name: the upstream's events are between them, so that they match stored teams. */
async function premierLeagueTeams(url: string, authorization: string): Promise<string[]> {
  const teams = await call<PageOfItems<{ name: string }>>(url, 'GET', '/v1/references/teams?league_key=premier-league&page_size=50', { headers: { authorization } });
  return teams.results.map((t) => t.name);
}

/** What the poller did over the run, as the upstream and the server's /readyz tell it. */
async function upstreamSeen(url: string, upstream: Upstream): Promise<UpstreamSeen> {
  const ready = (await (await fetch(`${url}/readyz`)).json()) as { upstream?: { state: string; rows_imported: number } };
  return { polls: upstream.served().odds, moved: upstream.served().moved, rowsImported: ready.upstream?.rows_imported, state: ready.upstream?.state };
}

async function measureOn(build: Build, database: BenchDatabase, options: FeedOptions, upstream: Upstream | undefined): Promise<RatePoint[]> {
  const webhooks = options.webhooks ?? 0;
  const env = { ...upstream?.env, ...(webhooks > 0 ? receiversEnv(webhooks) : {}) };
  return onFreshDatabase(build, database, options, env, async (api, demo) => {
    const authorization = await bearerFor(api.url, demo);
    if (webhooks === 0) return measureAll(api, demo, authorization, options, upstream);
    const receivers = await startReceivers(webhooks);
    return guarded(receivers.close, async () => {
      await receivers.register(api.url, authorization, webhooks);
      return measureAll(api, demo, authorization, options, upstream);
    });
  });
}

async function measureAll(api: Running, demo: DemoCredentials, authorization: string, options: FeedOptions, upstream: Upstream | undefined): Promise<RatePoint[]> {
  upstream?.play(await premierLeagueTeams(api.url, authorization));
  const read = await readScenario(api.url, authorization, api.child.pid);
  const slate = slateOf(await feedRows(api.url, { authorization }));
  // The probes of batches in flight at once are told apart by their price.
  slate.uniqueProbe = true;
  const load = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  // Warms the reads' path (JIT, caches) once, before any baseline.
  await measure(api.url, read, load);
  const points: RatePoint[] = [];
  for (const rate of options.rates) {
    // Open: each import goes at its time, as a live feed's do, whether or not the last one's probe has been heard
    // (board events come up to a processor's window late; a closed loop would slow the feed to their pace).
    const feed = <T>(listeners: Listener[], during: () => Promise<T>) => runFeed(api.url, ADMIN_TOKEN, slate, rate, listeners, during, { open: true });
    await feed([], () => sleep(options.warmupSeconds * 1000));
    const baseline = await measure(api.url, read, { ...load, warmupSeconds: 0 });
    const streams = await listenersFor(api.url, demo.api_key, slate);
    const underReads = await guarded(streams.close, async () => {
      await probe(api.child, 'event-loop:reset');
      const fed = await feed(streams.listeners, () => measure(api.url, read, { ...load, warmupSeconds: 0 }));
      return { fed, loop: (await probe(api.child, 'event-loop:read')) as EventLoopDelay };
    });
    const cpuBefore = cpuTicks(api.child.pid);
    const mainBefore = cpuTicks(api.child.pid, { mainThread: true });
    const alone = await feed([], () => sleep(options.seconds * 1000));
    const cpuMs = ((cpuTicks(api.child.pid) ?? Number.NaN) - (cpuBefore ?? Number.NaN)) * 10;
    const mainCpuMs = ((cpuTicks(api.child.pid, { mainThread: true }) ?? Number.NaN) - (mainBefore ?? Number.NaN)) * 10;
    const { fed, loop } = underReads;
    const imports = quantiles(fed.importMs);
    points.push({
      rate,
      achieved: fed.imported / fed.seconds,
      importP50: imports.p50,
      importP99: imports.p99,
      readsKept: fed.during.reqPerSec / baseline.reqPerSec,
      streamP99: quantiles(fed.heard[0]?.delays ?? []).p99,
      boardP99: streams.board ? quantiles(fed.heard[1]?.delays ?? []).p99 : undefined,
      loopP99: loop.p99Ms,
      loopMax: loop.maxMs,
      cpuMsPer1000: (cpuMs / alone.imported) * 1000,
      mainCpuMsPer1000: (mainCpuMs / alone.imported) * 1000,
    });
  }
  if (upstream === undefined) return points;
  const seen = await upstreamSeen(api.url, upstream);
  return points.map((point) => ({ ...point, upstream: seen }));
}
