import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRequest, type FuzzStats, shorten } from '../test/fuzz/fuzz-property.js';

/**
 * `npx tsx bench/fuzz.ts [--runs N] [--seed N]`: the fuzz test of the suite (test/fuzz), at a
 * size CI cannot afford: N generated requests (default 20,000) on SQLite and then on
 * PostgreSQL, with one seed for both. It does not stop at the first failure: every 5xx and
 * every answer outside the error shape is counted, and the first ones are listed with the
 * FUZZ_SEED/FUZZ_PATH that replays each in the suite. PostgreSQL is TEST_DATABASE_URL's server,
 * or a throwaway one, as for `npm test`. The summary also goes to .bench/fuzz.md.
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(flag('runs') ?? 20_000);
const seed = Number(flag('seed') ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) throw new Error('--runs and --seed take integers');

interface DialectReport extends FuzzStats {
  dialect: string;
  seed: number;
  runs: number;
  ms: number;
}

const work = mkdtempSync(join(tmpdir(), 'sportsdata-fuzz-'));
const reportFile = join(work, 'report.jsonl');
try {
  process.stdout.write(`fuzzing ${runs} requests per database, seed ${seed}\n`);
  const vitest = spawnSync('npx', ['vitest', 'run', 'test/fuzz/fuzz.test.ts'], {
    env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed), FUZZ_KEEP_GOING: '1', FUZZ_REPORT: reportFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // No report at all: the suite could not even set up (its output above says why).
  if (!existsSync(reportFile)) throw new Error(`the fuzz test wrote no report (vitest exited with ${String(vitest.status)})`);
  const reports = readFileSync(reportFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as DialectReport);
  const text = summary(reports);
  process.stdout.write(`\n${text}\n`);
  mkdirSync('.bench', { recursive: true });
  writeFileSync(join('.bench', 'fuzz.md'), `${text}\n`);
  process.exitCode = vitest.status === 0 && reports.length === 2 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

function summary(reports: DialectReport[]): string {
  const lines = [
    `seed ${seed}, ${runs} generated requests per database (replay one with FUZZ_SEED=${seed} FUZZ_RUNS=${runs} FUZZ_PATH=… npx vitest run test/fuzz)`,
    '',
    '| database | requests sent | 5xx | outside the error shape or the document | time s | req/s |',
    '|---|---:|---:|---:|---:|---:|',
    ...reports.map(
      (r) =>
        `| ${r.dialect} | ${r.requests} | ${r.serverErrors} | ${r.outsideShape} | ${(r.ms / 1000).toFixed(1)} | ${Math.round(r.requests / (r.ms / 1000))} |`,
    ),
    '',
    ...reports.map((r) => `- ${r.dialect} statuses: ${Object.entries(r.statuses).map(([status, n]) => `${status} × ${n}`).join(', ')}`),
  ];
  for (const r of reports) {
    if (r.failures.length === 0) continue;
    lines.push('', `First failures on ${r.dialect}:`, ...r.failures.map((f) => `- FUZZ_PATH=${f.path} ${describeRequest(f.request)}\n  → ${shorten(f.problem.split('\n')[0] ?? '', 400)}`));
  }
  return lines.join('\n');
}
