import { hash } from 'node:crypto';
import type { Taken, WindowedCounter } from './counter-store.js';
import type { Leases } from './leases.js';
import type { MemoryStore } from './memory-store.js';
import type { CountingConnection } from './redis-connection.js';
import { GRANTS, keyOf, scriptInput, scriptOutput, type TakeGroup } from './redis-takes.js';

/** Takes per script call: one call's latency stays small. */
const MAX_BATCH = 1000;

interface PendingTake {
  counters: readonly WindowedCounter[];
  now: number;
  resolve(taken: Taken): void;
}

/**
 * The Redis store's round trips: the takes of one turn of the event loop leave together as one
 * script call, and while a call is on its way the takes that arrive wait for the next.
 */
export interface TakeBatches {
  /** True while a script call is on its way. */
  readonly sending: boolean;
  /** Queues a take for the next call. */
  take(counters: readonly WindowedCounter[], now: number): Promise<Taken>;
  /** Sends at the end of this turn of the event loop, unless a call is on its way or already due. */
  schedule(): void;
  /**
   * Resolves when a script call that leaves from now on has been answered: then what this node
   * gives back and what it was granted are in Redis and in its leases alike, and a read of both
   * agrees.
   */
  settled(): Promise<void>;
}

export function createTakeBatches(deps: { connection: CountingConnection; leases: Leases; local: MemoryStore }): TakeBatches {
  const sender: Sender = { ...deps, run: scriptRunner(deps.connection), queue: [], waiting: [], sending: false, scheduled: false };
  return {
    get sending() {
      return sender.sending;
    },
    take(counters, now) {
      return new Promise<Taken>((resolve) => {
        sender.queue.push({ counters, now, resolve });
        schedule(sender);
      });
    },
    schedule: () => schedule(sender),
    settled() {
      return new Promise((resolve) => {
        sender.waiting.push(resolve);
        schedule(sender);
      });
    },
  };
}

/** The batches' state: the takes and readers waiting for the next call, and whether one is on its way or due. */
interface Sender {
  readonly connection: CountingConnection;
  readonly leases: Leases;
  readonly local: MemoryStore;
  readonly run: (keys: string[], args: Array<string | number>) => Promise<unknown>;
  queue: PendingTake[];
  waiting: Array<() => void>;
  sending: boolean;
  scheduled: boolean;
}

/**
 * Sends at the end of this turn of the event loop (setImmediate), so that every request read in
 * the same turn joins the batch: one write and one read on the Redis socket for all of them.
 */
function schedule(sender: Sender): void {
  if (sender.scheduled || sender.sending) return;
  sender.scheduled = true;
  setImmediate(() => {
    sender.scheduled = false;
    send(sender);
  });
}

/** A take that waited: from the leases if they can serve it, else counted here. */
function fallBack(sender: Sender, take: PendingTake): void {
  take.resolve(sender.leases.serve(take.counters, take.now) ?? sender.local.take(take.counters, take.now));
}

/** Sends the queued takes as one script call; the takes that arrive meanwhile wait for the next. */
function send(sender: Sender): void {
  const { connection, leases } = sender;
  // Readers waiting for a call that leaves from now on: this one.
  const readers = sender.waiting.splice(0);
  const done = () => {
    for (const reader of readers) reader();
  };
  if (!connection.usable()) {
    for (const take of sender.queue.splice(0)) fallBack(sender, take);
    done();
    return;
  }
  const batch = sender.queue.splice(0, MAX_BATCH);
  const groups = groupsOf(batch, leases);
  // After groupsOf, which retires leases granted under another limit: their events go back in the same call.
  const returns = leases.takeOwed();
  if (groups.length === 0 && returns.length === 0) {
    done();
    return;
  }
  sender.sending = true;
  const { keys, args } = scriptInput(returns, groups);
  connection
    .timed(sender.run(keys, args))
    .then(
      (reply) => {
        release(groups, leases);
        answer(sender, batch, groups, reply);
      },
      (error: unknown) => {
        release(groups, leases);
        // Events owed back are not retried: the call may have given them back before it failed, and
        // giving them twice would let the client past its limit.
        connection.failed(error);
        for (const take of batch) fallBack(sender, take);
      },
    )
    .finally(() => {
      sender.sending = false;
      done();
      if (sender.queue.length > 0 || sender.waiting.length > 0) schedule(sender);
    });
}

/** Hands out what the call granted: to the batch's takes in order of arrival, then to those that arrived meanwhile. */
function answer(sender: Sender, batch: readonly PendingTake[], groups: readonly TakeGroup[], reply: unknown): void {
  const { leases } = sender;
  const granted = scriptOutput(groups, reply);
  if (granted === undefined) {
    for (const take of batch) fallBack(sender, take);
    return;
  }
  sender.connection.answered();
  groups.forEach((group, g) => {
    group.counters.forEach((counter, i) => {
      const answer = granted[g]?.[i];
      if (answer !== undefined) leases.grant(counter, group.now, answer.granted, answer.after);
    });
  });
  // In order of arrival: a take without an event of every counter is refused (a limit is reached).
  for (const take of batch) take.resolve(leases.serve(take.counters, take.now) ?? leases.refused(take.counters, take.now));
  // Takes that arrived meanwhile may be served by what was just granted ahead.
  sender.queue = sender.queue.filter((take) => {
    const served = leases.serve(take.counters, take.now);
    if (served !== undefined) take.resolve(served);
    return served === undefined;
  });
}

/** EVALSHA, and EVAL when Redis does not know the script (its first use, or after a restart). */
function scriptRunner(connection: CountingConnection): (keys: string[], args: Array<string | number>) => Promise<unknown> {
  const sha = hash('sha1', GRANTS, 'hex');
  return async (keys, args) => {
    try {
      return await connection.redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return connection.redis.eval(GRANTS, keys.length, ...keys, ...args);
      throw error;
    }
  };
}

/**
 * The batch's takes grouped by their counters (the limiter hands every request of a client the
 * same array) and windows, in order of arrival of each group's first take.
 */
function groupsOf(batch: readonly PendingTake[], leases: Leases): TakeGroup[] {
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

function release(groups: readonly TakeGroup[], leases: Leases): void {
  for (const group of groups) group.counters.forEach((counter, i) => leases.release(counter, group.now, group.held[i] ?? 0));
}
