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

  it('200 concurrent takes against a limit of 60 grant exactly 60', async () => {
    const c = counter(key('c'), 60);
    const results = await Promise.all(Array.from({ length: 200 }, () => store.take([c], NOON)));
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    expect(await store.read([c], NOON)).toEqual([60]);
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
