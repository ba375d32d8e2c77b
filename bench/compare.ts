import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { demoCredentialsFile } from '../src/modules/demo/index.js';
import { freePort } from '../test/helpers/free-port.js';
import { LIMITS_NEVER_REACHED } from './limits.js';
import { measure } from './load.js';
import type { DemoCredentials } from './run.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `npx tsx bench/compare.ts --before DIR [--after DIR] [--path P] [--api-key] [--login] [--rounds 6] [--seconds 4]`:
 * two builds of the API (each DIR a checkout with its `dist/` built and its node_modules; --after
 * defaults to this one) on one demo database, loaded in turn, round after round, with the same
 * request. Reports each one's median server CPU time per request and req/s: the way to tell what
 * one change to the hot path gains on a machine too noisy for absolute figures (issue 11).
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const before = flag('before');
if (before === undefined) throw new Error('--before DIR: a checkout with dist/ built');
const builds = { before: resolve(before), after: resolve(flag('after') ?? '.') };
const path = flag('path') ?? '/v1/account/config';
const rounds = Number(flag('rounds') ?? 6);
const seconds = Number(flag('seconds') ?? 4);

const work = mkdtempSync(join(tmpdir(), 'sportsdata-compare-'));
const url = `sqlite:${join(work, 'db.sqlite')}`;
const env = {
  ...process.env,
  DATABASE_URL: url,
  DATA_DIR: work,
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  ACCESS_TOKEN_TTL: '3600',
  LOG_LEVEL: 'warn',
  TIER_LIMITS: LIMITS_NEVER_REACHED,
  NODE_ENV: 'production',
};
execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
for (const command of [['migrate', '--create'], ['demo-data']]) execFileSync(process.execPath, ['bin/sportsdata.js', ...command], { env, stdio: 'ignore' });

async function start(dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, 'dist/server.js')], { cwd: dir, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'inherit' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not yet
    }
    if (i > 600) throw new Error(`${dir} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child };
}

const servers = { before: await start(builds.before), after: await start(builds.after) };
try {
  const demo = JSON.parse(readFileSync(demoCredentialsFile(work, url), 'utf8')) as DemoCredentials;
  // --login: POST /v1/auth/login with the API key (a write) instead of the read.
  const login = args.includes('--login');
  const headers = args.includes('--api-key') || login ? { 'x-api-key': demo.api_key } : { authorization: await bearerFor(servers.after.base, demo) };
  const request = login ? { method: 'POST' as const, path: '/v1/auth/login', headers } : { method: 'GET' as const, path, headers };
  const results = { before: [] as Array<{ cpu: number; rps: number }>, after: [] as Array<{ cpu: number; rps: number }> };
  for (let round = 0; round < rounds; round += 1) {
    for (const side of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
      const { base, child } = servers[side];
      const m = await measure(base, { name: side, pid: child.pid, requests: [request] }, { connections: 50, seconds, warmupSeconds: round === 0 ? 2 : 0 });
      results[side].push({ cpu: m.cpuPerRequest ?? Number.NaN, rps: m.reqPerSec });
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  for (const side of ['before', 'after'] as const) {
    const cpu = median(results[side].map((r) => r.cpu));
    const rps = median(results[side].map((r) => r.rps));
    process.stdout.write(`${side} (${builds[side]}): ${cpu.toFixed(1)} µs CPU/request, ${Math.round(rps)} req/s (medians of ${rounds}); CPU per round: ${results[side].map((r) => r.cpu.toFixed(1)).join(' ')}\n`);
  }
  const gain = median(results.before.map((r) => r.cpu)) - median(results.after.map((r) => r.cpu));
  process.stdout.write(`${request.method} ${request.path} (${'x-api-key' in headers ? 'X-API-Key' : 'Bearer'}): after saves ${gain.toFixed(1)} µs of server CPU per request\n`);
} finally {
  for (const { child } of Object.values(servers)) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  rmSync(work, { recursive: true, force: true });
}
