import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { chunksOf, paddedList } from '../../platform/chunks.js';
import type { Schema } from '../../platform/db/schema.js';

/** A delivery the former has made, before its endpoint's sequence number is given. */
export interface FormedDelivery {
  /** The webhook-id (`msg_…`). */
  id: string;
  endpointId: string;
  type: string;
  /**
   * The payload's data but its sequence, which goes first: the JSON text of its members
   * (`"changes":[…]`), built once, whatever number of endpoints' deliveries carry the same changes.
   */
  members: string;
  /** When the newest change it carries was recorded (epoch ms). */
  changedAt: number;
}

/** The deliveries' writes the former and the retention make (the endpoint reads are webhook-endpoints.repository.ts). */
export const webhookDeliveries = {
  /**
   * Stores the deliveries in `trx`, each endpoint's in the order given, numbered from its
   * last_sequence on. The endpoint's row is updated first: on PostgreSQL its lock orders two
   * transactions forming for the same endpoint, so sequences stay gapless and increasing (the
   * unique index (endpoint_id, sequence) refuses any other outcome); the endpoints are taken in
   * id order, so two such transactions never wait on each other in a cycle. An endpoint deleted
   * meanwhile (no row) gets nothing.
   */
  async insert(trx: Kysely<Schema>, deliveries: readonly FormedDelivery[], now: number): Promise<number> {
    const byEndpoint = new Map<string, FormedDelivery[]>();
    for (const delivery of deliveries) byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
    const payloads = await storePayloads(trx, deliveries, now);
    let stored = 0;
    for (const endpointId of [...byEndpoint.keys()].sort()) {
      const own = byEndpoint.get(endpointId) ?? [];
      const row = await trx
        .updateTable('webhook_endpoints')
        .set({ last_sequence: sql<number>`last_sequence + ${own.length}` })
        .where('id', '=', endpointId)
        .where('deleted_at', 'is', null)
        .returning('last_sequence')
        .executeTakeFirst();
      if (row === undefined) continue;
      const first = Number(row.last_sequence) - own.length + 1;
      await trx
        .insertInto('webhook_deliveries')
        .values(
          own.map((delivery, i) => ({
            id: delivery.id,
            endpoint_id: endpointId,
            sequence: first + i,
            type: delivery.type,
            data: `{"sequence":${first + i}}`,
            payload_id: payloads.get(delivery.members) ?? null,
            state: 'pending',
            attempts: 0,
            next_attempt_at: now,
            lease_holder: null,
            lease_expires_at: null,
            changed_at: delivery.changedAt,
            created_at: now,
            delivered_at: null,
          })),
        )
        .execute();
      stored += own.length;
    }
    return stored;
  },

  /**
   * Deletes, with their attempts, the delivered and test deliveries made before `before`, and the
   * deliveries of deleted endpoints whatever their age (nothing will send them); returns how many.
   */
  async purge(db: Kysely<Schema>, before: number): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const gone = (eb: ExpressionBuilder<Schema, 'webhook_deliveries'>) =>
        eb.or([
          eb.and([eb('state', 'in', ['delivered', 'test']), eb('created_at', '<', before)]),
          eb('endpoint_id', 'in', eb.selectFrom('webhook_endpoints').select('id').where('deleted_at', 'is not', null)),
        ]);
      await trx
        .deleteFrom('webhook_attempts')
        .where('delivery_id', 'in', trx.selectFrom('webhook_deliveries').select('id').where(gone))
        .execute();
      const result = await trx.deleteFrom('webhook_deliveries').where(gone).executeTakeFirst();
      // A payload outlives the deliveries that shared it by at most one purge.
      await trx
        .deleteFrom('webhook_payloads')
        .where('created_at', '<', before)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries').select('id').whereRef('webhook_deliveries.payload_id', '=', 'webhook_payloads.id'))))
        .execute();
      return Number(result.numDeletedRows);
    });
  },

  /** Whether any outbox entry waits: one read, before the former takes the write lock. */
  async outboxWaiting(db: Kysely<Schema>): Promise<boolean> {
    return (await db.selectFrom('webhook_outbox').select('id').limit(1).executeTakeFirst()) !== undefined;
  },

  /**
   * Of some events, what the endpoints' filters read of them: each one's sport (`sport_ids`: its
   * league's, derived at import) and which are competitions (`event_kinds`; the others are
   * matchups). One read with every batch the former cuts, so its lists are padded (a few statement
   * texts) and chunked.
   */
  async eventFactsOf(db: Kysely<Schema>, eventIds: readonly number[]): Promise<{ sports: Map<number, number>; competitions: Set<number> }> {
    const sports = new Map<number, number>();
    const competitions = new Set<number>();
    for (const ids of chunksOf(eventIds, 1_000)) {
      for (const row of await db.selectFrom('events').select(['id', 'sport_id', 'kind']).where('id', 'in', paddedList(ids)).execute()) {
        sports.set(Number(row.id), Number(row.sport_id));
        if (row.kind === 'competition') competitions.add(Number(row.id));
      }
    }
    return { sports, competitions };
  },
};

/**
 * Stores once each distinct members text the deliveries carry (endpoints whose filters let the
 * same changes through carry the same text, built once by the former); returns the payload id of
 * each. A delivery with no members (an empty text) has no payload.
 */
async function storePayloads(trx: Kysely<Schema>, deliveries: readonly FormedDelivery[], now: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const { members } of deliveries) {
    if (members === '' || ids.has(members)) continue;
    const row = await trx.insertInto('webhook_payloads').values({ members, created_at: now }).returning('id').executeTakeFirstOrThrow();
    ids.set(members, Number(row.id));
  }
  return ids;
}
