import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { generateDemoDataset } from '../../src/modules/demo/generator/index.js';
import type { EventLoopDelay, ProbeRequest } from '../event-loop-probe.js';
import type { DemoCredentials } from '../run.js';
import { call, type TokenPair } from './http.js';

/**
 * The event-loop delay inside the API process (its probe, over IPC) while
 * (1) new flows filters and reference lists are asked for the first time at --scale 10, and
 * (2) `sportsdata import` writes to the same SQLite file from another process while clients
 * log in. /healthz is polled meanwhile, as a load balancer would. Goal: a maximum under 50 ms.
 *
 * On a shared machine a process that waits for a core shows that wait as loop delay too. An idle
 * process with the same probe, measured over the same window, gives that floor: what the API
 * shows beyond it is its own.
 */
export interface LoopPhase {
  name: string;
  delay: EventLoopDelay;
  idle: EventLoopDelay;
  healthzMaxMs: number;
  detail: string;
}

/** The idle control process: the probe and nothing else. */
export async function startIdleProbe(): Promise<{ child: ChildProcess; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './bench/event-loop-probe.ts', '-e', 'setInterval(() => {}, 60_000)'], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await probe(child, 'event-loop:reset');
  return { child, stop: () => child.kill('SIGTERM') };
}

/** Asks the probe in a process (bench/event-loop-probe.ts) over IPC; its answer. */
export async function probe(api: ChildProcess, request: ProbeRequest): Promise<unknown> {
  api.send(request);
  const [reply] = (await once(api, 'message')) as [unknown];
  return reply;
}

/** Polls /healthz every 10 ms until stopped; the slowest answer. */
function pollHealthz(baseUrl: string): { stop: () => Promise<number> } {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${baseUrl}/healthz`)).arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return slowest;
    },
  };
}

/** Runs `work` between a reset and a read of the probe, with /healthz polled throughout. */
export async function measured(processes: Probed, name: string, work: () => Promise<string>): Promise<LoopPhase> {
  const { api, idle, baseUrl } = processes;
  await probe(api, 'event-loop:reset');
  await probe(idle, 'event-loop:reset');
  const healthz = pollHealthz(baseUrl);
  const detail = await work();
  const healthzMaxMs = await healthz.stop();
  // One more tick of the probe's timer, so that a block at the very end is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const delay = (await probe(api, 'event-loop:read')) as EventLoopDelay;
  return { name, delay, idle: (await probe(idle, 'event-loop:read')) as EventLoopDelay, healthzMaxMs, detail };
}

/** The API (probed), the idle control process, and the API's URL. */
export interface Probed {
  api: ChildProcess;
  idle: ChildProcess;
  baseUrl: string;
}

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Requests whose answers no earlier request built: each computes an id list, a key index or a reference list. */
function coldRequests(): Array<{ method: 'GET' | 'POST'; path: string; body?: unknown }> {
  const flows = (body: unknown) => ({ method: 'POST' as const, path: '/v1/trends/flows', body });
  const mixed = (body: unknown) => ({ method: 'POST' as const, path: '/v1/trends/mixed-flows', body });
  return [
    mixed({}),
    flows({ sport_ids: [1] }),
    flows({ likelihood_type: 'likely' }),
    mixed({ min_hit_rate_threshold: 60 }),
    flows({ operator_ids: [1] }),
    mixed({ operator_ids: [2, 3] }),
    mixed({ team_ids: [5] }),
    mixed({ player_ids: [100] }),
    mixed({ event_start_date_from: today(), event_start_date_to: inDays(3) }),
    flows({ bet_type: 'parlay', league_ids: [1, 2] }),
    { method: 'GET', path: '/v1/references/players?team_id=7' },
    { method: 'GET', path: '/v1/references/players?search=a' },
    { method: 'GET', path: '/v1/references/teams?search=e' },
  ];
}

export async function coldFilters(processes: Probed, demo: DemoCredentials): Promise<LoopPhase> {
  const { baseUrl } = processes;
  const { access_token } = await call<TokenPair>(baseUrl, 'POST', '/v1/auth/login', { headers: { 'x-api-key': demo.api_key } });
  const headers = { authorization: `Bearer ${access_token}` };
  return measured(processes, 'cold filters (scale 10)', async () => {
    const latencies: number[] = [];
    for (const request of coldRequests()) {
      const started = performance.now();
      await call(baseUrl, request.method, request.path, { headers, ...(request.body === undefined ? {} : { body: request.body }) });
      latencies.push(performance.now() - started);
    }
    return `${latencies.length} first requests, ${mean(latencies).toFixed(0)} ms mean, ${Math.max(...latencies).toFixed(0)} ms max`;
  });
}

/**
 * `sportsdata import FILE` (a scale-1 dataset, 24 MB: upserts over the scale-10 rows) on the
 * API's SQLite file, while logins run one after another. A login waits for the import's write
 * lock for up to 5 s, then answers 503; it must never answer 500.
 */
export async function concurrentImport(
  processes: Probed,
  demo: DemoCredentials,
  target: { databaseUrl: string; file: string; env: Record<string, string> },
): Promise<LoopPhase> {
  const { baseUrl } = processes;
  const { databaseUrl, file, env } = target;
  writeFileSync(file, JSON.stringify(generateDemoDataset({ scale: 1, now: Date.now() })));
  return measured(processes, 'concurrent CLI import (scale 1 into scale 10)', async () => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/sportsdata.js', 'import', file], {
      env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = once(child, 'exit');
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    let importing = true;
    void exited.then(() => {
      importing = false;
    });
    while (importing) {
      const begun = performance.now();
      const res = await fetch(`${baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'x-api-key': demo.api_key } });
      await res.arrayBuffer();
      latencies.push(performance.now() - begun);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    const [code] = (await exited) as [number | null];
    const seconds = (performance.now() - started) / 1000;
    const answered = [...statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
    return `import exit ${code} after ${seconds.toFixed(1)} s; logins meanwhile: ${answered} (slowest ${Math.max(...latencies).toFixed(0)} ms)`;
  });
}

export function describePhase(phase: LoopPhase): string {
  const { p99Ms, maxMs, samples } = phase.delay;
  return (
    `event loop during ${phase.name}: p99 ${p99Ms} ms, max ${maxMs} ms (${samples} samples; an idle process meanwhile: ` +
    `p99 ${phase.idle.p99Ms} ms, max ${phase.idle.maxMs} ms); /healthz slowest ${phase.healthzMaxMs.toFixed(0)} ms; ${phase.detail}`
  );
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
