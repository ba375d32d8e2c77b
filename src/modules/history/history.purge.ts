import type { Kysely } from 'kysely';
import type { BackgroundJob, BackgroundJobs } from '../../platform/background.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { DAY_MS, HOUR_MS } from '../../platform/time.js';
import { purgeMark } from './history-cursors.repository.js';
import { deleteChangesBefore, stampUnrecorded } from './history.repository.js';

/** The first purge waits for the start-up (migrations, demo data) to be over. */
const FIRST_PURGE_AFTER_MS = 60_000;
/** Rows per DELETE: each statement holds the write lock briefly, so imports and reads go on between them. */
const PURGE_BATCH = 10_000;

export interface HistoryPurgeDeps {
  db: Kysely<Schema>;
  clock: Clock;
  changes: ChangeFeed;
  /** HISTORY_RETENTION_DAYS: changes recorded more than this many days ago are deleted. */
  retentionDays: number;
}

/**
 * Deletes the price changes recorded longer ago than the retention period (recorded_at before
 * now − days: a past season loaded today is kept, decision 0299), a batch per transaction; returns how many. A batch that deletes rows moves the data version,
 * so that no node keeps serving a cached history list or file tag that names them.
 */
export async function purgeOldHistory(deps: HistoryPurgeDeps): Promise<number> {
  await stampUnrecorded(deps.db, deps.clock.now());
  const before = deps.clock.now() - deps.retentionDays * DAY_MS;
  let total = 0;
  for (;;) {
    const deleted = await deps.db.transaction().execute(async (trx) => {
      const { count, lastId } = await deleteChangesBefore(trx, before, PURGE_BATCH);
      if (count === 0) return 0;
      await deps.changes.bump(trx, 'data');
      // With the rows: a change cursor's reader below it is told, never left with a silent gap.
      await purgeMark.raise(trx, lastId);
      return count;
    });
    if (deleted > 0) await deps.changes.changed('data');
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}

/**
 * The purge as a background job: a minute after start, then an hour after each run ends (a long
 * first purge never overlaps the next). Every node may run it: the DELETE is idempotent.
 */
export function createHistoryPurgeJob(deps: HistoryPurgeDeps & { background: BackgroundJobs }): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  return deps.background.own({
    name: 'price-history purge',
    start(log) {
      if (timer) return;
      const run = (next: number) => {
        timer = setTimeout(() => {
          purgeOldHistory(deps)
            .catch((error: unknown) => log.warn({ err: error }, 'price-history purge failed'))
            .finally(() => {
              if (timer) run(HOUR_MS);
            });
        }, next);
        timer.unref();
      };
      run(FIRST_PURGE_AFTER_MS);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  });
}
