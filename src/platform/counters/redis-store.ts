import { hash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { JobLog } from '../background.js';
import type { CounterStore, StoreState, Taken, WindowedCounter } from './counter-store.js';
import { windowEnd, windowOf } from './counter-store.js';
import { createMemoryStore } from './memory-store.js';

/**
 * Check and count in one atomic step, inside Redis: no other command runs between the checks
 * and the increments, so requests on any number of nodes can never together pass a limit
 * (a read-then-write from the node would let two nodes both read 59 of 60 and both count).
 * KEYS[i]: a counter in its current window. ARGV[i]: its limit (-1: none). ARGV[n+i]: the
 * key's time to live in ms, set when the window's first event creates it.
 * Returns {1, counts…} when counted, {0, counts…} when a limit was reached (nothing counted).
 */
const TAKE = `
local n = #KEYS
for i = 1, n do
  local limit = tonumber(ARGV[i])
  if limit >= 0 and tonumber(redis.call('GET', KEYS[i]) or '0') >= limit then
    local counts = {0}
    for j = 1, n do counts[j + 1] = tonumber(redis.call('GET', KEYS[j]) or '0') end
    return counts
  end
end
local counts = {1}
for i = 1, n do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
  counts[i + 1] = count
end
return counts
`;

/** Every key of this service starts with this, so that it can share a Redis with others. */
const PREFIX = 'sportsdata:';
/** Keys outlive their window by this much: node clocks disagree by a little. */
const EXPIRY_SLACK_MS = 60_000;
/** A command taking longer fails open: a request never waits long on Redis. */
const COMMAND_TIMEOUT_MS = 1000;
/** How long start-up waits for the first connection before serving without it. */
const CONNECT_WAIT_MS = 1000;

// Reconnect quickly at first, then every 2 s (as the change feed's Redis link does).
const retryStrategy = (attempt: number) => Math.min(attempt * 100, 2000);

/**
 * Limit counters in Redis, shared by every node and worker: one round trip per take (a Lua
 * script). When Redis cannot be reached the store fails open: it counts in this process's
 * memory, says 'degraded' (once in the log per outage, and to its state listeners), and goes
 * back to Redis as soon as the connection is ready again. Nothing here rejects or throws.
 */
export function createRedisStore(url: string): CounterStore {
  // No offline queue and no retries: while Redis is away a command fails at once, and the
  // request is counted locally instead of waiting for a reconnection.
  const redis = new Redis(url, {
    lazyConnect: true,
    retryStrategy,
    connectTimeout: 2000,
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Concurrent requests' scripts leave in one write: fewer syscalls, the same one round trip each.
    enableAutoPipelining: true,
  });
  const local = createMemoryStore();
  const listeners: Array<(state: StoreState) => void> = [];
  const takeSha = hash('sha1', TAKE, 'hex');
  let current: StoreState = 'degraded';
  let started = false;
  let log: JobLog | undefined;

  let outage = false;

  const setState = (next: StoreState, error?: unknown) => {
    if (next === current) return;
    current = next;
    if (next === 'degraded' && started && !outage) {
      // Once per outage: ioredis retries every 2 s and each attempt fails again.
      outage = true;
      log?.warn({ redis: 'degraded', err: error instanceof Error ? error.message : undefined }, 'Redis is unreachable: rate limits are counted by this node alone until it is back');
    } else if (next === 'ok' && outage) {
      outage = false;
      log?.info({ redis: 'ok' }, 'Redis is reachable again: rate limits are counted in Redis');
    }
    for (const listener of listeners) listener(next);
  };
  // Without an 'error' listener ioredis prints every failed attempt to the console.
  redis.on('error', (error: unknown) => setState('degraded', error));
  redis.on('close', () => setState('degraded'));
  redis.on('ready', () => setState('ok'));

  const keysOf = (counters: readonly WindowedCounter[], now: number) => counters.map((c) => `${PREFIX}${c.key}:${windowOf(now, c.windowMs)}`);

  /** EVALSHA, and EVAL when Redis does not know the script (its first use, or after a restart). */
  const run = async (sha: string, script: string, keys: string[], args: Array<string | number>): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return redis.eval(script, keys.length, ...keys, ...args);
      throw error;
    }
  };

  const usable = () => started && redis.status === 'ready';

  return {
    name: 'Redis limit counters',
    shared: true,

    take(counters, now) {
      if (!usable()) return local.take(counters, now);
      const args = [...counters.map((c) => (Number.isFinite(c.limit) ? c.limit : -1)), ...counters.map((c) => windowEnd(now, c.windowMs) - now + EXPIRY_SLACK_MS)];
      return run(takeSha, TAKE, keysOf(counters, now), args).then(
        (reply): Taken => {
          const numbers = integersOf(reply, counters.length + 1);
          if (numbers === undefined) return local.take(counters, now);
          // A command that timed out marked the store degraded while the connection stayed up.
          if (current !== 'ok') setState('ok');
          return { allowed: numbers[0] === 1, counts: numbers.slice(1) };
        },
        (error: unknown): Taken | Promise<Taken> => {
          // Fail open: the request is served and counted here; the log says so once per outage.
          setState('degraded', error);
          return local.take(counters, now);
        },
      );
    },

    read(counters, now) {
      if (!usable()) return local.read(counters, now);
      return redis.mget(keysOf(counters, now)).then(
        (values) => values.map((value) => (value === null ? 0 : Number(value))),
        (error: unknown) => {
          setState('degraded', error);
          return local.read(counters, now);
        },
      );
    },

    state: () => (started ? current : 'degraded'),
    onStateChange(listener) {
      listeners.push(listener);
    },

    async start(startLog) {
      if (started) return;
      log = startLog;
      started = true;
      // A failed first attempt rejects, but ioredis keeps retrying: serving goes on meanwhile.
      const connected = redis.connect().then(
        () => true,
        () => false,
      );
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CONNECT_WAIT_MS)));
      const ok = await Promise.race([connected, waited]);
      clearTimeout(timer);
      if (!ok || redis.status !== 'ready') {
        outage = true;
        log.warn({ redis: 'degraded' }, 'Redis is unreachable at start: rate limits are counted by this node alone until it is reachable');
      }
    },

    async stop() {
      if (!started) return;
      started = false;
      redis.disconnect();
      local.stop();
    },
  };
}

/** A script's reply as `length` integers, or undefined when it is something else. */
function integersOf(reply: unknown, length: number): number[] | undefined {
  if (!Array.isArray(reply) || reply.length !== length) return undefined;
  const numbers = reply.map(Number);
  return numbers.every(Number.isInteger) ? numbers : undefined;
}
