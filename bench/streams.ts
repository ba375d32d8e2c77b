import { writeFileSync } from 'node:fs';
import { benchArgs } from './databases.js';
import { prepareBuilds } from './feed/builds.js';
import { guarded } from './feed/cleanup.js';
import { BATCH } from './feed/feeder.js';
import { type CapacityOptions, type CapacityPoint, measureCapacity } from './streams/capacity.js';

/**
 * `npx tsx bench/streams.ts [--streams 1000,5000] [--rate 1000] [--seconds 10] [--database
 * sqlite|postgres|both] [--follow all|event] [--processes 2] [--scale 1] [--pg URL] [--out FILE]`:
 * the odds stream's own capacity on one node.
 *
 * For each count of `--streams`, on each database (default SQLite; PostgreSQL: a throwaway
 * database on --pg, default TEST_DATABASE_URL), a fresh demo database made by the CLI and a server
 * on it with the event-loop probe (bench/feed/phases.ts). The enterprise tier holds the most open
 * streams per client (50), so the bench onboards as many enterprise clients as the count needs
 * (`POST /admin/v1/clients`) and opens 50 streams with each one's API key. Then:
 * - the feed alone (bench/feed/feeder.ts: batches of 500 price changes through
 *   `POST /admin/v1/import` at `--rate` changes/s), a warm-up, then `--seconds` for the server's
 *   CPU time per 1,000 changes without streams;
 * - the streams opened from `--processes` child processes (bench/streams/clients.ts), so that
 *   reading them shares neither the server's event loop nor the bench's; each follows every change
 *   (`--follow all`, the default) or only the probe's event (`--follow event`); the bench waits
 *   for every stream's first bytes; the server's RSS before and after gives the memory per stream;
 * - the feed again for `--seconds` with every stream open: change-to-client p50/p99 over every
 *   stream (from each import's request to each stream's receipt of that import's first change, the
 *   probe: every stream is read, and searched for the probe's bytes rather than parsed), the
 *   event-loop delay inside the server, the server's CPU time per 1,000 changes with the streams
 *   (read once every stream has the last import's probe, 10 s at most), the probe changes that some
 *   stream never received (and the streams short of one), and the streams dropped (ended by the
 *   server or cut before the bench closed them).
 *
 * A server holds a socket per stream: the open-files limit must exceed the count (the bench refuses
 * to start below count + 1,024; `ulimit -n` raises it). Printed as a table at the end, and written
 * to `--out FILE` if asked. Every server, stream process and throwaway database is removed at the
 * end, also after a failure or Ctrl-C.
 */
const args = process.argv.slice(2);
const { flag, databases: databasesOf } = benchArgs(args);
const databases = databasesOf('sqlite');
const counts = (flag('streams') ?? '1000,5000').split(',').map(Number);
const options: CapacityOptions = {
  scale: Number(flag('scale') ?? 1),
  pgServer: flag('pg') ?? process.env.TEST_DATABASE_URL,
  seconds: Number(flag('seconds') ?? 10),
  rate: Number(flag('rate') ?? 1000),
  processes: Number(flag('processes') ?? 2),
  follow: flag('follow') === 'event' ? 'event' : 'all',
};

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const thousands = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');

function row(p: CapacityPoint): string {
  const perStreamKb = ((p.rssOpen - p.rssBefore) * 1024) / p.streams;
  return (
    `| ${p.database} | ${thousands(p.streams)} (${p.clients} clients) | ${fixed(p.openSeconds)} | ${thousands(options.rate)} / ${thousands(p.achieved)} | ` +
    `${fixed(p.importP50)} / ${fixed(p.importP99)} | ${fixed(p.p50)} / ${fixed(p.p99)} (${thousands(p.samples)}) | ${thousands(p.missed)} (${p.behind} streams) | ${p.dropped} | ` +
    `${fixed(p.rssBefore, 0)} / ${fixed(p.rssOpen, 0)} / ${fixed(p.rssAfter, 0)} | ${fixed(perStreamKb)} | ${fixed(p.loop.p99Ms)} / ${fixed(p.loop.maxMs)} | ` +
    `${fixed(p.cpuAlone)} / ${fixed(p.cpuWith)} |`
  );
}

function table(points: CapacityPoint[]): string {
  const follows = options.follow === 'all' ? 'every change' : "the probe's event only";
  return [
    `Odds streams on one node, each following ${follows}, read by ${options.processes} child processes; the feed: batches of ${BATCH} odds changes through POST /admin/v1/import ` +
      `at ${thousands(options.rate)} changes/s for ${options.seconds} s; demo scale ${options.scale}. Change-to-client: from each import's request to each stream's receipt of ` +
      "that import's first change, over every stream (samples in brackets); import: the request's duration, the part before the commit. Missed: probe changes a stream had not received 10 s after the feed. " +
      'Server CPU per 1,000 changes: the feed alone, then with the streams open.',
    '',
    '| database | streams | opened in s | changes/s asked / achieved | import p50 / p99 ms | change-to-client p50 / p99 ms | missed | dropped | server RSS before / open / after feed MB | KB per open stream | event-loop delay p99 / max ms | server CPU-ms per 1,000 changes alone / with streams |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...points.map(row),
  ].join('\n');
}

const prepared = prepareBuilds('none', false, []);
await guarded(prepared.remove, async () => {
  const build = prepared.builds[0];
  if (build === undefined) throw new Error('no build to measure');
  const points: CapacityPoint[] = [];
  for (const database of databases) {
    for (const count of counts) {
      process.stderr.write(`${count} streams on ${database}\n`);
      points.push(await measureCapacity(build, database, count, options));
    }
  }
  const text = table(points);
  process.stdout.write(`\n${text}\n`);
  const out = flag('out');
  if (out !== undefined) writeFileSync(out, `${text}\n`);
});
