import { type BackgroundJob, type BackgroundJobs, createPeriodicJob } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { UsageRepository } from './usage.repository.js';
import { DAY_MS, HOUR_MS, utcDay } from '../../platform/time.js';

/** Deletes usage rows of days more than `retentionDays` ago; returns how many. */
export function purgeOldUsage(repository: UsageRepository, clock: Clock, retentionDays: number): Promise<number> {
  return repository.purgeBefore(utcDay(clock.now() - retentionDays * DAY_MS));
}

/**
 * The purge as a background job: every hour, so that the tables hold USAGE_RETENTION_DAYS of
 * daily and USAGE_HOURLY_RETENTION_DAYS of hourly history, not every day ever served. Every node may run it: the DELETE is idempotent.
 */
export function createUsagePurgeJob(deps: { repository: UsageRepository; clock: Clock; retentionDays: number; hourlyRetentionDays: number; background: BackgroundJobs }): BackgroundJob {
  return deps.background.own(createPeriodicJob({
    name: 'usage purge',
    everyMs: HOUR_MS,
    work: async () => (await purgeOldUsage(deps.repository, deps.clock, deps.retentionDays)) + (await purgeOldHours(deps.repository, deps.clock, deps.hourlyRetentionDays)),
  }));
}

/** Deletes hourly counts and refusals older than `retentionDays` (USAGE_HOURLY_RETENTION_DAYS); returns how many rows. */
export function purgeOldHours(repository: UsageRepository, clock: Clock, retentionDays: number): Promise<number> {
  return repository.purgeHoursBefore(clock.now() - retentionDays * DAY_MS);
}
