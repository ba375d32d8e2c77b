import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchDatabase, throwawayDatabase } from './databases.js';
import { demoCredentialsFile } from '../src/modules/demo/index.js';
import { type LoadOptions, type Measured, measure, type Scenario } from './load.js';
import { LIMITS_NEVER_REACHED, limitsComparison } from './limits.js';
import { benchEnv } from './local-demo.js';
import { type Running, startApi, startBare } from './processes.js';
import { anchorScenario, recordAnswer } from './same-bytes.js';
import { authScenarios } from './scenarios/auth.js';
import { compressionScenarios } from './scenarios/compression.js';
import { coldPageLatency, dataScenarios, deepPagingScenarios } from './scenarios/data.js';
import { hotPathScenarios } from './scenarios/hot-path.js';
import { coldFilters, concurrentImport, describePhase, startIdleProbe } from './scenarios/event-loop.js';
import { asOfGroup } from './as-of.js';
import { outrightsGroup } from './outrights.js';
import { boardGroup } from './board.js';
import { gradingDay } from './scenarios/grading.js';
import { historyGroup } from './history.js';
import { type ApiOptions, type BenchKit, propagationGroup, workersGroups } from './scale-out.js';

/**
 * `npm run bench`: every scenario against the real API (compiled, NODE_ENV=production, demo
 * data) and, in the same run, against a bare node:http server sending the very bytes the API
 * answered to that scenario (the same-bytes anchor, bench/same-bytes.ts), so the figures are
 * ratios that survive a noisy machine and that neither flatter large answers nor hide small ones. Each group's scenarios run round-robin
 * `--rounds` times and report the median round, so a burst of noise hits one round of each
 * rather than one scenario. Flags: --seconds N, --rounds N, --connections N,
 * --only hot|auth|data|compression|limits|deep|loop|workers|propagation, --skip-deep, --skip-loop. The loop group measures
 * the event-loop delay inside the API (a probe preloaded by the bench only) during cold filters and
 * during a concurrent CLI import, at --scale 10 on SQLite.
 * --database sqlite|postgres|both (default sqlite), --pg URL (a PostgreSQL server where the
 * bench creates throwaway databases; default TEST_DATABASE_URL),
 * --scale-out (also 1 worker against 2, and change propagation between two nodes through Redis
 * and through the poll), --propagation-rounds N (default 20).
 * --only history (or --history): the price history's figures (bench/history.ts): server memory
 * while a 100,000-change file streams, 500 open odds streams, and stream latency from node A to
 * node B (--stream-rounds N, default 100).
 * --only board (or --board): the odds board (bench/board.ts): a cached board page of 100 beside the
 * hot path's pages and their anchors, then a live feed through the import in batches of 500 price
 * changes at each rate of --feed-rates (changes per second, default 500,1000,2000,4000,8000),
 * --board-scale N the demo scale (default 1).
 * --only outrights: a board page of the demo's 150-player winner market beside a matchup board page
 * (bench/outrights.ts; the demo loaded with its competitions), --board-scale N.
 * --only as-of: a board page of 100 as of an instant beside the current one, and at a new instant
 * each request (bench/as-of.ts; goal: as_of at least 0.5× the current page's rate), --board-scale N.
 * --only grading: the final results of a whole demo day imported and graded (SQLite, scale 1),
 * with the event-loop delay inside the API and reads meanwhile (bench/scenarios/grading.ts).
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
const skipLoop = args.includes('--skip-loop');
const scaleOut = args.includes('--scale-out');
const propagationRounds = Number(flag('propagation-rounds') ?? 20);
const streamRounds = Number(flag('stream-rounds') ?? 100);
const feedRates = (flag('feed-rates') ?? '500,1000,2000,4000,8000').split(',').map(Number);
const boardScale = Number(flag('board-scale') ?? 1);
const pgServer = flag('pg') ?? process.env.TEST_DATABASE_URL;
const databaseFlag = flag('database') ?? 'sqlite';
const databases: BenchDatabase[] = databaseFlag === 'both' ? ['sqlite', 'postgres'] : databaseFlag === 'postgres' ? ['postgres'] : ['sqlite'];
/** The existing groups run unless --only names another; the scale-out ones with --scale-out or --only. */
const runs = (group: string, byDefault: boolean) => (only === undefined ? byDefault : only === group);

const ENV = {
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  // Production requires it; the one the other benchmarks' servers run with (bench/local-demo.ts).
  CHECK_ENDPOINT_KEY: benchEnv(tmpdir()).CHECK_ENDPOINT_KEY,
  ADMIN_TOKEN: 'bench-admin-token-bench-admin-token-0123456789',
  ACCESS_TOKEN_TTL: '3600',
  LOG_LEVEL: 'warn',
  DEMO_DATA: 'true',
  // Every round measures the same slate: the demo's prices stay still.
  DEMO_TICKER_PER_SECOND: '0',
  // Limits enforced, but far above what a run sends: every request is checked and counted, none refused.
  TIER_LIMITS: LIMITS_NEVER_REACHED,
  // The rotating-refresh scenario can present a token twice under load: not a brute force to stop here.
  LOGIN_FAILURES_PER_MINUTE: '1000000',
  LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '1000000',
};

execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'sportsdata-bench-'));
/** A scenario's median round, with its same-bytes anchor's. */
interface Row extends Measured {
  group: string;
  /** The answer's body, in bytes. */
  bytes: number;
  anchor: Measured | undefined;
  /** API req/s over the anchor's, the median of the rounds'. */
  ratio: number;
}
const rows: Row[] = [];
const notes: string[] = [];

const bare = await startBare();
/** The API process being measured (its CPU time per request is read from /proc). */
let apiPid: number | undefined;

/**
 * A fresh API process on a freshly generated demo database (the CLI generates it, so the API
 * starts with a clean heap), handed to `use` and stopped afterwards. Each group of scenarios gets
 * its own, so that one group's writes and garbage do not weigh on the next.
 */
async function withApi<T>(
  name: string,
  database: BenchDatabase,
  extraEnv: Record<string, string>,
  use: (url: string, demo: DemoCredentials, api: Running & { databaseUrl: string }) => Promise<T>,
  scale = 1,
  apiOptions: ApiOptions = {},
): Promise<T> {
  const dataDir = join(work, name);
  mkdirSync(dataDir, { recursive: true });
  const store = await throwawayDatabase(database, dataDir, pgServer);
  const env = { ...ENV, DATABASE_URL: store.url, DATA_DIR: dataDir };
  try {
    const started = Date.now();
    // The matchups alone unless a group asks for more: the dataset every group measured before the competitions were the CLI's default (decision 0331).
    generateDemoData(env, scale, apiOptions.demoArgs ?? ['--no-competitions']);
    if (scale !== 1) notes.push(`demo-data --scale ${scale} (generate + import, ${database}): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const api = await startApi({ ...env, ...extraEnv }, apiOptions);
    apiPid = api.child.pid;
    try {
      const demo = JSON.parse(readFileSync(demoCredentialsFile(dataDir, store.url), 'utf8')) as DemoCredentials;
      return await use(api.url, demo, { ...api, databaseUrl: store.url });
    } finally {
      apiPid = undefined;
      await api.stop();
    }
  } finally {
    await store.drop();
  }
}

/**
 * Measures each scenario against the API and against the same-bytes anchor: the bare server sending
 * the very answer the API gave to that scenario's request (recorded once, headers and body byte for
 * byte), loaded with the same request. Round-robin, `rounds` times; the median round is reported,
 * and the ratio is the median of each round's API/anchor ratio, so that a burst of noise on the
 * machine weighs on both sides of one ratio.
 */
async function runGroup(group: string, url: string, scenarios: Scenario[]): Promise<Measured[]> {
  const prepared = [];
  for (const scenario of scenarios) {
    const { request, answer } = await recordAnswer(url, scenario);
    prepared.push({ scenario: { ...scenario, pid: scenario.pid ?? apiPid }, answer, anchor: { ...anchorScenario(scenario, request, bare.url), pid: bare.child.pid } });
  }
  const apiRuns: Measured[][] = scenarios.map(() => []);
  const anchorRuns: Measured[][] = scenarios.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    const roundOptions = { ...options, warmupSeconds: round === 0 ? options.warmupSeconds : 0 };
    for (const [i, { scenario, answer, anchor }] of prepared.entries()) {
      apiRuns[i]?.push(await measure(url, scenario, roundOptions));
      await bare.answerWith(answer);
      anchorRuns[i]?.push(await measure(bare.url, anchor, roundOptions));
    }
  }
  const medians: Measured[] = [];
  for (const [i, { answer }] of prepared.entries()) {
    const api = apiRuns[i] ?? [];
    const anchor = anchorRuns[i] ?? [];
    const median = medianBy(api, (m) => m.reqPerSec);
    const ratio = medianOf(api.map((m, round) => m.reqPerSec / (anchor[round]?.reqPerSec ?? Number.NaN)));
    if (!median) continue;
    medians.push(median);
    rows.push({ ...median, group, bytes: answer.body.length, anchor: medianBy(anchor, (m) => m.reqPerSec), ratio });
  }
  return medians;
}

function medianBy<T>(items: T[], key: (item: T) => number): T | undefined {
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)];
}

function medianOf(values: number[]): number {
  return medianBy(values, (v) => v) ?? Number.NaN;
}

/** Limits off, in process and in Redis, on one demo database, against their bounds (decision 0094). */
async function limitsGroup(database: BenchDatabase): Promise<void> {
  const dataDir = join(work, `limits-${database}`);
  mkdirSync(dataDir, { recursive: true });
  const store = await throwawayDatabase(database, dataDir, pgServer);
  const env = { ...ENV, DATABASE_URL: store.url, DATA_DIR: dataDir };
  try {
    generateDemoData(env, 1, []);
    const readDemo = () => JSON.parse(readFileSync(demoCredentialsFile(dataDir, store.url), 'utf8')) as DemoCredentials;
    const comparison = await limitsComparison(env, readDemo);
    try {
      notes.push(`${database}: ${comparison.summarise(await runGroup(`limits (${database})`, '', comparison.scenarios))}`);
    } finally {
      await comparison.stop();
    }
  } finally {
    await store.drop();
  }
}

const kit: BenchKit = {
  env: ENV,
  work,
  pgServer,
  connections: options.connections,
  withApi,
  runGroup,
  note: (text) => void notes.push(text),
};

try {
  for (const database of databases) {
    if (runs('auth', true)) {
      await withApi(`auth-${database}`, database, {}, async (url, demo) => runGroup(`auth (${database})`, url, await authScenarios(url, demo, options.connections)));
    }
    if (runs('hot', true)) {
      await withApi(`hot-${database}`, database, {}, async (url, demo) => runGroup(`hot path (${database})`, url, await hotPathScenarios(url, demo)));
    }
    if (runs('data', true)) {
      await withApi(`data-${database}`, database, {}, async (url, demo) => runGroup(`data (${database})`, url, await dataScenarios(url, demo)));
    }
    if (runs('compression', true)) {
      await withApi(`compression-${database}`, database, {}, async (url, demo) => {
        const { scenarios, notes: found } = await compressionScenarios(url, demo);
        notes.push(...found);
        await runGroup(`compression (${database})`, url, scenarios);
      });
    }
    if (runs('limits', true)) await limitsGroup(database);
    if (!skipDeep && runs('deep', true)) {
      await withApi(
        `deep-${database}`,
        database,
        {},
        async (url, demo) => {
          const near1 = await coldPageLatency(url, demo, 2, 200);
          const near5000 = await coldPageLatency(url, demo, 4800, 200);
          notes.push(
            `${database}, scale 10, 200 distinct uncached pages of POST /v1/trends/flows one after another: pages 2–201 ${near1.toFixed(2)} ms mean, ` +
              `pages 4800–4999 ${near5000.toFixed(2)} ms mean (${(near5000 / near1).toFixed(2)}×)`,
          );
          await runGroup(`scale 10 (${database})`, url, await deepPagingScenarios(url, demo));
        },
        10,
      );
    }
  }
  if (!skipLoop && runs('loop', true)) {
    await withApi(
      'loop',
      'sqlite',
      {},
      async (url, demo, api) => {
        const idle = await startIdleProbe();
        try {
          const processes = { api: api.child, idle: idle.child, baseUrl: url };
          notes.push(describePhase(await coldFilters(processes, demo)));
          const target = { databaseUrl: api.databaseUrl, file: join(work, 'import-scale-1.json'), env: ENV };
          notes.push(describePhase(await concurrentImport(processes, demo, target)));
        } finally {
          idle.stop();
        }
      },
      10,
      { probe: true },
    );
  }
  if (runs('grading', false)) {
    await withApi(
      'grading',
      'sqlite',
      {},
      async (url, demo, api) => {
        const idle = await startIdleProbe();
        try {
          const processes = { api: api.child, idle: idle.child, baseUrl: url };
          notes.push(describePhase(await gradingDay(processes, demo, ENV.ADMIN_TOKEN, 'live')));
          notes.push(describePhase(await gradingDay(processes, demo, ENV.ADMIN_TOKEN, 'final')));
        } finally {
          idle.stop();
        }
      },
      1,
      { probe: true },
    );
  }
  if (runs('workers', scaleOut)) await workersGroups(kit, databases);
  if (runs('propagation', scaleOut)) await propagationGroup(kit, databases.includes('postgres') ? 'postgres' : 'sqlite', propagationRounds);
  if (runs('history', args.includes('--history'))) await historyGroup(kit, databases, options, streamRounds, rounds);
  if (runs('board', args.includes('--board'))) await boardGroup(kit, databases, options, feedRates, boardScale);
  if (runs('as-of', false)) await asOfGroup(kit, databases, boardScale);
  if (runs('outrights', false)) await outrightsGroup(kit, databases, boardScale);
  report(rows);
} finally {
  await bare.stop();
  rmSync(work, { recursive: true, force: true });
}

function generateDemoData(env: Record<string, string>, scale: number, demoArgs: readonly string[]): void {
  // The CLI works only on a database that exists: `migrate --create` makes a new SQLite file first.
  for (const command of [['migrate', '--create'], ['demo-data', '--scale', String(scale), ...demoArgs]]) {
    execFileSync(process.execPath, ['bin/sportsdata.js', ...command], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}

export interface DemoCredentials {
  client_id: string;
  api_key: string;
  client_secret: string;
}

/**
 * The anchor's CPU time per request over the API's: the throughput ratio the two would have if
 * each had a core to itself. Read from /proc, it moves far less than req/s on a shared machine.
 */
function cpuRatio(row: Row): number | undefined {
  const api = row.cpuPerRequest;
  const anchor = row.anchor?.cpuPerRequest;
  return api && anchor ? anchor / api : undefined;
}

/**
 * Each scenario measured on both databases, PostgreSQL's figure over SQLite's (cached reads must
 * not touch the database, so the two should match). The groups run one after the other, and the
 * machine's speed can change between them (its anchor shows it): × bare, each group's ratio to its
 * own anchor, is compared too.
 */
function byDatabase(measured: Row[]): string[] {
  const pairs = measured.flatMap((pg) => {
    if (!pg.group.endsWith('(postgres)')) return [];
    const lite = measured.find((m) => m.name === pg.name && m.group === pg.group.replace('(postgres)', '(sqlite)'));
    return lite === undefined ? [] : [{ pg, lite }];
  });
  if (pairs.length === 0) return [];
  return [
    '',
    '| group | scenario | PostgreSQL ÷ SQLite, req/s | PostgreSQL ÷ SQLite, × bare |',
    '|---|---|---:|---:|',
    ...pairs.map(({ pg, lite }) => `| ${pg.group.replace(' (postgres)', '')} | ${pg.name} | ${(pg.reqPerSec / lite.reqPerSec).toFixed(2)} | ${(pg.ratio / lite.ratio).toFixed(2)} |`),
  ];
}

function report(measured: Row[]): void {
  const fixed = (value: number | undefined, digits: number) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
  const lines = [
    `connections ${options.connections}; each scenario ${rounds} rounds of ${options.seconds} s against the API and against the same-bytes bare server (round-robin in its group, after a ${options.warmupSeconds} s warm-up); the median round shown, × bare = the median of the rounds' ratios; × bare by CPU = the anchor's server CPU time per request over the API's`,
    '',
    '| group | scenario | bytes | req/s | p50 ms | p99 ms | same-bytes bare req/s | × bare | CPU µs/req | bare CPU µs/req | × bare by CPU | non-2xx | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...measured.map(
      (m) =>
        `| ${m.group} | ${m.name} | ${m.bytes} | ${Math.round(m.reqPerSec)} | ${m.p50} | ${m.p99} | ${m.anchor ? Math.round(m.anchor.reqPerSec) : ''} | ${fixed(m.ratio, 2)} | ` +
        `${fixed(m.cpuPerRequest, 1)} | ${fixed(m.anchor?.cpuPerRequest, 1)} | ${fixed(cpuRatio(m), 2)} | ${m.non2xx} | ${m.errors} |`,
    ),
    ...byDatabase(measured),
    ...(notes.length > 0 ? ['', ...notes.map((n) => `- ${n}`)] : []),
  ];
  const text = lines.join('\n');
  process.stdout.write(`\n${text}\n`);
  mkdirSync('.bench', { recursive: true });
  writeFileSync(join('.bench', 'latest.md'), `${text}\n`);
}
