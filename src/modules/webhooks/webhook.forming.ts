import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { chunksOf } from '../../platform/chunks.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { webhookDeliveries, type FormedDelivery } from './webhook-deliveries.repository.js';
import { webhookEndpoints } from './webhook-endpoints.repository.js';
import { matching, type Subject } from './webhook.filters.js';
import type { WebhookEndpoint, WebhookEventType } from './webhook.types.js';

/** What every part of the former shares: where it stores, and whom it tells. */
export interface FormingDeps {
  clock: Clock;
  changes: ChangeFeed;
  /** The most changes one delivery carries (WEBHOOK_BATCH_MAX). */
  batchMax: number;
  /** Told after a commit that stored deliveries (the dispatcher's wake-up on this node). */
  formed?: () => void;
}

/** A delivery's webhook-id: `msg_` and 32 random bytes, base64url. Given once; every attempt and replay sends it. */
export function newDeliveryId(): string {
  return `msg_${randomBytes(32).toString('base64url')}`;
}

/** One kind of change as the former cuts it: what it is about, and when it was recorded. */
export interface ChangeKind<C> {
  type: WebhookEventType;
  /** The data's list: `changes` or `edges`. */
  list: string;
  subjectOf(change: C, sports: ReadonlyMap<number, number>): Subject;
  eventIdOf(change: C): number;
  recordedAt(change: C): number;
  /** The change as the payload carries it. */
  shown(change: C): unknown;
  /** Whether an endpoint is told of a change its filters' lists let through (edge.found: whether it crossed the endpoint's min_edge); all are when absent. */
  tells?(endpoint: WebhookEndpoint, change: C): boolean;
}

/**
 * The deliveries some changes of one kind make: the enabled endpoints subscribed to it, each
 * given the changes its filters let through, cut into deliveries of at most `batchMax` changes,
 * in their order. No endpoint subscribed: nothing is read beyond the one list of endpoints.
 */
export async function formDeliveries<C>(db: Kysely<Schema>, kind: ChangeKind<C>, changes: readonly C[], batchMax: number): Promise<FormedDelivery[]> {
  if (changes.length === 0) return [];
  const endpoints = await webhookEndpoints.enabledFor(db, [kind.type]);
  return cutFor(db, endpoints, kind, changes, batchMax);
}

/** `formDeliveries` for endpoints already read. */
export async function cutFor<C>(db: Kysely<Schema>, endpoints: readonly WebhookEndpoint[], kind: ChangeKind<C>, changes: readonly C[], batchMax: number): Promise<FormedDelivery[]> {
  const subscribed = endpoints.filter((endpoint) => endpoint.eventTypes.includes(kind.type));
  if (subscribed.length === 0 || changes.length === 0) return [];
  const eventIds = [...new Set(changes.map(kind.eventIdOf))];
  const { sports, competitions } = await webhookDeliveries.eventFactsOf(db, eventIds);
  const subjectOf = (change: C): Subject => ({ ...kind.subjectOf(change, sports), eventKind: competitions.has(kind.eventIdOf(change)) ? 'competition' : 'matchup' });
  // Each change is written out once, then joined into every delivery that carries it.
  const texts = new Map<C, string>();
  const textOf = (change: C) => {
    let text = texts.get(change);
    if (text === undefined) texts.set(change, (text = JSON.stringify(kind.shown(change))));
    return text;
  };
  // Endpoints let through the same changes (the same filters, or none): their deliveries share one members text, which the store keeps once.
  const made: Array<{ batch: readonly C[]; members: string }> = [];
  const membersOf = (batch: readonly C[]) => {
    const same = made.find((m) => m.batch.length === batch.length && m.batch.every((change, i) => change === batch[i]));
    if (same !== undefined) return same.members;
    const members = `${JSON.stringify(kind.list)}:[${batch.map(textOf).join(',')}]`;
    made.push({ batch, members });
    return members;
  };
  const out: FormedDelivery[] = [];
  for (const { endpoint, items } of matching(subscribed, changes, subjectOf, (endpoint, change) => kind.tells?.(endpoint, change) ?? true)) {
    for (const batch of chunksOf(items, batchMax)) {
      out.push({ id: newDeliveryId(), endpointId: endpoint.id, type: kind.type, members: membersOf(batch), changedAt: Math.max(...batch.map(kind.recordedAt)) });
    }
  }
  return out;
}

/** Stores formed deliveries in the transaction that moves the cursor (or takes the outbox), and moves the 'webhooks' counter. */
export async function storeDeliveries(trx: Kysely<Schema>, deps: FormingDeps, deliveries: readonly FormedDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await webhookDeliveries.insert(trx, deliveries, deps.clock.now());
  await deps.changes.bump(trx, 'webhooks');
}

/** After the commit: every node's dispatcher is told (this one at once, the others by the counter). */
export async function tellFormed(deps: FormingDeps, deliveries: readonly FormedDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await deps.changes.changed('webhooks');
  deps.formed?.();
}
