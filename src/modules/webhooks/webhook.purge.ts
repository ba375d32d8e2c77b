import type { Kysely } from 'kysely';
import { type BackgroundJob, type BackgroundJobs, createPeriodicJob } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { DAY_MS, HOUR_MS } from '../../platform/time.js';
import { webhookDeliveries } from './webhook-deliveries.repository.js';
import { webhookEdges } from './webhook-edges.repository.js';

export interface WebhookPurgeDeps {
  db: Kysely<Schema>;
  clock: Clock;
  /** WEBHOOK_RETENTION_DAYS: delivered and test deliveries made longer ago are deleted, with their attempts. */
  retentionDays: number;
}

/**
 * Deletes the delivered and test deliveries older than the retention, with their attempts, and
 * every delivery of a deleted endpoint; returns how many. A pending delivery of a live endpoint is
 * kept whatever its age: it is still to be sent (or waits for its endpoint to be enabled again).
 */
export function purgeOldDeliveries(deps: WebhookPurgeDeps): Promise<number> {
  return webhookDeliveries.purge(deps.db, deps.clock.now() - deps.retentionDays * DAY_MS);
}

/**
 * Forgets the edges edge.found knew of markets not looked at within the retention (decision 0316):
 * should such a market move again, an edge still above is told once more, as if it had appeared.
 */
export function forgetOldEdges(deps: WebhookPurgeDeps): Promise<number> {
  return webhookEdges.forget(deps.db, deps.clock.now() - deps.retentionDays * DAY_MS);
}

/** The purge as a background job: hourly, on every node (the DELETE is idempotent), as the audit and usage purges. */
export function createWebhookPurgeJob(deps: WebhookPurgeDeps & { background: BackgroundJobs }): BackgroundJob {
  const work = async () => {
    await purgeOldDeliveries(deps);
    await forgetOldEdges(deps);
  };
  return deps.background.own(createPeriodicJob({ name: 'webhook deliveries purge', everyMs: HOUR_MS, work }));
}
