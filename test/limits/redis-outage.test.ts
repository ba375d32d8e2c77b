import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import type { StoreState } from '../../src/platform/counters/counter-store.js';
import { eventually } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

/** A load that runs until `stop` (the test moves on by what the server did, not by the time). */
function loadUntilStopped(options: autocannon.Options): { stop: () => void; done: Promise<autocannon.Result> } {
  let stop = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...options, duration: 120 }, (error, result) => (error ? reject(error) : resolve(result)));
    stop = () => instance.stop();
  });
  return { stop, done };
}

describe('Redis killed mid-load', () => {
  let redis: RedisServer;
  let t: Harness;
  beforeAll(async () => {
    redis = await startRedis();
    const high = { per_minute: 1_000_000_000, per_day: 1_000_000_000 };
    t = await harness({ dialect: 'sqlite', env: { REDIS_URL: redis.url, TIER_LIMITS: JSON.stringify({ enterprise: high }) } });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('answers every request (no 5xx), reports the degraded state, and counts in Redis again once it is back', async () => {
    const states: StoreState[] = [];
    t.ctx.counters.onStateChange((state) => states.push(state));
    expect(t.ctx.counters.state()).toBe('ok');
    const client = await t.client({ tier: 'enterprise' });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    // The manual clock stands still: every request falls in one minute.
    const minute = Math.floor(t.clock.now() / 60_000);

    const direct = new Redis(redis.url);
    const inRedis = async () => Number(await direct.get(`sportsdata:rl:m:${client.clientId}:${minute}`));
    const stateIs = async (wanted: StoreState) => eventually(async () => t.ctx.counters.state() === wanted, 30_000);
    const load = loadUntilStopped({ url: `${address}/v1/references/sports`, connections: 20, headers: { 'x-api-key': client.apiKey } });
    let result: autocannon.Result;
    try {
      // Redis counts the load, then goes away in the middle of it.
      expect(await eventually(async () => (await inRedis()) > 0, 30_000)).toBe(true);
      await redis.stop();
      expect(await stateIs('degraded')).toBe(true);
      // A load balancer must not drain the node: ready, and saying what is degraded.
      const ready = await t.anonymous.get('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready', redis: 'degraded' });
      await redis.start();
      expect(await stateIs('ok')).toBe(true);
      // The restarted Redis (no persistence) started empty: the load counts there again.
      expect(await eventually(async () => (await inRedis()) > 0, 30_000)).toBe(true);
    } finally {
      load.stop();
      result = await load.done;
    }

    expect(result.errors).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result['2xx']).toBeGreaterThan(100);
    expect(states).toEqual(['degraded', 'ok']);
    const warnings = t.logs().split('\n').filter((line) => line.includes('Redis is unreachable: rate limits'));
    expect(warnings).toHaveLength(1);
    expect(t.logs()).toMatch(/Redis is reachable again/);

    // What the restarted Redis holds was counted after it came back.
    try {
      const counted = await inRedis();
      expect(counted).toBeGreaterThan(0);
      // More requests than one lease holds: Redis counts on.
      const more = await autocannon({ url: `${address}/v1/references/sports`, connections: 10, amount: 1500, headers: { 'x-api-key': client.apiKey } });
      expect(more.non2xx).toBe(0);
      expect(await inRedis()).toBeGreaterThan(counted);
    } finally {
      direct.disconnect();
    }
  }, 120_000);
});
