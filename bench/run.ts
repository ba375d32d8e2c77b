import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadOptions, type Measured, measure, type Scenario } from './load.js';
import { LIMITS_NEVER_REACHED, limitsComparison } from './limits.js';
import { startApi, startBare } from './processes.js';
import { authScenarios } from './scenarios/auth.js';
import { coldPageLatency, dataScenarios, deepPagingScenarios } from './scenarios/data.js';

/**
 * `npm run bench`: every scenario against the real API (compiled, NODE_ENV=production, SQLite,
 * demo data) and, in the same run, a bare node:http server answering a fixed JSON body, so the
 * figures are ratios that survive a noisy machine. Each group's scenarios run round-robin
 * `--rounds` times and report the median round, so a burst of noise hits one round of each
 * rather than one scenario. Flags: --seconds N, --rounds N, --connections N,
 * --only auth|data|deep|limits, --skip-deep.
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const options: LoadOptions = {
  connections: Number(flag('connections') ?? 50),
  seconds: Number(flag('seconds') ?? 6),
  warmupSeconds: Number(flag('warmup') ?? 3),
};
const rounds = Number(flag('rounds') ?? 3);
const only = flag('only');
const skipDeep = args.includes('--skip-deep');

const ENV = {
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  ADMIN_TOKEN: 'bench-admin-token-bench-admin-token-0123456789',
  ACCESS_TOKEN_TTL: '3600',
  LOG_LEVEL: 'warn',
  DEMO_DATA: 'true',
  // Limits enforced, but far above what a run sends: every request is checked and counted, none refused.
  TIER_LIMITS: LIMITS_NEVER_REACHED,
  // The rotating-refresh scenario can present a token twice under load: not a brute force to stop here.
  LOGIN_FAILURES_PER_MINUTE: '1000000',
  LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '1000000',
};

execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'sportsdata-bench-'));
const rows: Array<Measured & { group: string }> = [];
const notes: string[] = [];

const bare = await startBare();
const baseline = async () => {
  const m = await measure(bare.url, { name: 'bare node:http, fixed JSON', requests: [{ method: 'GET', path: '/' }] }, options);
  rows.push({ ...m, group: 'baseline' });
  return m.reqPerSec;
};

/**
 * A fresh API process on a freshly generated demo database (the CLI generates it, so the API
 * starts with a clean heap), handed to `use` and stopped afterwards. Each group of scenarios gets
 * its own, so that one group's writes and garbage do not weigh on the next.
 */
async function withApi<T>(name: string, scale: number, use: (url: string, demo: DemoCredentials) => Promise<T>): Promise<T> {
  const dataDir = join(work, name);
  mkdirSync(dataDir, { recursive: true });
  const url = `sqlite:${join(dataDir, 'db.sqlite')}`;
  const started = Date.now();
  generateDemoData(url, scale);
  if (scale !== 1) notes.push(`demo-data --scale ${scale} (generate + import, SQLite): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const api = await startApi({ ...ENV, DATABASE_URL: url });
  try {
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
    return await use(api.url, demo);
  } finally {
    await api.stop();
  }
}

async function runGroup(group: string, url: string, scenarios: Scenario[]): Promise<Measured[]> {
  const runs: Measured[][] = scenarios.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [i, scenario] of scenarios.entries()) {
      const measured = await measure(url, scenario, { ...options, warmupSeconds: round === 0 ? options.warmupSeconds : 0 });
      runs[i]?.push(measured);
    }
  }
  const medians: Measured[] = [];
  for (const measured of runs) {
    const sorted = [...measured].sort((a, b) => a.reqPerSec - b.reqPerSec);
    const median = sorted[Math.floor(sorted.length / 2)];
    if (median) medians.push(median);
  }
  rows.push(...medians.map((m) => ({ ...m, group })));
  return medians;
}

/** Limits off, in process and in Redis, on one demo database: issue 7's bounds (5%, 15%). */
async function limitsGroup(): Promise<void> {
  const dataDir = join(work, 'limits');
  mkdirSync(dataDir, { recursive: true });
  const url = `sqlite:${join(dataDir, 'db.sqlite')}`;
  generateDemoData(url, 1);
  const readDemo = () => JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
  const comparison = await limitsComparison({ ...ENV, DATABASE_URL: url, DATA_DIR: dataDir }, readDemo);
  try {
    notes.push(comparison.summarise(await runGroup('limits', '', comparison.scenarios)));
  } finally {
    await comparison.stop();
  }
}

try {
  const bareBefore = await baseline();
  if (only === undefined || only === 'auth') {
    await withApi('auth', 1, async (url, demo) => runGroup('auth', url, await authScenarios(url, demo, options.connections)));
  }
  if (only === undefined || only === 'data') {
    await withApi('data', 1, async (url, demo) => runGroup('data', url, await dataScenarios(url, demo)));
  }
  if (only === undefined || only === 'limits') await limitsGroup();
  if (!skipDeep && (only === undefined || only === 'deep')) {
    await withApi('deep', 10, async (url, demo) => {
      const near1 = await coldPageLatency(url, demo, 2, 200);
      const near5000 = await coldPageLatency(url, demo, 4800, 200);
      notes.push(
        `scale 10, 200 distinct uncached pages of POST /v1/trends/flows one after another: pages 2–201 ${near1.toFixed(2)} ms mean, ` +
          `pages 4800–4999 ${near5000.toFixed(2)} ms mean (${(near5000 / near1).toFixed(2)}×)`,
      );
      await runGroup('scale 10', url, await deepPagingScenarios(url, demo));
    });
  }
  const bareAfter = await baseline();
  report(rows, (bareBefore + bareAfter) / 2);
} finally {
  await bare.stop();
  rmSync(work, { recursive: true, force: true });
}

function generateDemoData(databaseUrl: string, scale: number): void {
  execFileSync(process.execPath, ['bin/sportsdata.js', 'demo-data', '--scale', String(scale)], {
    env: { ...process.env, ...ENV, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export interface DemoCredentials {
  client_id: string;
  api_key: string;
  client_secret: string;
}

function report(measured: Array<Measured & { group: string }>, bareReqPerSec: number): void {
  const lines = [
    `connections ${options.connections}; each scenario ${rounds} rounds of ${options.seconds} s (round-robin in its group, after a ${options.warmupSeconds} s warm-up), the median round shown; bare = mean of the two baseline runs (${Math.round(bareReqPerSec)} req/s)`,
    '',
    '| group | scenario | req/s | p50 ms | p99 ms | × bare | non-2xx | errors | server CPU µs/req |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...measured.map(
      (m) =>
        `| ${m.group} | ${m.name} | ${Math.round(m.reqPerSec)} | ${m.p50} | ${m.p99} | ${(m.reqPerSec / bareReqPerSec).toFixed(2)} | ${m.non2xx} | ${m.errors} | ${m.cpuPerRequest?.toFixed(1) ?? ''} |`,
    ),
    ...(notes.length > 0 ? ['', ...notes.map((n) => `- ${n}`)] : []),
  ];
  const text = lines.join('\n');
  process.stdout.write(`\n${text}\n`);
  mkdirSync('.bench', { recursive: true });
  writeFileSync(join('.bench', 'latest.md'), `${text}\n`);
}
