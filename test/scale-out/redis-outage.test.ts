import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { eventually, type LogLine, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-redis-outage-'));
let node: NodeProcess | undefined;
let redis: RedisServer | undefined;
afterAll(async () => {
  await node?.stop(2000);
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function readiness(n: NodeProcess): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${n.url}/readyz`);
  return { status: res.status, body: await res.json() };
}

const sameAs = (actual: unknown, expected: unknown) => JSON.stringify(actual) === JSON.stringify(expected);

/** A warning that Redis is unreachable, from one of its two users: the change feed or the limit counters. */
const unreachableWarning = (line: LogLine) => line.level === 40 && String(line.msg).startsWith('Redis is unreachable');
const fromChangeFeed = (line: LogLine) => String(line.msg).includes('changes reach this node');
const fromLimitStore = (line: LogLine) => String(line.msg).includes('rate limits are counted by this node alone');

describe('Redis is optional: a node serves without it and follows it as it comes and goes', () => {
  it('starts and serves while Redis is down (ready, redis degraded), reports ok once it is up, and degraded again when it goes', async () => {
    redis = await startRedis({ running: false });
    node = await startNode({ env: nodeEnv(dataDir, { REDIS_URL: redis.url }) });
    const n = node;
    await n.waitUntilReady();
    expect(await readiness(n)).toEqual({ status: 200, body: { status: 'ready', database: 'ok', redis: 'degraded' } });
    const created = await fetch(`${n.url}/admin/v1/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Without Redis', tier: 'pro', auth_method: 'both' }),
    });
    expect(created.status).toBe(201);

    await redis.start();
    expect(await eventually(async () => sameAs(await readiness(n), { status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } }), 10_000)).toBe(true);
    await n.waitForLog((line) => line.msg === 'Redis is reachable again');

    await redis.stop();
    expect(await eventually(async () => sameAs(await readiness(n), { status: 200, body: { status: 'ready', database: 'ok', redis: 'degraded' } }), 10_000)).toBe(true);
    // Several reconnection attempts fail meanwhile; each outage is one warning from each user of Redis.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await fetch(`${n.url}/healthz`)).status).toBe(200);
    const warnings = n.logs().filter(unreachableWarning);
    expect(warnings.filter(fromChangeFeed)).toHaveLength(2);
    expect(warnings.filter(fromLimitStore)).toHaveLength(2);
    expect(warnings).toHaveLength(4);
    expect(n.child.exitCode).toBeNull();
    expect(n.stderr()).toBe('');
  }, 60_000);
});
