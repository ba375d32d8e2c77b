import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterStore, StoreState, WindowedCounter } from '../../src/platform/counters/counter-store.js';
import { createMemoryStore } from '../../src/platform/counters/memory-store.js';
import { createRedisStore } from '../../src/platform/counters/redis-store.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

const NOON = Date.parse('2030-01-15T12:00:00Z');
const counter = (key: string, limit: number, windowMs = 60_000): WindowedCounter => ({ key, windowMs, limit });

function recordingLog() {
  const lines: Array<{ level: string; message: string }> = [];
  return {
    lines,
    info: (_fields: Record<string, unknown>, message: string) => void lines.push({ level: 'info', message }),
    warn: (_fields: Record<string, unknown>, message: string) => void lines.push({ level: 'warn', message }),
    error: (_fields: Record<string, unknown>, message: string) => void lines.push({ level: 'error', message }),
  };
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis.stop());

const stores: Array<[string, () => Promise<CounterStore>]> = [
  ['memory', async () => createMemoryStore()],
  [
    'redis',
    async () => {
      const store = createRedisStore(redis.url);
      await store.start(recordingLog());
      return store;
    },
  ],
];

describe.each(stores)('limit counters (%s)', (name, open) => {
  let store: CounterStore;
  // Keys of their own per store: both stores' tests share one Redis.
  const key = (k: string) => `${name}-${k}-${Math.random()}`;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store.stop());

  it('counts up to the limit, then refuses without counting; the counts come back in order', async () => {
    const minute = counter(key('m'), 3);
    const day = counter(key('d'), Infinity, 86_400_000);
    for (let i = 1; i <= 3; i += 1) expect(await store.take([minute, day], NOON)).toEqual({ allowed: true, counts: [i, i] });
    expect(await store.take([minute, day], NOON)).toEqual({ allowed: false, counts: [3, 3] });
    expect(await store.read([minute, day], NOON)).toEqual([3, 3]);
  });

  it('restarts each counter at its own window: the next minute counts from 0, the day goes on', async () => {
    const minute = counter(key('m'), 2);
    const day = counter(key('d'), 3, 86_400_000);
    await store.take([minute, day], NOON);
    await store.take([minute, day], NOON + 59_999);
    expect((await store.take([minute, day], NOON + 59_999)).allowed).toBe(false);
    expect(await store.take([minute, day], NOON + 60_000)).toEqual({ allowed: true, counts: [1, 3] });
    // The day is spent: the next minute is refused too, and counts nothing.
    expect(await store.take([minute, day], NOON + 120_000)).toEqual({ allowed: false, counts: [0, 3] });
  });

  it('200 concurrent takes against a limit of 60 grant exactly 60, each with its own count, in order', async () => {
    const counters = [counter(key('c'), 60), counter(key('cd'), Infinity, 86_400_000)];
    const results = await Promise.all(Array.from({ length: 200 }, () => store.take(counters, NOON)));
    const allowed = results.filter((r) => r.allowed);
    expect(allowed.map((r) => r.counts)).toEqual(Array.from({ length: 60 }, (_, i) => [i + 1, i + 1]));
    expect(results.slice(60).every((r) => !r.allowed && r.counts[0] === 60)).toBe(true);
    expect(await store.read(counters, NOON)).toEqual([60, 60]);
  });
});

describe('leases: a busy client costs few round trips, and two nodes still grant exactly the limit', () => {
  const leaseable = (key: string, limit: number, windowMs = 60_000): WindowedCounter => ({ key, windowMs, limit, leaseable: true });
  const scripts = async (url: string) => {
    const direct = new Redis(url);
    try {
      const info = await direct.info('commandstats');
      return [...info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    } finally {
      direct.disconnect();
    }
  };

  it('1,000 takes of one client in a roomy window cost a few script calls; counts and reads stay exact', async () => {
    const store = createRedisStore(redis.url);
    await store.start(recordingLog());
    try {
      const counters = [leaseable(`busy-${Math.random()}`, 1_000_000), leaseable(`busy-day-${Math.random()}`, Infinity, 86_400_000)];
      const before = await scripts(redis.url);
      const counts: number[] = [];
      for (let i = 0; i < 1000; i += 1) counts.push(((await store.take(counters, NOON)).counts[0]) ?? 0);
      expect(counts).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect((await scripts(redis.url)) - before).toBeLessThanOrEqual(3);
      // What the node holds ahead is not counted as used.
      expect(await store.read(counters, NOON)).toEqual([1000, 1000]);
    } finally {
      await store.stop();
    }
  });

  it('a lease is kept by key: counters described anew use it; under another limit what it holds goes back', async () => {
    const store = createRedisStore(redis.url);
    await store.start(recordingLog());
    try {
      const key = `rebased-${Math.random()}`;
      // A new object every time, as the limiter plans an account anew after any change to any client.
      const countersOf = (limit: number) => [leaseable(key, limit)];
      expect((await store.take(countersOf(100), NOON)).counts).toEqual([1]);
      const before = await scripts(redis.url);
      for (let i = 2; i <= 5; i += 1) expect((await store.take(countersOf(100), NOON)).counts).toEqual([i]);
      expect((await scripts(redis.url)) - before).toBe(0);
      expect(await store.read(countersOf(100), NOON)).toEqual([5]);
      // The limit becomes 50: the five events still held (6 to 10) go back before the next grant.
      expect((await store.take(countersOf(50), NOON)).counts).toEqual([6]);
      expect(await store.read(countersOf(50), NOON)).toEqual([6]);
      store.revise(countersOf(20), NOON);
      expect(await store.read(countersOf(20), NOON)).toEqual([6]);
      const direct = new Redis(redis.url);
      try {
        expect(Number(await direct.get(`sportsdata:${key}:${Math.floor(NOON / 60_000)}`))).toBe(6);
      } finally {
        direct.disconnect();
      }
    } finally {
      await store.stop();
    }
  });

  it('two stores on one Redis, taking in turn against a limit of 60: exactly 60, each count once', async () => {
    const [a, b] = [createRedisStore(redis.url), createRedisStore(redis.url)];
    await a.start(recordingLog());
    await b.start(recordingLog());
    try {
      // Each store is one node: its own counters array, the same key.
      const key = `shared-${Math.random()}`;
      const onA = [leaseable(key, 60)];
      const onB = [leaseable(key, 60)];
      const results = [];
      for (let i = 0; i < 60; i += 1) results.push(...(await Promise.all([a.take(onA, NOON), b.take(onB, NOON), a.take(onA, NOON)])));
      const allowed = results.filter((r) => r.allowed);
      expect(allowed).toHaveLength(60);
      expect(allowed.map((r) => r.counts[0]).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('leases across windows', () => {
  it("a day's events granted ahead outlive the minute they came with: two nodes give exactly the daily quota across minutes", async () => {
    const [a, b] = [createRedisStore(redis.url), createRedisStore(redis.url)];
    await a.start(recordingLog());
    await b.start(recordingLog());
    try {
      const id = Math.random();
      // One client's counters as each node's limiter builds them: the same keys, its own objects.
      const countersOf = () => [
        { key: `m-${id}`, windowMs: 60_000, limit: 1_000_000, leaseable: true },
        { key: `d-${id}`, windowMs: 86_400_000, limit: 100, leaseable: true },
      ];
      const [onA, onB] = [countersOf(), countersOf()];
      let allowed = 0;
      // 150 requests over five minutes, in bursts of five per node.
      for (let i = 0; i < 30; i += 1) {
        const now = NOON + Math.floor(i / 6) * 60_000 + i * 100;
        const results = await Promise.all([...Array.from({ length: 5 }, () => a.take(onA, now)), ...Array.from({ length: 5 }, () => b.take(onB, now))]);
        allowed += results.filter((r) => r.allowed).length;
      }
      expect(allowed).toBe(100);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('the Redis store when Redis goes away', () => {
  it('fails open, counting locally; says degraded once; counts in Redis again when it is back', async () => {
    const own = await startRedis();
    const log = recordingLog();
    const store = createRedisStore(own.url);
    const states: StoreState[] = [];
    store.onStateChange((state) => states.push(state));
    await store.start(log);
    try {
      expect(store.state()).toBe('ok');
      const c = counter('outage', 5);
      expect((await store.take([c], NOON)).counts).toEqual([1]);

      await own.stop();
      await expect.poll(() => store.state()).toBe('degraded');
      // Served and counted by this process meanwhile; nothing throws.
      const local = await Promise.all(Array.from({ length: 7 }, () => store.take([c], NOON)));
      expect(local.filter((r) => r.allowed)).toHaveLength(5);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);

      await own.start();
      await expect.poll(() => store.state(), { timeout: 10_000 }).toBe('ok');
      expect(log.lines.at(-1)).toMatchObject({ level: 'info', message: expect.stringMatching(/reachable again/) });
      // A new Redis (no persistence) starts from 0: counting is back in Redis.
      expect((await store.take([c], NOON)).counts).toEqual([1]);
      expect(states).toEqual(['ok', 'degraded', 'ok']);
    } finally {
      await store.stop();
      await own.stop();
    }
  });

  it('a Redis that does not answer: a take fails open within a second, and the node counts alone for a while', async () => {
    const own = await startRedis();
    const store = createRedisStore(own.url);
    await store.start(recordingLog());
    const busy = new Redis(own.url);
    try {
      const c = counter('hang', 100);
      expect((await store.take([c], NOON)).counts).toEqual([1]);
      // A script that keeps Redis busy for 2.5 s: every other command waits meanwhile.
      const spin = "local s = redis.call('TIME') while true do local n = redis.call('TIME') if (n[1] - s[1]) * 1000000 + (n[2] - s[2]) > 2500000 then break end end return 1";
      const spinning = busy.eval(spin, 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      expect((await store.take([c], NOON)).counts).toEqual([1]);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(store.state()).toBe('degraded');
      await spinning;
      // Back in Redis once the back-off has passed: its count went on from 1 (or 2, had the late take run).
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await store.take([c], NOON)).counts[0]).toBeGreaterThanOrEqual(2);
      expect(store.state()).toBe('ok');
    } finally {
      busy.disconnect();
      await store.stop();
      await own.stop();
    }
  });

  it('starts without Redis: serves from memory, says so, and connects when Redis comes', async () => {
    const own = await startRedis({ running: false });
    const log = recordingLog();
    const store = createRedisStore(own.url);
    await store.start(log);
    try {
      expect(store.state()).toBe('degraded');
      expect(log.lines).toEqual([{ level: 'warn', message: expect.stringMatching(/unreachable at start/) }]);
      expect((await store.take([counter('late', 1)], NOON)).allowed).toBe(true);
      await own.start();
      await expect.poll(() => store.state(), { timeout: 10_000 }).toBe('ok');
    } finally {
      await store.stop();
      await own.stop();
    }
  });
});
