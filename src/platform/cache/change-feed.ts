import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { ChangeVersionName, Schema } from '../db/schema.js';
import type { LifecycleLog } from '../lifecycle/log.js';

/**
 * Monotonic version counters in the database ('clients', 'data'). A node bumps a counter in
 * the same transaction as the change it makes and drops its own caches at once; every node
 * polls the counters so that changes made elsewhere reach it within one poll interval.
 * A version seen here only moves forward, and one poll at a time is in flight.
 */
export interface ChangeFeed {
  /** The last version this node has seen. Cache keys include it. */
  version(name: ChangeVersionName): number;
  /** Bumps a counter inside `trx` (the change's own transaction). Call `changed` after commit. */
  bump(trx: Kysely<Schema> | Transaction<Schema>, name: ChangeVersionName): Promise<void>;
  /** Tells local listeners at once, after the bumping transaction has committed. */
  changed(name: ChangeVersionName): Promise<void>;
  onChange(name: ChangeVersionName, listener: () => void): void;
  /**
   * Reads the counters (also done every `intervalMs`). Resolves after a read that started after
   * this call, so a change committed before it is seen. Calls made while a read runs share one
   * follow-up read.
   */
  poll(): Promise<void>;
  /** Polls now and then every `intervalMs`; `log` hears about trouble that does not stop serving. */
  start(log: LifecycleLog): Promise<void>;
  stop(): Promise<void> | void;
}

export function createChangeFeed(db: Kysely<Schema>, intervalMs = 1000): ChangeFeed {
  const versions = new Map<ChangeVersionName, number>([
    ['clients', 0],
    ['data', 0],
  ]);
  const listeners = new Map<ChangeVersionName, Array<() => void>>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let followUp: Promise<void> | undefined;

  const notify = (name: ChangeVersionName) => {
    for (const listener of listeners.get(name) ?? []) listener();
  };

  async function readCounters(): Promise<void> {
    const rows = await db.selectFrom('change_versions').select(['name', 'version']).execute();
    for (const row of rows) {
      const name = row.name as ChangeVersionName;
      const version = Number(row.version);
      // Only forward: an answer that read the counters before a newer one was seen (a slow round
      // trip on PostgreSQL) would otherwise let a read that raced with an import be cached stale.
      if (version > (versions.get(name) ?? 0)) {
        versions.set(name, version);
        notify(name);
      }
    }
  }

  const feed: ChangeFeed = {
    version: (name) => versions.get(name) ?? 0,

    async bump(trx, name) {
      await trx
        .updateTable('change_versions')
        .set({ version: sql<number>`version + 1` })
        .where('name', '=', name)
        .execute();
    },

    async changed(name) {
      await feed.poll();
      // Listeners run even if the poll saw no change: the caller knows something changed.
      notify(name);
    },

    onChange(name, listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    },

    poll() {
      if (running === undefined) {
        running = readCounters().finally(() => {
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
          return feed.poll();
        });
      return followUp;
    },

    async start() {
      await feed.poll();
      timer = setInterval(() => {
        // A failed poll (database briefly away) is retried on the next tick.
        feed.poll().catch(() => {});
      }, intervalMs);
      timer.unref();
    },

    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return feed;
}
