import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadOptions, type Measured, measure, type Scenario } from './load.js';
import { startApi, startBare } from './processes.js';
import { authScenarios } from './scenarios/auth.js';
import { dataScenarios, deepPagingScenarios } from './scenarios/data.js';

/**
 * `npm run bench`: every scenario against the real API (compiled, NODE_ENV=production, SQLite,
 * demo data) and, in the same run, a bare node:http server answering a fixed JSON body, so the
 * figures are ratios that survive a noisy machine. Flags: --seconds N, --connections N,
 * --only auth|data|deep, --skip-deep.
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const options: LoadOptions = {
  connections: Number(flag('connections') ?? 50),
  seconds: Number(flag('seconds') ?? 10),
  warmupSeconds: Number(flag('warmup') ?? 3),
};
const only = flag('only');
const skipDeep = args.includes('--skip-deep');

const ENV = {
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  ADMIN_TOKEN: 'bench-admin-token-bench-admin-token-0123456789',
  ACCESS_TOKEN_TTL: '3600',
  LOG_LEVEL: 'warn',
  DEMO_DATA: 'true',
};

execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'sportsdata-bench-'));
const rows: Array<Measured & { group: string }> = [];

const bare = await startBare();
const baseline = async () => {
  const m = await measure(bare.url, { name: 'bare node:http, fixed JSON', requests: [{ method: 'GET', path: '/' }] }, options);
  rows.push({ ...m, group: 'baseline' });
  return m.reqPerSec;
};

try {
  const bareBefore = await baseline();
  if (only === undefined || only === 'auth' || only === 'data') {
    const dataDir = join(work, 'scale1');
    mkdirSync(dataDir, { recursive: true });
    const api = await startApi({ ...ENV, DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}` });
    try {
      const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
      const groups: Array<[string, Scenario[]]> = [];
      if (only !== 'data') groups.push(['auth', await authScenarios(api.url, demo, options.connections)]);
      if (only !== 'auth') groups.push(['data', await dataScenarios(api.url, demo)]);
      for (const [group, scenarios] of groups) {
        for (const scenario of scenarios) rows.push({ ...(await measure(api.url, scenario, options)), group });
      }
    } finally {
      await api.stop();
    }
  }
  if (!skipDeep && (only === undefined || only === 'deep')) {
    const dataDir = join(work, 'scale10');
    mkdirSync(dataDir, { recursive: true });
    const url = `sqlite:${join(dataDir, 'db.sqlite')}`;
    const started = Date.now();
    execFileSync(process.execPath, ['bin/sportsdata.js', 'demo-data', '--scale', '10'], {
      env: { ...process.env, ...ENV, DATABASE_URL: url },
      stdio: 'inherit',
    });
    const generated = (Date.now() - started) / 1000;
    const api = await startApi({ ...ENV, DATABASE_URL: url, DEMO_DATA: 'true' });
    try {
      const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
      for (const scenario of await deepPagingScenarios(api.url, demo)) rows.push({ ...(await measure(api.url, scenario, options)), group: 'scale 10' });
    } finally {
      await api.stop();
    }
    process.stdout.write(`\ndemo-data --scale 10 (generate + import, SQLite): ${generated.toFixed(1)} s\n`);
  }
  const bareAfter = await baseline();
  report(rows, (bareBefore + bareAfter) / 2);
} finally {
  await bare.stop();
  rmSync(work, { recursive: true, force: true });
}

export interface DemoCredentials {
  client_id: string;
  api_key: string;
  client_secret: string;
}

function report(measured: Array<Measured & { group: string }>, bareReqPerSec: number): void {
  const lines = [
    `connections ${options.connections}, ${options.seconds} s per scenario after ${options.warmupSeconds} s warm-up; bare = mean of the two baseline runs (${Math.round(bareReqPerSec)} req/s)`,
    '',
    '| group | scenario | req/s | p50 ms | p99 ms | × bare | non-2xx | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...measured.map(
      (m) =>
        `| ${m.group} | ${m.name} | ${Math.round(m.reqPerSec)} | ${m.p50} | ${m.p99} | ${(m.reqPerSec / bareReqPerSec).toFixed(2)} | ${m.non2xx} | ${m.errors} |`,
    ),
  ];
  const text = lines.join('\n');
  process.stdout.write(`\n${text}\n`);
  mkdirSync('.bench', { recursive: true });
  writeFileSync(join('.bench', 'latest.md'), `${text}\n`);
}
