import { type Kysely, type RawBuilder, SqliteAdapter, sql, type Transaction } from 'kysely';
import type { BackgroundJob } from '../background.js';
import type { ChangeVersionName, Schema } from '../db/schema.js';

/**
 * Monotonic version counters in the database ('clients', 'data'). A node bumps a counter in
 * the same transaction as the change it makes and drops its own caches at once; every node
 * polls the counters so that changes made elsewhere reach it within one poll interval. The
 * polling is a background job: the owner of the context starts and stops it.
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
  /** Reads the counters now (also done every `intervalMs` while started). */
  poll(): Promise<void>;
  /** Reads the counters, then polls every `intervalMs`. Starting a started feed does nothing. */
  start(): Promise<void>;
  stop(): void;
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
  let timer: NodeJS.Timeout | undefined;

  const notify = (name: ChangeVersionName) => {
    for (const listener of listeners.get(name) ?? []) listener();
  };

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
      await read(name);
      // Listeners run even if the poll saw no change: the caller knows something changed.
      notify(name);
    },

    onChange(name, listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    },

    onLag(listener) {
      lagListeners.push(listener);
    },

    poll: () => read(),

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

  /** Reads the counters; `own` names the change this process has just made (its lag is not another's). */
  async function read(own?: ChangeVersionName): Promise<void> {
    const rows = await db
      .selectFrom('change_versions')
      .select(['name', 'version', sql<number | null>`${databaseNow} - changed_at`.as('age_ms')])
      .execute();
    for (const row of rows) {
      const name = row.name as ChangeVersionName;
      const version = Number(row.version);
      if (versions.get(name) !== version) {
        versions.set(name, version);
        if (primed && name !== own && row.age_ms !== null) {
          for (const listener of lagListeners) listener(name, Math.max(0, Number(row.age_ms)) / 1000);
        }
        notify(name);
      }
    }
    primed = true;
  }

  return feed;
}

/** The database's clock in epoch milliseconds, read when the statement runs. */
function databaseNowMs(db: Kysely<Schema>): RawBuilder<number> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sql<number>`cast(round((julianday('now') - 2440587.5) * 86400000.0) as integer)`
    : sql<number>`cast(extract(epoch from clock_timestamp()) * 1000 as bigint)`;
}
