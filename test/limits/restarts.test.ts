import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/platform/db/database.js';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { dataCall, drain, patchClient, type NodeWithRedis, startNodeWithRedis, startTwoNodes, TEN_PAST_NOON, type TwoNodes, usageOf } from './limits-helpers.js';

/*
 * A daily quota is a promise about a day, not about a process's life: a restarted node, or a
 * Redis restarted without persistence, starts each client's day from its recorded usage.
 */

/** A database two apps can open one after the other, or side by side: an SQLite file, or a PostgreSQL database. */
async function sharedDatabase(dialect: DialectName): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'postgres') return freshDatabaseUrl('postgres');
  const dir = mkdtempSync(join(tmpdir(), 'sportsdata-restarts-'));
  return { url: `sqlite:${join(dir, 'api.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Restarts Redis without persistence and waits until each app counts in Redis again: it saw
 * Redis go (told as it happened: a reconnection can end the outage before a poll would see it),
 * then its store re-checked what Redis holds.
 */
async function restartRedis(redis: { stop(): Promise<void>; start(): Promise<void> }, apps: readonly Harness[]): Promise<void> {
  const outages = apps.map((t) => new Promise<void>((resolve) => t.ctx.counters.onStateChange((state) => state === 'degraded' && resolve())));
  await redis.stop();
  await redis.start();
  await Promise.all(outages);
  for (const t of apps) await expect.poll(() => t.ctx.counters.state(), { timeout: 15_000 }).toBe('ok');
}

describe.each(DIALECTS)('a restart gives no client its day back (%s)', (dialect) => {
  it('without Redis: 30 of a quota of 100 before the restart, exactly 70 after it; the usage view agrees', async () => {
    const database = await sharedDatabase(dialect);
    try {
      const before = await harness({ dialect, databaseUrl: database.url, clock: manualClock(TEN_PAST_NOON) });
      const client = await before.client({ tier: 'pro' });
      try {
        await patchClient(before, client.clientId, { daily_quota: 100 });
        for (let i = 0; i < 30; i += 1) expect((await dataCall(before, client.apiKey)).statusCode).toBe(200);
      } finally {
        await before.close();
      }

      // Ten minutes later, the same day.
      const after = await harness({ dialect, databaseUrl: database.url, clock: manualClock(TEN_PAST_NOON + 600_000) });
      try {
        const usage = await usageOf(after, client.clientId);
        expect(usage.current.day).toMatchObject({ used: 30, remaining: 70 });
        expect(usage.days.at(-1)).toMatchObject({ requests: 30, charged: 30 });
        expect(await drain([after], client.apiKey)).toBe(70);
      } finally {
        await after.close();
      }
    } finally {
      await database.drop();
    }
  });

  describe('with Redis restarted without persistence', () => {
    let node: NodeWithRedis;
    let t: Harness;
    beforeAll(async () => void ({ t } = node = await startNodeWithRedis(dialect)));
    afterAll(async () => node.close());

    it('the day goes on from what was used: 6 of 100 before, exactly 94 after, whatever this node held ahead', async () => {
      t.clock.set(TEN_PAST_NOON);
      const client = await t.client({ tier: 'pro' });
      await patchClient(t, client.clientId, { daily_quota: 100 });
      for (let i = 0; i < 6; i += 1) expect((await dataCall(t, client.apiKey)).statusCode).toBe(200);

      await restartRedis(node.redis, [t]);

      const usage = await usageOf(t, client.clientId);
      expect(usage.current.day).toMatchObject({ used: 6, remaining: 94 });
      expect(usage.days.at(-1)).toMatchObject({ charged: 6 });
      expect(await drain([t], client.apiKey)).toBe(94);
    });
  });
});

describe('two nodes on one PostgreSQL database and one Redis restarted without persistence', () => {
  let nodes: TwoNodes;
  beforeAll(async () => void (nodes = await startTwoNodes()), 60_000);
  afterAll(async () => nodes.close());

  it('30 of a quota of 100 served by both nodes before the restart: together exactly 70 after it', async () => {
    const { a, b } = nodes;
    const client = await a.client({ tier: 'pro' });
    await patchClient(a, client.clientId, { daily_quota: 100 });
    for (let i = 0; i < 15; i += 1) for (const node of [a, b]) expect((await dataCall(node, client.apiKey)).statusCode).toBe(200);

    await restartRedis(nodes.redis, [a, b]);

    expect((await usageOf(b, client.clientId)).current.day).toMatchObject({ used: 30, remaining: 70 });
    expect(await drain([a, b], client.apiKey)).toBe(70);
  });
});
