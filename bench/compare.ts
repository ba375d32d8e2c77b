import { resolve } from 'node:path';
import { measure } from './load.js';
import { localDemo } from './local-demo.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `npx tsx bench/compare.ts --before DIR [--after DIR] [--path P] [--api-key] [--login] [--rounds 6] [--seconds 4]`:
 * two builds of the API (each DIR a checkout with its `dist/` built and its node_modules; --after
 * defaults to this one) on one demo database, loaded in turn, round after round, with the same
 * request. Reports each one's median server CPU time per request, req/s and p99 latency: the way to tell what
 * one change to the hot path gains on a machine too noisy for absolute figures (decision 0148).
 * Each round starts both servers afresh: one process's JIT can settle a few µs per request above
 * or below another's of the same build (decision 0148), and a comparison of two processes would
 * measure that luck; across fresh processes it averages out.
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

const demoDb = localDemo('compare');

const login = args.includes('--login');
type Round = { cpu: number; rps: number; p99: number };
const results = { before: [] as Round[], after: [] as Round[] };
let request: { method: 'GET' | 'POST'; path: string; headers: Record<string, string> } | undefined;
try {
  for (let round = 0; round < rounds; round += 1) {
    const servers = { before: await demoDb.start({ dir: builds.before }), after: await demoDb.start({ dir: builds.after }) };
    try {
      if (request === undefined) {
        const demo = demoDb.credentials();
        // --login: POST /v1/auth/login with the API key (a write) instead of the read.
        const headers: Record<string, string> = args.includes('--api-key') || login ? { 'x-api-key': demo.api_key } : { authorization: await bearerFor(servers.after.url, demo) };
        request = login ? { method: 'POST', path: '/v1/auth/login', headers } : { method: 'GET', path, headers };
      }
      for (const side of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const { url, child } = servers[side];
        const m = await measure(url, { name: side, pid: child.pid, requests: [request] }, { connections: 50, seconds, warmupSeconds: 2 });
        results[side].push({ cpu: m.cpuPerRequest ?? Number.NaN, rps: m.reqPerSec, p99: m.p99 });
      }
    } finally {
      for (const server of Object.values(servers)) await server.stop();
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  for (const side of ['before', 'after'] as const) {
    const cpu = median(results[side].map((r) => r.cpu));
    const rps = median(results[side].map((r) => r.rps));
    const p99 = median(results[side].map((r) => r.p99));
    process.stdout.write(`${side} (${builds[side]}): ${cpu.toFixed(1)} µs CPU/request, ${Math.round(rps)} req/s, p99 ${p99} ms (medians of ${rounds}); CPU per round: ${results[side].map((r) => r.cpu.toFixed(1)).join(' ')}\n`);
  }
  const gain = median(results.before.map((r) => r.cpu)) - median(results.after.map((r) => r.cpu));
  process.stdout.write(`${request?.method} ${request?.path} (${request && 'x-api-key' in request.headers ? 'X-API-Key' : 'Bearer'}): after saves ${gain.toFixed(1)} µs of server CPU per request\n`);
} finally {
  demoDb.remove();
}
