import { type BackgroundJob, type BackgroundJobs, createPeriodicJob } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { AuditRepository } from './audit.repository.js';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Deletes audit entries older than `retentionDays`; returns how many. */
export function purgeOldAudit(repository: AuditRepository, clock: Clock, retentionDays: number): Promise<number> {
  return repository.purgeBefore(clock.now() - retentionDays * DAY_MS);
}

/** The purge as a background job: hourly, on every node (the DELETE is idempotent), as the usage purge. */
export function createAuditPurgeJob(deps: { repository: AuditRepository; clock: Clock; retentionDays: number; background: BackgroundJobs }): BackgroundJob {
  return deps.background.own(createPeriodicJob({ name: 'audit purge', everyMs: HOUR_MS, work: () => purgeOldAudit(deps.repository, deps.clock, deps.retentionDays) }));
}
