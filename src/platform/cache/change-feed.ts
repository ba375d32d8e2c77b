import { type Kysely, type RawBuilder, SqliteAdapter, sql, type Transaction } from 'kysely';
import type { BackgroundJob } from '../background.js';
import type { ChangeVersionName, Schema } from '../db/schema.js';

/**
 * Monotonic version counters in the database ('clients', 'data'). A node bumps a counter in
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
  onChange(name: ChangeVersionName, listener: () => void): void;
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
  const versions = new Map<ChangeVersionName, number>([
    ['clients', 0],
    ['data', 0],
  ]);
  const listeners = new Map<ChangeVersionName, Array<() => void>>();
  const lagListeners: Array<(name: ChangeVersionName, seconds: number) => void> = [];
  const databaseNow = databaseNowMs(db);
  // The first poll learns the versions; it sees no change, so it measures no lag.
  let primed = false;
  // Changes this process has just made: their lag is not another process's.
  const own = new Set<ChangeVersionName>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let followUp: Promise<void> | undefined;

  const notify = (name: ChangeVersionName) => {
    for (const listener of listeners.get(name) ?? []) listener();
  };

  async function readCounters(): Promise<void> {
    const rows = await db
      .selectFrom('change_versions')
      .select(['name', 'version', sql<number | null>`${databaseNow} - changed_at`.as('age_ms')])
      .execute();
    for (const row of rows) {
      const name = row.name as ChangeVersionName;
      const version = Number(row.version);
      // Only forward: an answer that read the counters before a newer one was seen (a slow round
      // trip on PostgreSQL) would otherwise let a read that raced with an import be cached stale.
      if (version > (versions.get(name) ?? 0)) {
        versions.set(name, version);
        if (primed && !own.delete(name) && row.age_ms !== null) {
          for (const listener of lagListeners) listener(name, Math.max(0, Number(row.age_ms)) / 1000);
        }
        notify(name);
      }
    }
    primed = true;
  }

  const feed: ChangeFeed = {
    name: 'change feed',

    version: (name) => versions.get(name) ?? 0,

    async bump(trx, name) {
      await trx
        .updateTable('change_versions')
        .set({ version: sql<number>`version + 1`, changed_at: databaseNow })
        .where('name', '=', name)
        .execute();
    },

    async changed(name) {
      own.add(name);
      try {
        await feed.poll();
      } finally {
        own.delete(name);
      }
      // Listeners run even if the poll saw no change: the caller knows something changed.
      notify(name);
    },

    onChange(name, listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    },

    onLag(listener) {
      lagListeners.push(listener);
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

/** The database's clock in epoch milliseconds, read when the statement runs. */
function databaseNowMs(db: Kysely<Schema>): RawBuilder<number> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sql<number>`cast(round((julianday('now') - 2440587.5) * 86400000.0) as integer)`
    : sql<number>`cast(extract(epoch from clock_timestamp()) * 1000 as bigint)`;
}
