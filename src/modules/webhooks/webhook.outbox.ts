import type { Kysely } from 'kysely';
import type { BackgroundJobs } from '../../platform/background.js';
import type { Schema } from '../../platform/db/schema.js';
import { createTriggeredJob, type TriggeredJob } from '../../platform/triggered-job.js';
import { type FormedDelivery, webhookDeliveries } from './webhook-deliveries.repository.js';
import { type TakenOutboxEntry, webhookOutbox } from './webhook-outbox.repository.js';
import { webhookEndpoints } from './webhook-endpoints.repository.js';
import { passes } from './webhook.filters.js';
import { type FormingDeps, newDeliveryId, storeDeliveries, tellFormed } from './webhook.forming.js';
import { isWebhookEventType, type WebhookEndpoint } from './webhook.types.js';

/** Entries taken per transaction. */
const TAKE = 500;

export interface OutboxFormerDeps extends FormingDeps {
  db: Kysely<Schema>;
  background: BackgroundJobs;
  windowMs: number;
  everyMs: number;
}

/**
 * The outbox's taker (decision 0305): the entries the transactions that change events and grades
 * wrote, taken in id order, each made one delivery per enabled endpoint subscribed to its type
 * whose filters (sport, league, event) let it through, and deleted, in one transaction: an entry
 * is formed once, or not taken at all. On PostgreSQL two nodes take disjoint entries (SKIP
 * LOCKED). Its writers move the 'data' counter, which wakes it on their node.
 */
export function createOutboxFormer(deps: OutboxFormerDeps): TriggeredJob {
  const { db } = deps;
  return createTriggeredJob({
    name: 'webhooks: outbox',
    changes: deps.changes,
    background: deps.background,
    wakeOn: 'data',
    windowMs: deps.windowMs,
    everyMs: deps.everyMs,
    async work() {
      // An empty outbox (nearly always) costs one read, no write lock.
      if (!(await webhookDeliveries.outboxWaiting(db))) return;
      for (;;) {
        const { formed, full } = await db.transaction().execute(async (trx) => {
          const taken = await webhookOutbox.take(trx, TAKE);
          const made = await deliveriesOf(trx, taken);
          await storeDeliveries(trx, deps, made);
          await webhookOutbox.remove(trx, taken.map((entry) => entry.id));
          return { formed: made, full: taken.length === TAKE };
        });
        await tellFormed(deps, formed);
        if (!full) return;
      }
    },
  });
}

async function deliveriesOf(trx: Kysely<Schema>, taken: readonly TakenOutboxEntry[]): Promise<FormedDelivery[]> {
  const types = [...new Set(taken.map((entry) => entry.type))].filter(isWebhookEventType);
  if (types.length === 0) return [];
  const endpoints = await webhookEndpoints.enabledFor(trx, types);
  if (endpoints.length === 0) return [];
  const { competitions } = await webhookDeliveries.eventFactsOf(trx, [...new Set(taken.flatMap((entry) => (entry.eventId === null ? [] : [entry.eventId])))]);
  const out: FormedDelivery[] = [];
  for (const entry of taken) {
    const members = JSON.stringify(entry.data).slice(1, -1);
    for (const endpoint of endpoints.filter((e) => subscribed(e, entry, competitions))) {
      out.push({ id: newDeliveryId(), endpointId: endpoint.id, type: entry.type, members, changedAt: entry.createdAt });
    }
  }
  return out;
}

function subscribed(endpoint: WebhookEndpoint, entry: TakenOutboxEntry, competitions: ReadonlySet<number>): boolean {
  const eventKind = entry.eventId === null ? undefined : competitions.has(entry.eventId) ? 'competition' : 'matchup';
  return (
    isWebhookEventType(entry.type) &&
    endpoint.eventTypes.includes(entry.type) &&
    passes(endpoint.filters, { sportId: entry.sportId, leagueId: entry.leagueId, eventId: entry.eventId, ...(eventKind === undefined ? {} : { eventKind }) })
  );
}
