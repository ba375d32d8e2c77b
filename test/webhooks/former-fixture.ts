import type { Kysely } from 'kysely';
import type { Schema } from '../../src/platform/db/schema.js';
import { deliveryOf, selectDeliveries, type WebhookEventType, type WebhookFilters } from '../../src/modules/webhooks/index.js';

/**
 * An endpoint as the endpoints' routes store it, written straight to the table: the former reads
 * endpoints, it does not make them (the routes are another part of the feature).
 */
export async function addEndpoint(
  db: Kysely<Schema>,
  id: string,
  types: readonly WebhookEventType[],
  options: { filters?: WebhookFilters; enabled?: boolean; disabledReason?: 'client' | 'gone' | 'retries_exhausted'; deleted?: boolean } = {},
): Promise<void> {
  await db
    .insertInto('webhook_endpoints')
    .values({
      id,
      client_id: 'client-1',
      url: 'https://hooks.example.com/in',
      description: '',
      event_types: JSON.stringify(types),
      filters: JSON.stringify(options.filters ?? {}),
      enabled: options.enabled === false ? 0 : 1,
      disabled_reason: options.enabled === false ? (options.disabledReason ?? 'client') : null,
      disabled_at: null,
      secret_sealed: 'sealed',
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      last_sequence: 0,
      created_at: 0,
      updated_at: 0,
      deleted_at: options.deleted === true ? 1 : null,
    })
    .execute();
}

export interface StoredDelivery {
  id: string;
  endpointId: string;
  sequence: number;
  type: string;
  data: { sequence: number; changes?: Array<{ id?: number; event_id: number; operator_id?: number; betting_market_id: number; position: string }> } & Record<string, unknown>;
  state: string;
  attempts: number;
  nextAttemptAt: number | null;
  changedAt: number;
}

/** Every delivery, by endpoint then sequence. */
export async function deliveries(db: Kysely<Schema>, endpointId?: string): Promise<StoredDelivery[]> {
  // Read as the service reads them: the members a delivery shares with other endpoints' joined to its own.
  let select = selectDeliveries(db);
  if (endpointId !== undefined) select = select.where('d.endpoint_id', '=', endpointId);
  const rows = await select.orderBy('d.endpoint_id').orderBy('d.sequence').execute();
  return rows.map(deliveryOf).map((delivery) => ({
    id: delivery.id,
    endpointId: delivery.endpointId,
    sequence: Number(delivery.sequence),
    type: delivery.type,
    data: JSON.parse(delivery.data) as StoredDelivery['data'],
    state: delivery.state,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt,
    changedAt: delivery.changedAt,
  }));
}

/** The ids of the price changes an endpoint's odds.changed deliveries carried, in order. */
export async function carriedChanges(db: Kysely<Schema>, endpointId: string): Promise<number[]> {
  return (await deliveries(db, endpointId)).filter((d) => d.type === 'odds.changed').flatMap((d) => (d.data.changes ?? []).map((c) => c.id ?? 0));
}

/** Price-history ids after `after`, with their event, operator and market. */
export async function historyAfter(db: Kysely<Schema>, after: number): Promise<Array<{ id: number; event_id: number; operator_id: number; betting_market_id: number }>> {
  const rows = await db.selectFrom('odds_history').select(['id', 'event_id', 'operator_id', 'betting_market_id']).where('id', '>', after).orderBy('id').execute();
  return rows.map((row) => ({ id: Number(row.id), event_id: Number(row.event_id), operator_id: Number(row.operator_id), betting_market_id: Number(row.betting_market_id) }));
}

export async function newestChange(db: Kysely<Schema>): Promise<number> {
  const row = await db.selectFrom('odds_history').select((eb) => eb.fn.max<number | null>('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function cursorOf(db: Kysely<Schema>, name: string): Promise<number> {
  const row = await db.selectFrom('feed_cursors').select('last_id').where('name', '=', name).executeTakeFirst();
  return Number(row?.last_id ?? -1);
}

/** An outbox row as a producer writes one, but with any data: what the former does with it does not depend on its shape. */
export async function addOutboxEntry(
  db: Kysely<Schema>,
  entry: { type: string; data: Record<string, unknown>; sportId: number | null; leagueId: number | null; eventId: number | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('webhook_outbox')
    .values({ type: entry.type, data: JSON.stringify(entry.data), sport_id: entry.sportId, league_id: entry.leagueId, event_id: entry.eventId, created_at: now })
    .execute();
}
