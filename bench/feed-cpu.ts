import { readdirSync, readFileSync } from 'node:fs';
import { openStream } from '../test/helpers/sse.js';
import { benchArgs, type BenchDatabase } from './databases.js';
import { type Build, prepareBuilds } from './feed/builds.js';
import { guarded } from './feed/cleanup.js';
import { runFeed, slateOf } from './feed/feeder.js';
import { ADMIN_TOKEN, feedRows, onFreshDatabase } from './feed/phases.js';
import { statOf } from './load.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `npx tsx bench/feed-cpu.ts [--control REF] [--again] [--build DIR]… [--database sqlite|postgres]
 * [--rate 5000] [--seconds 8] [--reps 2]`: the feed path's server CPU per 1,000 changes, split by
 * thread, for builds side by side; about a minute a build, where bench/feed.ts takes ten.
 *
 * The builds are bench/feed.ts's (the control, default e006314; this checkout; `--again` this
 * checkout a second time, the A/A pair; `--build DIR` other checkouts), each on a fresh database of
 * its own making with the demo at scale 1, one after the other. Each gets the feed alone (batches
 * of 500 changes through `POST /admin/v1/import` at `--rate`, one odds stream listening on the
 * probe's event, as in bench/feed.ts): a warm-up of 3 s, whose CPU is not counted (V8 compiles the
 * feed's code then, on its helper threads), then `--reps` phases of `--seconds`, each a row.
 *
 * A row's CPU is the server process's user + system time over the phase (/proc), per 1,000 changes
 * imported, and its parts by thread: the serving thread (the process's first), the import thread
 * (Node names a worker's thread `WorkerThread`), V8's helpers (`V8Worker`: the garbage collector's
 * and the compiler's work), and any other (libuv's pool, the inspector). No reads run beside it:
 * it measures the cost of a change, not what that cost takes from the reads (bench/feed.ts does).
 */
const args = process.argv.slice(2);
const { flag, flags, databases } = benchArgs(args);
const [database] = databases('sqlite') as [BenchDatabase];
const rate = Number(flag('rate') ?? 5000);
const seconds = Number(flag('seconds') ?? 8);
const reps = Number(flag('reps') ?? 2);
const WARM_UP_MS = 3_000;
const THREAD_KINDS = ['serving', 'WorkerThread', 'V8Worker', 'other'] as const;
type ThreadKind = (typeof THREAD_KINDS)[number];

/** Clock ticks (1/100 s) of user + system time so far, by kind of thread, of process `pid`. */
function ticksByThread(pid: number): Record<ThreadKind, number> {
  const out: Record<ThreadKind, number> = { serving: 0, WorkerThread: 0, V8Worker: 0, other: 0 };
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      // A thread that ended between the listing and the read.
      continue;
    }
    const { name, ticks } = statOf(stat);
    const kind: ThreadKind = task === String(pid) ? 'serving' : name.startsWith('WorkerThread') ? 'WorkerThread' : name.startsWith('V8Worker') ? 'V8Worker' : 'other';
    out[kind] += ticks;
  }
  return out;
}

interface Row {
  build: string;
  rep: number;
  achieved: number;
  /** CPU-ms per 1,000 changes, by kind of thread. */
  perThousand: Record<ThreadKind, number>;
}

async function measureBuild(build: Build): Promise<Row[]> {
  return onFreshDatabase(build, database, { scale: 1, pgServer: flag('pg') ?? process.env.TEST_DATABASE_URL }, {}, async (api, demo) => {
    const pid = api.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    const authorization = await bearerFor(api.url, demo);
    const slate = slateOf(await feedRows(api.url, { authorization }));
    const stream = await openStream(`${api.url}/v1/stream/odds?event_ids=${slate.probe.event_id}`, { 'x-api-key': demo.api_key });
    return guarded(
      async () => stream.close(),
      async () => {
        const feedFor = (ms: number) => runFeed(api.url, ADMIN_TOKEN, slate, rate, [], () => new Promise((resolve) => setTimeout(resolve, ms)), { open: true });
        await feedFor(WARM_UP_MS);
        const rows: Row[] = [];
        for (let rep = 1; rep <= reps; rep += 1) {
          const before = ticksByThread(pid);
          const fed = await feedFor(seconds * 1000);
          const after = ticksByThread(pid);
          const perThousand = (kind: ThreadKind) => ((after[kind] - before[kind]) * 10 * 1000) / fed.imported;
          rows.push({ build: build.name, rep, achieved: fed.imported / fed.seconds, perThousand: Object.fromEntries(THREAD_KINDS.map((k) => [k, perThousand(k)])) as Row['perThousand'] });
        }
        return rows;
      },
    );
  });
}

function table(rows: Row[]): string {
  const fixed = (value: number) => value.toFixed(1);
  return [
    `The feed alone on ${database}: batches of 500 changes at ${rate.toLocaleString('en-US')} a second, one odds stream listening, ${seconds} s a phase after a ${WARM_UP_MS / 1000} s warm-up; server CPU-ms per 1,000 changes, in all and by thread.`,
    '',
    '| build | phase | changes/s achieved | in all | serving thread | import thread | V8 helpers | other |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const all = THREAD_KINDS.reduce((sum, kind) => sum + r.perThousand[kind], 0);
      const { serving, WorkerThread, V8Worker, other } = r.perThousand;
      return `| ${r.build} | ${r.rep} | ${Math.round(r.achieved).toLocaleString('en-US')} | ${fixed(all)} | ${fixed(serving)} | ${fixed(WorkerThread)} | ${fixed(V8Worker)} | ${fixed(other)} |`;
    }),
  ].join('\n');
}

const others = flags('build');
const prepared = prepareBuilds(flag('control') ?? 'e006314', args.includes('--again'), others);
await guarded(prepared.remove, async () => {
  const rows: Row[] = [];
  for (const build of prepared.builds) {
    process.stderr.write(`${build.name} on ${database}\n`);
    rows.push(...(await measureBuild(build)));
  }
  process.stdout.write(`\n${table(rows)}\n`);
});
