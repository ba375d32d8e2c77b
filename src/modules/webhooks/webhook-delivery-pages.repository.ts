import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { type Delivery, deliveryOf, selectDeliveries } from './webhook-dispatch.repository.js';
import { type AttemptOutcome, isServiceId } from './webhook.types.js';

/** What a replay starts from: a sequence number, or an instant (deliveries made at or after it). */
export type ReplayFrom = { sequence: number } | { since: number };

/** The deliveries page and the replays of one endpoint. */
export interface WebhookDeliveriesRepository {
  /** A page of an endpoint's deliveries, newest first, and how many it has. */
  page(endpointId: string, offset: number, limit: number): Promise<{ deliveries: Delivery[]; total: number }>;
  /** One delivery of one endpoint. */
  delivery(endpointId: string, deliveryId: string): Promise<Delivery | undefined>;
  /** The attempts of deliveries, oldest first, by delivery id. */
  attempts(deliveryIds: readonly string[]): Promise<Map<string, AttemptOutcome[]>>;
  /** The oldest delivery with a sequence made at or after `keptFrom`: where what a replay can reach starts (undefined: none kept). */
  oldestKept(endpointId: string, keptFrom: number): Promise<Delivery | undefined>;
  /**
   * Makes the delivered deliveries from `from` on pending again, due at `now`, each keeping its
   * id and sequence: the dispatcher sends them again in order, ahead of what was still pending.
   * Returns how many, and the first and last sequence.
   */
  replay(endpointId: string, from: ReplayFrom, keptFrom: number, now: number): Promise<{ count: number; first: number | null; last: number | null }>;
}

export function createWebhookDeliveriesRepository(db: Kysely<Schema>): WebhookDeliveriesRepository {
  return {
    async page(endpointId, offset, limit) {
      const [rows, count] = await Promise.all([
        selectDeliveries(db).where('d.endpoint_id', '=', endpointId).orderBy('d.created_at', 'desc').orderBy('d.sequence', 'desc').orderBy('d.id').offset(offset).limit(limit).execute(),
        db.selectFrom('webhook_deliveries').where('endpoint_id', '=', endpointId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { deliveries: rows.map(deliveryOf), total: Number(count.n) };
    },

    async delivery(endpointId, deliveryId) {
      if (!isServiceId('msg_', deliveryId)) return undefined;
      const row = await selectDeliveries(db).where('d.id', '=', deliveryId).where('d.endpoint_id', '=', endpointId).executeTakeFirst();
      return row === undefined ? undefined : deliveryOf(row);
    },

    async attempts(deliveryIds) {
      const byDelivery = new Map<string, AttemptOutcome[]>(deliveryIds.map((id) => [id, []]));
      if (deliveryIds.length === 0) return byDelivery;
      const rows = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id').execute();
      for (const row of rows) {
        byDelivery.get(row.delivery_id)?.push({
          attemptedAt: Number(row.attempted_at),
          statusCode: row.status_code === null ? null : Number(row.status_code),
          latencyMs: Number(row.latency_ms),
          responseExcerpt: row.response_excerpt,
          error: row.error,
        });
      }
      return byDelivery;
    },

    async oldestKept(endpointId, keptFrom) {
      const row = await selectDeliveries(db)
        .where('d.endpoint_id', '=', endpointId)
        .where('d.sequence', 'is not', null)
        .where('d.created_at', '>=', keptFrom)
        .orderBy('d.sequence')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? undefined : deliveryOf(row);
    },

    async replay(endpointId, from, keptFrom, now) {
      const chosen = (q: Kysely<Schema>) =>
        q
          .selectFrom('webhook_deliveries')
          .where('endpoint_id', '=', endpointId)
          .where('state', '=', 'delivered')
          .where('created_at', '>=', 'since' in from ? Math.max(from.since, keptFrom) : keptFrom)
          .where('sequence', '>=', 'sequence' in from ? from.sequence : 0);
      return db.transaction().execute(async (trx) => {
        const span = await chosen(trx)
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('sequence').as('first'), eb.fn.max('sequence').as('last')])
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'pending', attempts: 0, next_attempt_at: now })
          .where('id', 'in', chosen(trx).select('id'))
          .execute();
        return { count: Number(span.n), first: span.first === null ? null : Number(span.first), last: span.last === null ? null : Number(span.last) };
      });
    },
  };
}
