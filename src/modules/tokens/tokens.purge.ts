import type { Kysely } from 'kysely';
import { type BackgroundJob, type BackgroundJobs, createPeriodicJob } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { createTokensRepository } from './tokens.repository.js';
import { HOUR_MS } from '../../platform/time.js';

/** Expired rows are kept a day longer, so that "expired" (not "unknown") is what a late client hears. */
export const PURGE_GRACE_MS = 24 * 3600 * 1000;

/** Deletes refresh tokens expired for longer than the grace period; returns how many. */
export function purgeExpiredRefreshTokens(db: Kysely<Schema>, clock: Clock): Promise<number> {
  return createTokensRepository(db).purgeExpired(clock.now() - PURGE_GRACE_MS);
}

/**
 * The purge as a background job of a serving process: every hour, so the table holds live
 * sessions and not every token ever issued. Every node may run it: the DELETE is idempotent.
 */
export function createPurgeJob(deps: { db: Kysely<Schema>; clock: Clock; background: BackgroundJobs }): BackgroundJob {
  return deps.background.own(createPeriodicJob({ name: 'refresh-token purge', everyMs: HOUR_MS, work: () => purgeExpiredRefreshTokens(deps.db, deps.clock) }));
}
