import { resolve } from 'node:path';
import type autocannon from 'autocannon';
import { measure, untilIdle } from './load.js';
import { localDemo } from './local-demo.js';
import { bearerFor } from './scenarios/data.js';

/**
 * `npx tsx bench/compare.ts --before DIR [--after DIR] [--again] [--path P] [--board] [--as-of] [--api-key] [--login] [--rounds 6] [--seconds 4] [--connections 50]`:
 * builds of the API (each DIR a checkout with its `dist/` built and its node_modules; --after
 * defaults to this one) on one demo database, loaded in turn, round after round, with the same
 * request. Reports each one's median server CPU time per request, req/s and p99 latency: the way to tell what
 * one change to the hot path gains on a machine too noisy for absolute figures (decision 0148).
 *
 * `--again` loads the `before` build a second time as a build of its own ("before, again"): the
 * difference between the two copies of one build (the A/A pair) is the noise of this run, against
 * which the difference between before and after (the A/B pair) is read.
 * `--board` loads `POST /v1/odds/board` with a page of 100 selections instead of a GET of `--path`.
 * `--as-of` loads the same board page as of an instant, a new one every request (a backtest walking
 * through time: never a cached page), a millisecond apart, from a minute before now backwards.
 *
 * Before the first round, one server of the `after` build works through the demo's price history
 * (its processors run at start on a fresh database) and the run waits until it is idle: otherwise
 * the first server of the first round would bill that work to its requests.
 *
 * Each round starts every server afresh: one process's JIT can settle a few µs per request above
 * or below another's of the same build (decision 0148), and a comparison of two processes would
 * measure that luck; across fresh processes it averages out. The order of the builds turns each round.
 */
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const before = flag('before');
if (before === undefined) throw new Error('--before DIR: a checkout with dist/ built');
const builds: Record<string, string> = { before: resolve(before), after: resolve(flag('after') ?? '.') };
if (args.includes('--again')) builds['before, again'] = resolve(before);
const names = Object.keys(builds);
const path = flag('path') ?? '/v1/account/config';
const rounds = Number(flag('rounds') ?? 6);
const seconds = Number(flag('seconds') ?? 4);
// An uncached page costs tens of ms: 50 connections would queue past the load tool's timeout, and a
// request given up on still costs the server, so `--as-of` loads with few (default 2).
const connections = Number(flag('connections') ?? (args.includes('--as-of') ? 2 : 50));
const login = args.includes('--login');
const board = args.includes('--board');
const asOf = args.includes('--as-of');

const demoDb = localDemo('compare');

type Round = { cpu: number; rps: number; p99: number };
type Request = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string; setupRequest?: (req: autocannon.Request) => autocannon.Request };
const results = new Map<string, Round[]>(names.map((name) => [name, []]));

/** The one request every build answers: a read with Bearer (or the API key), a login, or a board page. */
async function requestFor(url: string): Promise<Request> {
  const demo = demoDb.credentials();
  // --login: POST /v1/auth/login with the API key (a write) instead of the read.
  const headers: Record<string, string> = args.includes('--api-key') || login ? { 'x-api-key': demo.api_key } : { authorization: await bearerFor(url, demo) };
  if (login) return { method: 'POST', path: '/v1/auth/login', headers };
  if (board || asOf) {
    const request: Request = { method: 'POST', path: '/v1/odds/board', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ page_size: 100 }) };
    if (!asOf) return request;
    // A minute before the server's now: inside the history (the demo's slate is priced then), and never asked twice.
    let next = Date.now() - 60_000;
    return { ...request, setupRequest: (req) => ({ ...req, body: JSON.stringify({ page_size: 100, as_of: new Date((next -= 1)).toISOString() }) }) };
  }
  return { method: 'GET', path, headers };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const medianCpu = (name: string) => median((results.get(name) ?? []).map((r) => r.cpu));

/** Starts one server, waits until it is idle (the demo's history worked through), and stops it. */
async function settle(dir: string): Promise<void> {
  const server = await demoDb.start({ dir });
  try {
    await untilIdle(server.child.pid);
  } finally {
    await server.stop();
  }
}

try {
  await settle(builds.after ?? '.');
  let request: Request | undefined;
  for (let round = 0; round < rounds; round += 1) {
    const servers = new Map<string, Awaited<ReturnType<typeof demoDb.start>>>();
    try {
      for (const name of names) servers.set(name, await demoDb.start({ dir: builds[name] }));
      request ??= await requestFor([...servers.values()][0]?.url ?? '');
      const order = names.map((_, i) => names[(i + round) % names.length] ?? '');
      for (const name of order) {
        const server = servers.get(name);
        if (server === undefined) continue;
        const m = await measure(server.url, { name, pid: server.child.pid, requests: [request] }, { connections, seconds, warmupSeconds: 2 });
        results.get(name)?.push({ cpu: m.cpuPerRequest ?? Number.NaN, rps: m.reqPerSec, p99: m.p99 });
      }
    } finally {
      for (const server of servers.values()) await server.stop();
    }
  }
  for (const name of names) {
    const rows = results.get(name) ?? [];
    const rps = median(rows.map((r) => r.rps));
    const p99 = median(rows.map((r) => r.p99));
    process.stdout.write(`${name} (${builds[name]}): ${medianCpu(name).toFixed(1)} µs CPU/request, ${Math.round(rps)} req/s, p99 ${p99} ms (medians of ${rounds}); CPU per round: ${rows.map((r) => r.cpu.toFixed(1)).join(' ')}\n`);
  }
  const label = `${request?.method} ${request?.path}${asOf ? ', as_of a new instant each request' : ''} (${request && 'x-api-key' in request.headers ? 'X-API-Key' : 'Bearer'})`;
  process.stdout.write(`${label}: after saves ${(medianCpu('before') - medianCpu('after')).toFixed(1)} µs of server CPU per request\n`);
  if (names.includes('before, again')) process.stdout.write(`A/A, the noise: before and before again differ by ${Math.abs(medianCpu('before') - medianCpu('before, again')).toFixed(1)} µs\n`);
} finally {
  demoDb.remove();
}
