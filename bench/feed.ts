import { writeFileSync } from 'node:fs';
import { benchArgs, type BenchDatabase } from './databases.js';
import { type Build, prepareBuilds } from './feed/builds.js';
import { guarded } from './feed/cleanup.js';
import { BATCH } from './feed/feeder.js';
import { UPSTREAM_INTERVAL_S } from './feed/upstream.js';
import { type FeedOptions, measureBuild, type RatePoint } from './feed/phases.js';
import { median } from './scenarios/history.js';

/**
 * `npx tsx bench/feed.ts [--control REF] [--again] [--build DIR]… [--database sqlite|postgres|both]
 * [--rates 1000,5000,10000] [--seconds 8] [--rounds 1] [--scale 1] [--pg URL] [--out FILE] [--upstream] [--webhooks N]`:
 * what a live price feed costs, several builds side by side in one run.
 *
 * Builds: the control, a git ref (default e006314; `--control none` for none) built in a throwaway
 * worktree with this checkout's node_modules; this checkout ("main"); with `--again` this checkout a second time as
 * a build of its own ("main, again": the A/A pair, whose difference is the run's noise); and any
 * other checkout with `--build DIR` (dist/ built, node_modules installed).
 *
 * Each build, on each database (PostgreSQL: a throwaway database on --pg, default
 * TEST_DATABASE_URL), gets a fresh database made by its own CLI (`migrate --create`, `demo-data
 * --scale N`) and its own server with the event-loop probe. Then:
 * - reads: 20 connections ask a cached odds page (`POST /v1/odds/upcoming-odds-by-event`, the
 *   busiest upcoming event's first 100 odds) without a feed, the baseline, taken anew right before
 *   each rate's phase under the feed;
 * - at each rate, the feed: batches of 500 price changes through `POST /admin/v1/import`, one
 *   import after the other, a batch every 500/rate s, each at its time whether or not the last
 *   one's probe has been heard, as a live feed goes (bench/feed/feeder.ts); a warm-up of the feed
 *   alone, then the feed under the reads for `--seconds`: reads kept = their req/s over the
 *   baseline's, import p50/p99 = the import request's duration, change-to-stream p99 = from the
 *   import's request to its first row's change on an odds stream, change-to-board-event p99 the same
 *   to its board event (`types=board`; n/a for a build without board events), the event-loop delay
 *   inside the server over the phase; then the feed alone for `--seconds`: the server's CPU time
 *   (user + system, /proc) per 1,000 changes imported, the capacity that implies on one core, and the part of it
 *   spent on the serving (main) thread (the rest is the import thread's and the runtime's own).
 *
 * `--upstream`: each server also follows a local upstream answering in The Odds API v4's shape
 * (bench/feed/upstream.ts: ten events between the demo's Premier League teams, a few prices moved
 * per answer), polled every 5 s (UPSTREAM_URL, UPSTREAM_API_KEY, UPSTREAM_SPORTS,
 * UPSTREAM_INTERVAL_S), so the feed is measured with the poller importing beside it; a last column
 * gives the polls the upstream answered and the rows the server says it imported (`/readyz`), n/a
 * for a build without the feed.
 *
 * `--webhooks N`: N webhook endpoints, each subscribed to odds.changed without filters, on local
 * receivers answering 200 at once (bench/webhooks/receivers.ts; loopback allowed by
 * OUTBOUND_ALLOW_CIDRS), so the feed is measured with every change delivered N times beside it.
 * A build without webhooks refuses the endpoints: use `--control none` with it.
 *
 * `--rounds N` repeats it all with the builds' order turned each round; the table shows medians.
 * Printed at the end, and written to `--out FILE` if asked. Every server, throwaway database and
 * worktree is removed at the end, also after a failure or Ctrl-C.
 */
const args = process.argv.slice(2);
const { flag, flags, databases: databasesOf } = benchArgs(args);
const databases = databasesOf('both');
const rounds = Number(flag('rounds') ?? 1);
const seconds = Number(flag('seconds') ?? 8);
const options: FeedOptions = {
  scale: Number(flag('scale') ?? 1),
  seconds,
  warmupSeconds: Math.min(2, seconds),
  rates: (flag('rates') ?? '1000,5000,10000').split(',').map(Number),
  connections: 20,
  pgServer: flag('pg') ?? process.env.TEST_DATABASE_URL,
  upstream: args.includes('--upstream'),
  webhooks: Number(flag('webhooks') ?? 0),
};
const others = flags('build');

/** Every round's points, by build, database and rate. */
const measured = new Map<string, RatePoint[]>();
const keyOf = (build: string, database: BenchDatabase, rate: number) => `${build}\u0000${database}\u0000${rate}`;

async function runRounds(builds: Build[]): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    const order = builds.map((_, i) => builds[(i + round) % builds.length]).flatMap((b) => (b === undefined ? [] : [b]));
    for (const database of databases) {
      for (const build of order) {
        process.stderr.write(`round ${round + 1}/${rounds}: ${build.name} on ${database}\n`);
        for (const point of await measureBuild(build, database, options)) {
          const key = keyOf(build.name, database, point.rate);
          measured.set(key, [...(measured.get(key) ?? []), point]);
        }
      }
    }
  }
}

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? 'n/a' : Number.isNaN(value) ? '—' : value.toFixed(digits));
const thousands = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');

/** A table row: the median of the rounds' figures for each column. */
function row(build: string, database: BenchDatabase, rate: number): string {
  const points = measured.get(keyOf(build, database, rate)) ?? [];
  const of = (pick: (p: RatePoint) => number) => median(points.map(pick));
  const board = points.some((p) => p.boardP99 === undefined) ? undefined : of((p) => p.boardP99 ?? Number.NaN);
  const cpu = of((p) => p.cpuMsPer1000);
  const upstream = points[0]?.upstream;
  const polled = options.upstream ? ` ${upstream === undefined ? '—' : `${upstream.polls} / ${upstream.rowsImported ?? 'n/a'}`} |` : '';
  return (
    `| ${build} | ${database} | ${thousands(rate)} | ${thousands(of((p) => p.achieved))} | ${fixed(of((p) => p.importP50))} / ${fixed(of((p) => p.importP99))} | ` +
    `${fixed(of((p) => p.readsKept), 2)} | ${fixed(of((p) => p.streamP99))} | ${fixed(board)} | ${fixed(of((p) => p.loopP99))} / ${fixed(of((p) => p.loopMax))} | ` +
    `${fixed(cpu)} (≈ ${thousands((1000 / cpu) * 1000)}/s per core) | ${fixed(of((p) => p.mainCpuMsPer1000))} |${polled}`
  );
}

function table(builds: Build[]): string {
  return [
    `Batches of ${BATCH} odds changes through POST /admin/v1/import; reads: ${options.connections} connections on a cached odds page; ` +
      `${seconds} s per phase after a ${options.warmupSeconds} s warm-up; demo scale ${options.scale}; medians of ${rounds} round${rounds > 1 ? 's' : ''}. ` +
      'Server CPU per 1,000 changes from a feed-only phase; in brackets the rate it implies on one core; then the part of it spent on the serving (main) thread.',
    ...(options.upstream ? ['', `With the upstream poller on: a local upstream in The Odds API v4's shape polled every ${UPSTREAM_INTERVAL_S} s; its column: polls answered / rows the server imported (first round).`] : []),
    '',
    `| build | database | changes/s asked | changes/s achieved | import p50 / p99 ms | reads kept (× no feed) | change-to-stream p99 ms | change-to-board-event p99 ms | event-loop delay p99 / max ms | server CPU-ms per 1,000 changes | of it, the serving thread's |${options.upstream ? ' upstream polls / rows imported |' : ''}`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|${options.upstream ? '---:|' : ''}`,
    ...databases.flatMap((database) => options.rates.flatMap((rate) => builds.map((build) => row(build.name, database, rate)))),
  ].join('\n');
}

const prepared = prepareBuilds(flag('control') ?? 'e006314', args.includes('--again'), others);
await guarded(prepared.remove, async () => {
  const names = prepared.builds.map((b) => `${b.name} (${b.dir})`).join(', ');
  process.stderr.write(`builds: ${names}\n`);
  await runRounds(prepared.builds);
  const text = table(prepared.builds);
  process.stdout.write(`\n${text}\n`);
  const out = flag('out');
  if (out !== undefined) writeFileSync(out, `${text}\n`);
});
