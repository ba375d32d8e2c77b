import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

describe('limits across two server processes on one PostgreSQL and one Redis', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-limits-'));
  let redis: RedisServer;
  let drop: () => Promise<void>;
  let nodes: NodeProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    const database = await freshDatabaseUrl('postgres');
    drop = database.drop;
    const env = nodeEnv(dataDir, { DATABASE_URL: database.url, REDIS_URL: redis.url, LOG_LEVEL: 'warn' });
    // One after the other: the first migrates the database.
    for (let i = 0; i < 2; i += 1) {
      const node = await startNode({ env });
      await node.waitUntilReady(60_000);
      nodes = [...nodes, node];
    }
  }, 120_000);
  afterAll(async () => {
    for (const node of nodes) await node.stop(5000);
    await redis.stop();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function onboard(tier: string, patch?: Record<string, unknown>): Promise<string> {
    const [a] = nodes;
    if (!a) throw new Error('no node');
    const res = await fetch(`${a.url}/admin/v1/clients`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme', tier, auth_method: 'api_key' }) });
    const { client_id, api_key } = (await res.json()) as { client_id: string; api_key: string };
    if (patch) expect((await fetch(`${a.url}/admin/v1/clients/${client_id}`, { method: 'PATCH', headers: admin, body: JSON.stringify(patch) })).status).toBe(200);
    return api_key;
  }

  /** `count` data calls, spread over both nodes, 10 at a time. */
  async function burst(apiKey: string, count: number): Promise<Response[]> {
    const answers: Response[] = [];
    for (let i = 0; i < count; i += 10) {
      const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) => {
        const node = nodes[(i + j) % nodes.length];
        return fetch(`${node?.url}/v1/references/sports`, { headers: { 'x-api-key': apiKey } });
      });
      answers.push(...(await Promise.all(batch)));
    }
    return answers;
  }

  it('a daily quota of 100: together the two nodes give exactly 100', async () => {
    const apiKey = await onboard('pro', { daily_quota: 100 });
    const answers = await burst(apiKey, 150);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(100);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(50);
  });

  it('a free client: together exactly 60 in its minute, and the remaining counts are 59 down to 0, once each', async () => {
    // Not across a minute boundary: wait for a fresh minute when less than 15 s are left.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
    const apiKey = await onboard('free');
    const answers = await burst(apiKey, 90);
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(60);
    expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(30);
    for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
