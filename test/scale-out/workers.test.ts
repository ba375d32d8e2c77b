import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type LogLine, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-workers-'));
const started: NodeProcess[] = [];
// Several workers count limits in Redis (decision 0090).
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const node of started) await node.stop(2000);
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** GET on a new connection each time, so that the cluster hands each to the next worker. */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

const listening = (line: LogLine) => line.msg === 'worker listening';
const workerPid = (line: LogLine) => Number(line.worker_pid);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function cluster(args: string[], env: Record<string, string> = {}): Promise<NodeProcess> {
  const node = await startNode({ cli: ['serve', ...args], env: nodeEnv(dataDir, { REDIS_URL: redis.url, ...env }) });
  started.push(node);
  return node;
}

describe('serve --workers', () => {
  it('serves one port from 2 workers, replaces a killed worker, and stops them all on SIGTERM', async () => {
    // --workers wins over WORKERS.
    const node = await cluster(['--workers', '2'], { WORKERS: '3' });
    await node.waitUntilReady(60_000);
    await eventually(async () => node.logs().filter(listening).length >= 2, 30_000);
    expect(node.logs().filter((line) => line.msg === 'worker started')).toHaveLength(2);
    const pids = node.logs().filter(listening).map(workerPid);
    expect(new Set(pids).size).toBe(2);

    // Requests on new connections are answered by both workers (each logs its own pid).
    for (let i = 0; i < 10; i += 1) expect(await statusOnNewConnection(`${node.url}/healthz`)).toBe(200);
    const answeredBy = new Set(node.logs().filter((line) => line.msg === 'request completed').map((line) => line.pid));
    expect(answeredBy).toEqual(new Set(pids));

    // A worker killed outright is replaced; the port answers meanwhile.
    const [victim, survivor] = pids as [number, number];
    process.kill(victim, 'SIGKILL');
    const exit = await node.waitForLog((line) => line.msg === 'worker exited; replacing it' && workerPid(line) === victim);
    expect(exit).toMatchObject({ signal: 'SIGKILL', restart_in_ms: 0 });
    for (let i = 0; i < 5; i += 1) expect(await statusOnNewConnection(`${node.url}/healthz`)).toBe(200);
    const replacement = await node.waitForLog((line) => listening(line) && ![victim, survivor].includes(workerPid(line)), 30_000);
    await node.waitForLog((line) => line.msg === 'serving' && line.pid === workerPid(replacement), 30_000);

    // SIGTERM to the primary: every worker runs its own shutdown, then the primary exits.
    node.child.kill('SIGTERM');
    expect(await node.exited).toEqual({ code: 0, signal: null });
    for (const pid of [survivor, workerPid(replacement)]) {
      expect(node.logs().some((line) => line.msg === 'shutting down' && line.pid === pid)).toBe(true);
      expect(isAlive(pid)).toBe(false);
    }
  }, 90_000);

  it('a worker that cannot start exits (instead of idling on its IPC channel) and is replaced', async () => {
    // Nothing listens on port 1: every worker fails to reach the database.
    const node = await cluster(['--workers', '2'], { DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    const exit = await node.waitForLog((line) => line.msg === 'worker exited; replacing it', 30_000);
    expect(exit).toMatchObject({ code: 1, restart_in_ms: 0 });
    expect(node.stderr()).toMatch(/cannot start: /);
    node.child.kill('SIGTERM');
    expect((await node.exited).code).toBe(0);
  }, 45_000);

  it('refuses several workers without REDIS_URL, in one line: their limits could not be counted as one', async () => {
    const node = await cluster(['--workers', '2'], { REDIS_URL: '' });
    expect(await node.exited).toEqual({ code: 1, signal: null });
    expect(node.stderr()).toMatch(/^cannot start: 2 workers need REDIS_URL/);
    expect(node.stderr().trim().split('\n')).toHaveLength(1);
  }, 30_000);
});
