import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Scenario {
  name: string;
  /** The server to load, when not the group's. */
  baseUrl?: string;
  /** The server's process: its CPU time per request is measured too (Linux). */
  pid?: number;
  /** Target requests: a fixed request, or per-connection state through setupRequest/onResponse. */
  requests: autocannon.Request[];
  headers?: Record<string, string>;
  /**
   * Connections, when not the run's: a request of tens of ms under 50 connections queues past the
   * load tool's timeout, and a request given up on still costs the server but counts for none.
   */
  connections?: number;
}

export interface Measured {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server process's CPU time (user + system) per request, in µs, when its pid is known. */
  cpuPerRequest?: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** Runs one scenario against a base URL: a short warm-up (JIT, caches), then the measured run. */
export async function measure(baseUrl: string, scenario: Scenario, options: LoadOptions): Promise<Measured> {
  const run = (duration: number) =>
    autocannon({
      url: scenario.baseUrl ?? baseUrl,
      connections: scenario.connections ?? options.connections,
      duration,
      headers: scenario.headers,
      requests: scenario.requests,
    });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const cpuBefore = cpuTicks(scenario.pid);
  const result = await run(options.seconds);
  const cpuAfter = cpuTicks(scenario.pid);
  return {
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuPerRequest: ((cpuAfter - cpuBefore) * 10_000) / result.requests.total } : {}),
    name: scenario.name,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * A process's CPU time so far in clock ticks (1/100 s), from /proc: a figure that a machine
 * shared with other work disturbs less than throughput. Undefined off Linux.
 */
export function cpuTicks(pid: number | undefined, options: { mainThread?: boolean } = {}): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // A process's main thread is the task whose id is the process's: its own time, without its other threads'.
    return statOf(readFileSync(options.mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')).ticks;
  } catch {
    return undefined;
  }
}

/**
 * A /proc `stat` line read: the task's name (between the first '(' and the last ')', as a name may
 * hold either) and its CPU time so far in clock ticks, user + system.
 */
export function statOf(stat: string): { name: string; ticks: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
}

/**
 * Resolves once a process has been idle (under 5% of a core) for two 2-second spells in a row: an
 * API started on a fresh demo database first works through the demo's price history (its history
 * processors run at start), and a scenario measured meanwhile would bill that work to its requests.
 * At once off Linux.
 */
export async function untilIdle(pid: number | undefined): Promise<void> {
  for (let idle = 0, last = cpuTicks(pid); last !== undefined && idle < 2; ) {
    await new Promise((r) => setTimeout(r, 2_000));
    const now = cpuTicks(pid) ?? last;
    idle = now - last < 10 ? idle + 1 : 0;
    last = now;
  }
}
