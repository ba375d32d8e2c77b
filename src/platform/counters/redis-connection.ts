import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { JobLog } from '../background.js';
import type { SeedSource, StoreState } from './counter-store.js';
import { EPOCH, EPOCH_KEY, keyOf, SEEDS, ttlOf } from './redis-takes.js';

/** A round trip taking longer fails open: a request never waits long on Redis. */
const TIMEOUT_MS = 1000;
/** After a timeout the node counts locally this long before it tries Redis again. */
const BACK_OFF_MS = 2000;
/** How long start-up waits for the first connection before serving without it. */
const CONNECT_WAIT_MS = 1000;
/** Seeds per script call. */
const SEED_BATCH = 1000;

// Reconnect quickly at first, then every 2 s (as the change feed's Redis link does).
const retryStrategy = (attempt: number) => Math.min(attempt * 100, 2000);

class TimedOut extends Error {
  override name = 'TimedOut';
}

/**
 * The Redis store's connection and its state: whether counting in Redis is possible now, and
 * what the store does when it is not (the failures that mark it 'degraded', the back-off after a
 * timeout, the log line once per outage). Each time it connects, it first checks that Redis still
 * holds the counts the node's leases came from (the epoch).
 */
export interface CountingConnection {
  readonly redis: Redis;
  readonly started: boolean;
  /** Whether a take may go to Redis now: started, connected, not backing off, and the epoch checked. */
  usable(): boolean;
  /** A Redis call that gives up after TIMEOUT_MS (one timer per call, not per request). */
  timed<T>(call: Promise<T>): Promise<T>;
  /** Fails open: the node counts alone for now; after a timeout it waits before trying Redis again. */
  failed(error: unknown): void;
  /** A reply arrived: a timeout earlier may have marked the store degraded while the connection stayed up. */
  answered(): void;
  state(): StoreState;
  onStateChange(listener: (state: StoreState) => void): void;
  start(log: JobLog): Promise<void>;
  stop(): void;
}

/**
 * `onLost` is told when Redis holds other counts than the leases came from (another epoch): they
 * are forgotten, and the counts are seeded from `seeds`, the day's recorded usage.
 */
export function createCountingConnection(url: string, options: { seeds: SeedSource | undefined; onLost: () => void }): CountingConnection {
  // No offline queue and no retries: while Redis is away a command fails at once, and the
  // request is counted locally instead of waiting for a reconnection.
  const redis = new Redis(url, { lazyConnect: true, retryStrategy, connectTimeout: 2000, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  const status = createStatus();
  /** The epoch of the Redis this node's leases came from; undefined before the first connection. */
  let epoch: string | undefined;
  /** False until the epoch is checked after a connection: meanwhile the node counts alone. */
  let synced = false;
  let syncing: Promise<void> | undefined;

  // Without an 'error' listener ioredis prints every failed attempt to the console.
  redis.on('error', (error: unknown) => status.set('degraded', error));
  redis.on('close', () => {
    synced = false;
    status.set('degraded');
  });
  redis.on('ready', () => void sync());

  /** Checks the epoch once per connection (checkEpoch); counting in Redis starts after that. */
  function sync(): Promise<void> {
    syncing ??= (async () => {
      try {
        epoch = await checkEpoch(redis, epoch, options, status.log);
        synced = true;
        status.set('ok');
      } catch (error) {
        status.failed(error);
      } finally {
        syncing = undefined;
      }
    })();
    return syncing;
  }

  return {
    redis,
    get started() {
      return status.started;
    },
    usable() {
      if (!status.started || redis.status !== 'ready' || Date.now() < status.pausedUntil) return false;
      if (!synced) void sync();
      return synced;
    },
    timed,
    failed: status.failed,
    answered() {
      if (status.current !== 'ok') status.set('ok');
    },
    state: () => (status.started ? status.current : 'degraded'),
    onStateChange: (listener) => void status.listeners.push(listener),

    async start(log) {
      if (status.started) return;
      status.log = log;
      status.started = true;
      const ok = await connectWithin(redis, CONNECT_WAIT_MS);
      // Seeded before the first request is counted in Redis.
      if (ok && redis.status === 'ready') await sync();
      if (!ok || redis.status !== 'ready' || !synced) {
        status.outage = true;
        log.warn({ redis: 'degraded' }, 'Redis is unreachable at start: rate limits are counted by this node alone until it is reachable');
      }
    },

    stop() {
      status.started = false;
      redis.disconnect();
    },
  };
}

/** The store's state and who is told of it; a started store logs each outage once, and its end. */
interface Status {
  current: StoreState;
  started: boolean;
  outage: boolean;
  log: JobLog | undefined;
  /** After a timeout the node counts locally until then before it tries Redis again. */
  pausedUntil: number;
  readonly listeners: Array<(state: StoreState) => void>;
  set(next: StoreState, error?: unknown): void;
  failed(error: unknown): void;
}

function createStatus(): Status {
  const status: Status = {
    current: 'degraded',
    started: false,
    outage: false,
    log: undefined,
    pausedUntil: 0,
    listeners: [],
    set(next, error) {
      if (next === status.current) return;
      status.current = next;
      if (next === 'degraded' && status.started && !status.outage) {
        // Once per outage: ioredis retries every 2 s and each attempt fails again.
        status.outage = true;
        status.log?.warn({ redis: 'degraded', err: error instanceof Error ? error.message : undefined }, 'Redis is unreachable: rate limits are counted by this node alone until it is back');
      } else if (next === 'ok' && status.outage) {
        status.outage = false;
        status.log?.info({ redis: 'ok' }, 'Redis is reachable again: rate limits are counted in Redis');
      }
      for (const listener of status.listeners) listener(next);
    },
    failed(error) {
      if (error instanceof TimedOut) status.pausedUntil = Date.now() + BACK_OFF_MS;
      status.set('degraded', error);
    },
  };
  return status;
}

/** A Redis call that gives up after TIMEOUT_MS (one timer per call, not per request). */
async function timed<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new TimedOut('Redis did not answer in time')), TIMEOUT_MS)));
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the first connection succeeds within `waitMs`; a failed first attempt rejects, but ioredis keeps retrying: serving goes on meanwhile. */
async function connectWithin(redis: Redis, waitMs: number): Promise<boolean> {
  const connected = redis.connect().then(
    () => true,
    () => false,
  );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  const ok = await Promise.race([connected, waited]);
  clearTimeout(timer);
  return ok;
}

/**
 * Redis's epoch, set when absent. Another epoch than `known` (the one the leases came from) means a
 * Redis without the counts they were granted from: `onLost` forgets them, and the counts are
 * seeded from the day's recorded usage first.
 */
async function checkEpoch(redis: Redis, known: string | undefined, options: { seeds: SeedSource | undefined; onLost: () => void }, log: JobLog | undefined): Promise<string> {
  const seen = String(await timed(redis.eval(EPOCH, 1, EPOCH_KEY, randomUUID())));
  if (seen !== known) {
    options.onLost();
    await seed(redis, options.seeds, log);
  }
  return seen;
}

/** Raises the counts in Redis to the seeds (a seed below a count changes nothing). */
async function seed(redis: Redis, seeds: SeedSource | undefined, log: JobLog | undefined): Promise<void> {
  if (seeds === undefined) return;
  let read: Awaited<ReturnType<SeedSource>>;
  try {
    read = await seeds();
  } catch (error) {
    log?.warn({ err: error }, "reading the day's usage failed: Redis counts the day from what it holds");
    return;
  }
  const { now } = read;
  for (let i = 0; i < read.seeds.length; i += SEED_BATCH) {
    const batch = read.seeds.slice(i, i + SEED_BATCH);
    const args = batch.flatMap(({ counter, count }) => [count, ttlOf(counter.windowMs, now)]);
    await timed(redis.eval(SEEDS, batch.length, ...batch.map(({ counter }) => keyOf(counter, now)), ...args));
  }
}
