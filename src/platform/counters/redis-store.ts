import type { CounterStore, SeedSource } from './counter-store.js';
import { createLeases } from './leases.js';
import { createMemoryStore } from './memory-store.js';
import { createTakeBatches } from './redis-batches.js';
import { createCountingConnection } from './redis-connection.js';
import { keyOf } from './redis-takes.js';

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
  const local = createMemoryStore();
  const leases = createLeases();
  const connection = createCountingConnection(url, { seeds: options.seeds, onLost: () => leases.clear() });
  const batches = createTakeBatches({ connection, leases, local });
  const { redis } = connection;

  return {
    name: 'Redis limit counters',
    shared: true,

    take(counters, now) {
      const leased = leases.serve(counters, now);
      if (leased !== undefined) return leased;
      if (!connection.usable()) return local.take(counters, now);
      return batches.take(counters, now);
    },

    revise(counters, now) {
      let owing = false;
      for (const counter of counters) if (leases.revise(counter, now)) owing = true;
      if (owing && connection.usable()) batches.schedule();
    },

    async read(counters, now) {
      if (!connection.usable()) return local.read(counters, now);
      // Only counters with leases can disagree with Redis; the others (login failures) never wait.
      if (counters.some((counter) => counter.leaseable === true && (batches.sending || leases.owes(counter, now)))) await batches.settled();
      return connection.timed(redis.mget(counters.map((c) => keyOf(c, now)))).then(
        // What this node was granted ahead and has not handed out is not used yet.
        (values) => values.map((value, i) => {
          const counter = counters[i];
          const held = counter === undefined ? 0 : leases.held(counter, now);
          return Math.max(0, (value === null ? 0 : Number(value)) - held);
        }),
        (error: unknown) => {
          connection.failed(error);
          return local.read(counters, now);
        },
      );
    },

    state: () => connection.state(),
    onStateChange: (listener) => connection.onStateChange(listener),

    start: (log) => connection.start(log),

    async stop() {
      if (!connection.started) return;
      connection.stop();
      local.stop();
    },
  };
}
