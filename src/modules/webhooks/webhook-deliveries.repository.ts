import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { chunksOf, paddedList } from '../../platform/chunks.js';
import { isSqlite } from '../../platform/db/locked-transaction.js';
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
   * last_sequence on. The endpoints' rows are updated first: on PostgreSQL their locks order two
   * transactions forming for the same endpoint, so sequences stay gapless and increasing (the
   * unique index (endpoint_id, sequence) refuses any other outcome); they are locked in id order,
   * so two such transactions never wait on each other in a cycle. An endpoint deleted meanwhile
   * (no row) gets nothing. A few statements whatever the number of endpoints: one each made a
   * busy feed's fifty endpoints a hundred round trips per batch, inside the transaction that holds
   * the former's cursor.
   */
  async insert(trx: Kysely<Schema>, deliveries: readonly FormedDelivery[], now: number): Promise<number> {
    const byEndpoint = new Map<string, FormedDelivery[]>();
    for (const delivery of deliveries) byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
    const payloads = await storePayloads(trx, deliveries, now);
    const lastOf = await advanceSequences(trx, byEndpoint);
    const rows = [...byEndpoint.keys()].sort().flatMap((endpointId) => {
      const own = byEndpoint.get(endpointId) ?? [];
      const last = lastOf.get(endpointId);
      if (last === undefined) return [];
      const first = last - own.length + 1;
      return own.map((delivery, i) => ({
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
      }));
    });
    for (const chunk of chunksOf(rows, DELIVERIES_PER_STATEMENT)) await trx.insertInto('webhook_deliveries').values(chunk).execute();
    return rows.length;
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

/** Deliveries per insert: 14 parameters each, far below either engine's bind-parameter ceiling. */
const DELIVERIES_PER_STATEMENT = 500;

/**
 * Moves each endpoint's last_sequence on by the number of its deliveries; the new last_sequence of
 * each endpoint not deleted. On PostgreSQL the rows are locked first, in id order (an UPDATE of
 * many rows locks them in whatever order it finds them); SQLite's transaction is the one writer.
 */
async function advanceSequences(trx: Kysely<Schema>, byEndpoint: ReadonlyMap<string, readonly FormedDelivery[]>): Promise<Map<string, number>> {
  const ids = [...byEndpoint.keys()].sort();
  if (ids.length === 0) return new Map();
  if (!isSqlite(trx)) await trx.selectFrom('webhook_endpoints').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  // The counts are numbers this process made, written as literals: a CASE of parameters alone has no type on PostgreSQL.
  const added = sql<number>`case id ${sql.join(
    ids.map((id) => sql`when ${id} then ${sql.lit(byEndpoint.get(id)?.length ?? 0)}`),
    sql` `,
  )} end`;
  const rows = await trx
    .updateTable('webhook_endpoints')
    .set({ last_sequence: sql<number>`last_sequence + ${added}` })
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .returning(['id', 'last_sequence'])
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.last_sequence)]));
}

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
