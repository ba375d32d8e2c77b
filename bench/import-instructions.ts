import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './databases.js';
import { type Build, prepareBuilds } from './feed/builds.js';
import { benchEnv } from './local-demo.js';

/**
 * `npx tsx bench/import-instructions.ts [--control REF|none] [--again] [--build DIR]… [--imports 20,60] [--stages W]`:
 * the CPU instructions an import costs per price change, builds side by side, counted by valgrind's
 * callgrind (Debian's valgrind) rather than timed.
 *
 * Why counted: on these shared 2-core machines a build's measured CPU per change moves by a
 * quarter from one run to the next (decision 0337), so a change worth 5% cannot be told from the
 * noise by timing. An instruction count does not depend on what else the machine does, once V8
 * runs `--predictable` (no compiler or collector threads racing the program, no random seeds):
 * without it two counts of one build differed by 60%, with it by a few in a hundred thousand.
 *
 * Each build (the control, default none; this checkout; `--again`, this checkout a second time,
 * the A/A pair; `--build DIR`, any checkout with dist/ built) runs bench/import-instructions/child.ts
 * under callgrind twice, on copies of one demo database (SQLite, scale 1, made once by this
 * checkout's CLI): with the smaller and the larger count of `--imports` imports of 500 changes.
 * The difference of the two counts, over the difference of the changes, is the instructions per
 * change of the imports in the steady state: the process's start, its modules' loading and the
 * first imports' compilation are in both runs and cancel out. With `--stages W` the work after the
 * imports runs too, every W imports; that count does not repeat (three runs of one build: 72,258 to
 * 144,389 per change), since part of that work depends on the time that passes, which valgrind
 * stretches: a look at the work, not a comparison of builds (decision 0338). Without it, only the import itself is counted:
 * the work after it (board events, moves, signals, webhooks) runs in background jobs this child
 * never starts; bench/import-beside-work.ts and bench/feed-stages.ts time those.
 */
const args = process.argv.slice(2);
const { flag, flags } = benchArgs(args);
const [fewer, more] = (flag('imports') ?? '20,60').split(',').map(Number) as [number, number];
const stagesEvery = Number(flag('stages') ?? 0);
const others = flags('build');
const BATCH = 500;

const work = mkdtempSync(join(tmpdir(), 'sportsdata-import-instructions-'));
const { builds, remove } = prepareBuilds(flag('control') ?? 'none', args.includes('--again'), others);
try {
  const demo = demoDatabase();
  const what = stagesEvery > 0 ? `the imports and the work after them, run every ${stagesEvery} imports` : 'the imports alone';
  console.log(`Instructions of ${what} (500 changes an import):\n`);
  console.log(`| build | instructions, ${fewer} imports | ${more} imports | per change |`);
  console.log('|---|---:|---:|---:|');
  for (const build of builds) {
    const pristine = stagesEvery > 0 ? caughtUp(build, demo) : demo;
    const [a, b] = [instructions(build, pristine, fewer), instructions(build, pristine, more)];
    const perChange = (b - a) / ((more - fewer) * BATCH);
    console.log(`| ${build.name} | ${a.toLocaleString('en')} | ${b.toLocaleString('en')} | ${Math.round(perChange).toLocaleString('en')} |`);
  }
} finally {
  remove();
  rmSync(work, { recursive: true, force: true });
}

/** The scale-1 demo's matchups in a fresh SQLite file, made by this checkout's CLI. */
function demoDatabase(): string {
  const env = { ...process.env, ...benchEnv(work), DATABASE_URL: `sqlite:${join(work, 'pristine.db')}` };
  for (const command of [['migrate', '--create'], ['demo-data', '--no-competitions']]) execFileSync(process.execPath, ['bin/sportsdata.js', ...command], { env, stdio: 'ignore' });
  return join(work, 'pristine.db');
}

/** A copy of the demo on which `build`'s work after the imports has worked through the demo's history (not counted). */
function caughtUp(build: Build, demo: string): string {
  const file = join(work, `caught-up-${build.name.replace(/[^A-Za-z0-9]/g, '_')}.db`);
  copyFileSync(demo, file);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/import-instructions/child.ts', build.dir, file, '0', String(stagesEvery)], { encoding: 'utf8', env: childEnv(file) });
  if (run.status !== 0) throw new Error(`${build.name} could not work through the demo's history:\n${run.stderr.slice(-2000)}`);
  return file;
}

function childEnv(file: string): NodeJS.ProcessEnv {
  return { ...process.env, ...benchEnv(work), DATABASE_URL: `sqlite:${file}` };
}

/** The instructions callgrind counts for the child's `imports` imports with `build`, on a copy of the database. */
function instructions(build: Build, pristine: string, imports: number): number {
  const file = join(work, `run-${process.hrtime.bigint()}.db`);
  copyFileSync(pristine, file);
  try {
    const child = ['--predictable', '--import', 'tsx', 'bench/import-instructions/child.ts', build.dir, file, String(imports), String(stagesEvery)];
    const run = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...child], {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      env: childEnv(file),
    });
    if (run.error !== undefined) throw new Error(`valgrind could not be run (${run.error.message}): apt-get install valgrind`);
    if (run.status !== 0) throw new Error(`the count of ${build.name} failed:\n${run.stderr.slice(-2000)}`);
    return collected(run.stderr);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}

function collected(valgrindOutput: string): number {
  const match = /Collected : (\d+)/.exec(valgrindOutput);
  if (match?.[1] === undefined) throw new Error(`callgrind printed no count:\n${valgrindOutput.slice(-2000)}`);
  return Number(match[1]);
}
