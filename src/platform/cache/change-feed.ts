import type { Kysely, Transaction } from 'kysely';
import type { BackgroundJob } from '../background.js';
import { type ChangeVersionsRepository, createChangeVersionsRepository } from '../db/change-versions.repository.js';
import { CHANGE_VERSION_NAMES, type ChangeVersionName, type Schema } from '../db/schema.js';

/**
 * Monotonic version counters in the database ('clients', 'data', 'board', 'webhooks'). A node bumps a counter in
 * the same transaction as the change it makes and drops its own caches at once; every node
 * polls the counters so that changes made elsewhere reach it within one poll interval (through
 * Redis sooner: change-feed-redis.ts). A version seen here only moves forward, and one poll at
 * a time is in flight. The polling is a background job: the owner of the context starts and
 * stops it.
 */
export interface ChangeFeed extends BackgroundJob {
  /** The last version this node has seen. Cache keys include it. */
  version(name: ChangeVersionName): number;
  /** Bumps a counter inside `trx` (the change's own transaction). Call `changed` after commit. */
  bump(trx: Kysely<Schema> | Transaction<Schema>, name: ChangeVersionName): Promise<void>;
  /** Tells local listeners at once, after the bumping transaction has committed. */
  changed(name: ChangeVersionName): Promise<void>;
  /**
   * A change another thread of this process has committed (the import thread's): the counters are
   * read, so that the listeners are told, and the other nodes hear of it as of this process's
   * change (through Redis); the own-change listeners are not told, since that thread does their work.
   */
  changedInProcess(name: ChangeVersionName): Promise<void>;
  onChange(name: ChangeVersionName, listener: () => void): void;
  /**
   * Told only of this process's own changes, after `changed` has told the `onChange` listeners:
   * work that the node which made a change does once for every node (a history processor).
   */
  onOwnChange(name: ChangeVersionName, listener: () => void): void;
  /**
   * Told, for each change made by another process, how long after its commit this process saw
   * it (both ends on the database's clock, so no two machines' clocks are compared).
   */
  onLag(listener: (name: ChangeVersionName, seconds: number) => void): void;
  /**
   * Reads the counters (also done every `intervalMs` while started). Resolves after a read that
   * started after this call, so a change committed before it is seen. Calls made while a read
   * runs share one follow-up read.
   */
  poll(): Promise<void>;
}

export function createChangeFeed(db: Kysely<Schema>, intervalMs = 1000): ChangeFeed {
  const counters = createChangeVersionsRepository(db);
  const seen: SeenVersions = {
    versions: new Map(CHANGE_VERSION_NAMES.map((name) => [name, 0])),
    listeners: new Map(),
    ownListeners: new Map(),
    lagListeners: [],
    own: new Set(),
    primed: false,
  };
  const poll = coalesced(() => readCounters(counters, seen));
  let timer: NodeJS.Timeout | undefined;

  const feed: ChangeFeed = {
    name: 'change feed',

    version: (name) => seen.versions.get(name) ?? 0,

    bump: (trx, name) => counters.bump(trx, name),

    async changed(name) {
      seen.own.add(name);
      let told = false;
      try {
        await feed.poll();
      } finally {
        // The poll that saw the counter move took the name out and told the listeners (after the commit).
        told = !seen.own.delete(name);
      }
      // Listeners run even if the poll saw no change: the caller knows something changed. They are
      // not told twice: each telling of 'data' was a full read of the stream hub (decision 0294).
      if (!told) notify(seen, name);
      for (const listener of seen.ownListeners.get(name) ?? []) listener();
    },

    changedInProcess: () => feed.poll(),

    onChange(name, listener) {
      seen.listeners.set(name, [...(seen.listeners.get(name) ?? []), listener]);
    },

    onOwnChange(name, listener) {
      seen.ownListeners.set(name, [...(seen.ownListeners.get(name) ?? []), listener]);
    },

    onLag(listener) {
      seen.lagListeners.push(listener);
    },

    poll,

    async start() {
      if (timer) return;
      timer = setInterval(() => {
        // A failed poll (database briefly away) is retried on the next tick.
        feed.poll().catch(() => {});
      }, intervalMs);
      timer.unref();
      try {
        await feed.poll();
      } catch (error) {
        // A node that cannot read the counters at start must not serve from caches it cannot invalidate.
        feed.stop();
        throw error;
      }
    },

    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return feed;
}

/** The versions this node has seen, and who is told when one moves. */
interface SeenVersions {
  readonly versions: Map<ChangeVersionName, number>;
  readonly listeners: Map<ChangeVersionName, Array<() => void>>;
  readonly ownListeners: Map<ChangeVersionName, Array<() => void>>;
  readonly lagListeners: Array<(name: ChangeVersionName, seconds: number) => void>;
  /** Changes this process has just made: their lag is not another process's. */
  readonly own: Set<ChangeVersionName>;
  /** The first poll learns the versions; it sees no change, so it measures no lag. */
  primed: boolean;
}

function notify(seen: SeenVersions, name: ChangeVersionName): void {
  for (const listener of seen.listeners.get(name) ?? []) listener();
}

async function readCounters(counters: ChangeVersionsRepository, seen: SeenVersions): Promise<void> {
  for (const row of await counters.read()) {
    // Only forward: an answer that read the counters before a newer one was seen (a slow round
    // trip on PostgreSQL) would otherwise let a read that raced with an import be cached stale.
    if (row.version > (seen.versions.get(row.name) ?? 0)) {
      seen.versions.set(row.name, row.version);
      if (seen.primed && !seen.own.delete(row.name) && row.ageMs !== null) {
        for (const listener of seen.lagListeners) listener(row.name, Math.max(0, row.ageMs) / 1000);
      }
      notify(seen, row.name);
    }
  }
  seen.primed = true;
}

/**
 * `read`, one at a time: a call while a read runs gets a follow-up read after it, shared by every
 * caller until it starts.
 */
function coalesced(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let followUp: Promise<void> | undefined;
  const poll = (): Promise<void> => {
    if (running === undefined) {
      running = read().finally(() => {
        running = undefined;
      });
      return running;
    }
    // The running read may have started before the caller's change committed: one more read
    // after it, shared by every caller until it starts, rather than a read per caller.
    followUp ??= running
      .catch(() => {})
      .then(() => {
        followUp = undefined;
        return poll();
      });
    return followUp;
  };
  return poll;
}
