import { hash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { JobLog } from '../background.js';
import type { CounterStore, SeedSource, StoreState, Taken, WindowedCounter } from './counter-store.js';
import { createLeases } from './leases.js';
import { createMemoryStore } from './memory-store.js';
import { EPOCH, EPOCH_KEY, GRANTS, keyOf, scriptInput, scriptOutput, SEEDS, type TakeGroup, ttlOf } from './redis-takes.js';

/** A round trip taking longer fails open: a request never waits long on Redis. */
const TIMEOUT_MS = 1000;
/** After a timeout the node counts locally this long before it tries Redis again. */
const BACK_OFF_MS = 2000;
/** Takes per script call: one call's latency stays small. */
const MAX_BATCH = 1000;
/** How long start-up waits for the first connection before serving without it. */
const CONNECT_WAIT_MS = 1000;
/** Seeds per script call. */
const SEED_BATCH = 1000;

// Reconnect quickly at first, then every 2 s (as the change feed's Redis link does).
const retryStrategy = (attempt: number) => Math.min(attempt * 100, 2000);

interface PendingTake {
  counters: readonly WindowedCounter[];
  now: number;
  resolve(taken: Taken): void;
}

class TimedOut extends Error {
  override name = 'TimedOut';
}

/**
 * Limit counters in Redis, shared by every node and worker (decision 0094). A take is at most one
 * round trip, shared: the takes of one turn of the event loop leave together as one script call,
 * and while a call is on its way the takes that arrive wait for the next. A busy client's grant
 * comes with a lease of events ahead, per counter (a tenth of what is left of its limit, at most
 * 1,000), which the node hands out without a round trip; the lease shrinks to nothing as the
 * window fills, so no node ever grants past the limit. Leases are kept by counter key, and what a
 * lease holds under a limit that has changed goes back to Redis with the next call (decision
 * 0153). When Redis cannot be reached
 * the store fails open: it counts in this process's memory, says 'degraded' (once in the log per
 * outage, and to its state listeners), and goes back to Redis as soon as it answers again.
 * Each time it connects, it first checks that Redis still holds the counts its leases came from
 * (the epoch); a Redis that lost them (restarted without persistence) is seeded from `seeds`,
 * the day's usage as recorded, so that it gives no client its day back.
 * Nothing here rejects or throws.
 */
export function createRedisStore(url: string, options: { seeds?: SeedSource } = {}): CounterStore {
  // No offline queue and no retries: while Redis is away a command fails at once, and the
  // request is counted locally instead of waiting for a reconnection.
  const redis = new Redis(url, { lazyConnect: true, retryStrategy, connectTimeout: 2000, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  const local = createMemoryStore();
  const leases = createLeases();
  const listeners: Array<(state: StoreState) => void> = [];
  const sha = hash('sha1', GRANTS, 'hex');
  let current: StoreState = 'degraded';
  let started = false;
  let outage = false;
  let pausedUntil = 0;
  let queue: PendingTake[] = [];
  let waiting: Array<() => void> = [];
  let sending = false;
  let scheduled = false;
  let log: JobLog | undefined;
  /** The epoch of the Redis this node's leases came from; undefined before the first connection. */
  let epoch: string | undefined;
  /** False until the epoch is checked after a connection: meanwhile the node counts alone. */
  let synced = false;
  let syncing: Promise<void> | undefined;

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
  redis.on('close', () => {
    synced = false;
    setState('degraded');
  });
  redis.on('ready', () => void sync());

  const usable = () => {
    if (!started || redis.status !== 'ready' || Date.now() < pausedUntil) return false;
    if (!synced) void sync();
    return synced;
  };

  /** A Redis call that gives up after TIMEOUT_MS (one timer per call, not per request). */
  const timed = async <T>(call: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new TimedOut('Redis did not answer in time')), TIMEOUT_MS)));
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  /** Fails open: the node counts alone for now; after a timeout it waits before trying Redis again. */
  const failed = (error: unknown) => {
    if (error instanceof TimedOut) pausedUntil = Date.now() + BACK_OFF_MS;
    setState('degraded', error);
  };

  /**
   * Checks the epoch once per connection. Another epoch than the one the leases came from means a
   * Redis without the counts they were granted from: they are forgotten, and the counts are seeded
   * from the day's recorded usage. Counting in Redis starts after that.
   */
  function sync(): Promise<void> {
    syncing ??= (async () => {
      try {
        const seen = String(await timed(redis.eval(EPOCH, 1, EPOCH_KEY, randomUUID())));
        if (seen !== epoch) {
          leases.clear();
          await seed();
          epoch = seen;
        }
        synced = true;
        setState('ok');
      } catch (error) {
        failed(error);
      } finally {
        syncing = undefined;
      }
    })();
    return syncing;
  }

  /** Raises the counts in Redis to the seeds (a seed below a count changes nothing). */
  async function seed(): Promise<void> {
    if (options.seeds === undefined) return;
    let read: Awaited<ReturnType<SeedSource>>;
    try {
      read = await options.seeds();
    } catch (error) {
      log?.warn({ err: error }, "reading the day's usage failed: Redis counts the day from what it holds");
      return;
    }
    const { now, seeds } = read;
    for (let i = 0; i < seeds.length; i += SEED_BATCH) {
      const batch = seeds.slice(i, i + SEED_BATCH);
      const args = batch.flatMap(({ counter, count }) => [count, ttlOf(counter.windowMs, now)]);
      await timed(redis.eval(SEEDS, batch.length, ...batch.map(({ counter }) => keyOf(counter, now)), ...args));
    }
  }

  /** EVALSHA, and EVAL when Redis does not know the script (its first use, or after a restart). */
  const run = async (keys: string[], args: Array<string | number>): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return redis.eval(GRANTS, keys.length, ...keys, ...args);
      throw error;
    }
  };

  /**
   * The batch's takes grouped by their counters (the limiter hands every request of a client the
   * same array) and windows, in order of arrival of each group's first take.
   */
  function groupsOf(batch: readonly PendingTake[]): TakeGroup[] {
    const groups: TakeGroup[] = [];
    const byCounters = new Map<readonly WindowedCounter[], TakeGroup>();
    for (const { counters, now } of batch) {
      const keys = counters.map((counter) => keyOf(counter, now));
      const found = byCounters.get(counters);
      if (found !== undefined && found.keys.every((key, i) => key === keys[i])) {
        found.asked += 1;
        continue;
      }
      const group = { counters, now, keys, asked: 1, held: [] };
      byCounters.set(counters, group);
      groups.push(group);
    }
    // What the node holds already serves the group first; promised to it, so that takes
    // arriving before the answer cannot spend it meanwhile.
    for (const group of groups) group.held = group.counters.map((counter) => leases.pledge(counter, group.now, group.asked));
    return groups;
  }

  const release = (groups: readonly TakeGroup[]) => {
    for (const group of groups) group.counters.forEach((counter, i) => leases.release(counter, group.now, group.held[i] ?? 0));
  };

  /** A take that waited: from the leases if they can serve it, else counted here. */
  const fallBack = (take: PendingTake) => take.resolve(leases.serve(take.counters, take.now) ?? local.take(take.counters, take.now));

  /** Sends the queued takes as one script call; the takes that arrive meanwhile wait for the next. */
  function send(): void {
    // Readers waiting for a call that leaves from now on: this one.
    const readers = waiting.splice(0);
    const done = () => {
      for (const reader of readers) reader();
    };
    if (!usable()) {
      for (const take of queue.splice(0)) fallBack(take);
      done();
      return;
    }
    const batch = queue.splice(0, MAX_BATCH);
    const groups = groupsOf(batch);
    // After groupsOf, which retires leases granted under another limit: their events go back in the same call.
    const returns = leases.takeOwed();
    if (groups.length === 0 && returns.length === 0) {
      done();
      return;
    }
    sending = true;
    const { keys, args } = scriptInput(returns, groups);
    timed(run(keys, args))
      .then(
        (reply) => {
          release(groups);
          const granted = scriptOutput(groups, reply);
          if (granted === undefined) {
            for (const take of batch) fallBack(take);
            return;
          }
          // A reply arrived: a timeout earlier may have marked the store degraded while the connection stayed up.
          if (current !== 'ok') setState('ok');
          groups.forEach((group, g) => {
            group.counters.forEach((counter, i) => {
              const answer = granted[g]?.[i];
              if (answer !== undefined) leases.grant(counter, group.now, answer.granted, answer.after);
            });
          });
          // In order of arrival: a take without an event of every counter is refused (a limit is reached).
          for (const take of batch) take.resolve(leases.serve(take.counters, take.now) ?? leases.refused(take.counters, take.now));
          // Takes that arrived meanwhile may be served by what was just granted ahead.
          queue = queue.filter((take) => {
            const served = leases.serve(take.counters, take.now);
            if (served !== undefined) take.resolve(served);
            return served === undefined;
          });
        },
        (error: unknown) => {
          release(groups);
          // Events owed back are not retried: the call may have given them back before it failed, and
          // giving them twice would let the client past its limit.
          failed(error);
          for (const take of batch) fallBack(take);
        },
      )
      .finally(() => {
        sending = false;
        done();
        if (queue.length > 0 || waiting.length > 0) schedule();
      });
  }

  /**
   * Resolves when a script call that leaves from now on has been answered: then what this node
   * gives back and what it was granted are in Redis and in its leases alike, and a read of both
   * agrees.
   */
  function settled(): Promise<void> {
    return new Promise((resolve) => {
      waiting.push(resolve);
      schedule();
    });
  }

  /**
   * Sends at the end of this turn of the event loop (setImmediate), so that every request read in
   * the same turn joins the batch: one write and one read on the Redis socket for all of them.
   */
  function schedule(): void {
    if (scheduled || sending) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      send();
    });
  }

  return {
    name: 'Redis limit counters',
    shared: true,

    take(counters, now) {
      const leased = leases.serve(counters, now);
      if (leased !== undefined) return leased;
      if (!usable()) return local.take(counters, now);
      return new Promise<Taken>((resolve) => {
        queue.push({ counters, now, resolve });
        schedule();
      });
    },

    revise(counters, now) {
      let owing = false;
      for (const counter of counters) if (leases.revise(counter, now)) owing = true;
      if (owing && usable()) schedule();
    },

    async read(counters, now) {
      if (!usable()) return local.read(counters, now);
      // Only counters with leases can disagree with Redis; the others (login failures) never wait.
      if (counters.some((counter) => counter.leaseable === true && (sending || leases.owes(counter, now)))) await settled();
      return timed(redis.mget(counters.map((c) => keyOf(c, now)))).then(
        // What this node was granted ahead and has not handed out is not used yet.
        (values) => values.map((value, i) => {
          const counter = counters[i];
          const held = counter === undefined ? 0 : leases.held(counter, now);
          return Math.max(0, (value === null ? 0 : Number(value)) - held);
        }),
        (error: unknown) => {
          failed(error);
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
      // Seeded before the first request is counted in Redis.
      if (ok && redis.status === 'ready') await sync();
      if (!ok || redis.status !== 'ready' || !synced) {
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
