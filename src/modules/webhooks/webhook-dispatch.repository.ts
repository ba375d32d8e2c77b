import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { Schema, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../platform/db/schema.js';
import type { WebhookBacklog } from '../../platform/metrics/webhooks.js';
import { LruCache } from '../../platform/cache/lru.js';
import { recordAudit, WEBHOOKS_SERVICE } from '../audit/index.js';
import { endpointOf } from './webhook-endpoints.repository.js';
import type { AttemptOutcome, WebhookEndpoint } from './webhook.types.js';

/** A delivery as the dispatcher and the routes read it. */
export interface Delivery {
  id: string;
  endpointId: string;
  sequence: number | null;
  type: string;
  /** The payload's `data`, as JSON text. */
  data: string;
  state: string;
  attempts: number;
  nextAttemptAt: number | null;
  changedAt: number;
  createdAt: number;
  deliveredAt: number | null;
}

/** What an attempt leaves the delivery in, written with the attempt in one transaction. */
export type AttemptVerdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; nextAttemptAt: number }
  /** The endpoint is disabled (`gone`: it answered 410; `retries_exhausted`): the delivery stays pending with nothing due. */
  | { kind: 'disable'; reason: 'gone' | 'retries_exhausted' }
  /** A manual retry that failed: recorded, the schedule left as it was. */
  | { kind: 'recorded' };

/** An attempt made under `holder`'s lease, and what it leaves its delivery in. */
export interface SettledAttempt {
  delivery: Delivery;
  endpoint: WebhookEndpoint;
  holder: string;
  outcome: AttemptOutcome;
  verdict: AttemptVerdict;
}

/** The SQL of sending: the due heads, their leases, each attempt and what it leaves behind (decision 0310). */
export interface WebhookDispatchRepository {
  /**
   * The head (lowest sequence) pending delivery of each enabled, not deleted endpoint, when it is
   * due and no lease holds it, oldest due first; none of `busy` endpoints'.
   */
  dueHeads(now: number, busy: readonly string[], limit: number): Promise<Array<{ delivery: Delivery; endpoint: WebhookEndpoint }>>;
  /**
   * Leases deliveries to `holder` until `until`: one conditional UPDATE, which leases to the one
   * node whose statement found each pending (or `anyState`), its endpoint enabled (unless not
   * `enabledOnly`) and its lease free or expired; returns the ids it leased.
   */
  claim(deliveryIds: readonly string[], holder: string, now: number, until: number, options?: { anyState?: boolean; enabledOnly?: boolean }): Promise<Set<string>>;
  /** Records attempts and their verdicts, and gives their leases back, in one transaction; with an audit entry for each endpoint disabled. */
  settle(attempts: readonly SettledAttempt[]): Promise<void>;
  /** What waits: pending deliveries (tests aside) and outbox rows. */
  backlog(): Promise<WebhookBacklog>;
}

export function createWebhookDispatchRepository(db: Kysely<Schema>): WebhookDispatchRepository {
  const payloads = sharedPayloads(db);
  return {
    dueHeads: (now, busy, limit) => dueHeads(db, payloads, { now, busy, limit }),

    async claim(deliveryIds, holder, now, until, options = {}) {
      if (deliveryIds.length === 0) return new Set();
      let update = db
        .updateTable('webhook_deliveries')
        .set({ lease_holder: holder, lease_expires_at: until })
        .where('id', 'in', deliveryIds)
        // One statement decides: on PostgreSQL a second node's UPDATE waits on the row and re-reads the lease it finds taken.
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]));
      if (options.anyState !== true) update = update.where('state', '=', 'pending');
      if (options.enabledOnly !== false) {
        update = update.where((eb) =>
          eb.exists(
            eb
              .selectFrom('webhook_endpoints')
              .select('id')
              .whereRef('webhook_endpoints.id', '=', 'webhook_deliveries.endpoint_id')
              .where('enabled', '=', 1)
              .where('deleted_at', 'is', null),
          ),
        );
      }
      const rows = await update.returning('id').execute();
      return new Set(rows.map((row) => row.id));
    },

    async settle(attempts) {
      if (attempts.length === 0) return;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_attempts')
          .values(attempts.map(({ delivery, outcome }) => attemptRow(delivery.id, outcome)))
          .execute();
        await settleDelivered(trx, attempts.filter((attempt) => attempt.verdict.kind === 'delivered'));
        for (const attempt of attempts) if (attempt.verdict.kind !== 'delivered') await settleOne(trx, attempt);
      });
    },

    async backlog() {
      const [pending, outbox] = await Promise.all([
        db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'pending').executeTakeFirstOrThrow(),
        db.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { pending: Number(pending.n), outbox: Number(outbox.n) };
    },
  };
}

/** The due heads (see the interface), driven from the endpoints. */
async function dueHeads(
  db: Kysely<Schema>,
  payloads: SharedPayloads,
  { now, busy, limit }: { now: number; busy: readonly string[]; limit: number },
): Promise<Array<{ delivery: Delivery; endpoint: WebhookEndpoint }>> {
  // Driven from the endpoints: each one's head found by the index (endpoint_id, state, sequence),
  // so the look costs the number of endpoints, whatever number of deliveries wait behind the heads.
  let query = db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('webhook_deliveries as d', (join) =>
      join.on('d.id', '=', (eb) =>
        eb.selectFrom('webhook_deliveries as h').select('h.id').whereRef('h.endpoint_id', '=', 'e.id').where('h.state', '=', 'pending').orderBy('h.sequence').limit(1),
      ),
    )
    .selectAll('d')
    // The endpoint comes with its head, under names of its own: one round trip, not two.
    .select(ENDPOINT_COLUMNS.map((column) => sql.ref(`e.${column}`).as(`e_${column}`)) as never as [])
    .where('e.enabled', '=', 1)
    .where('e.deleted_at', 'is', null)
    // The head only: while it waits for its retry, the endpoint's later deliveries wait behind it.
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_expires_at', 'is', null), eb('d.lease_expires_at', '<=', now)]));
  if (busy.length > 0) query = query.where('e.id', 'not in', busy);
  const rows = await query.orderBy('d.next_attempt_at').orderBy('d.endpoint_id').limit(limit).execute();
  if (rows.length === 0) return [];
  const members = await payloads.members(rows.flatMap((row) => (row.payload_id === null ? [] : [Number(row.payload_id)])));
  return rows.map((row) => {
    const shared = row.payload_id === null ? null : (members.get(Number(row.payload_id)) ?? null);
    return { delivery: deliveryOf({ ...row, members: shared }), endpoint: endpointOf(endpointColumnsOf(row as unknown as Record<string, unknown>)) };
  });
}

/** The endpoint's columns, read beside its head's as `e_<column>`. */
const ENDPOINT_COLUMNS = [
  'id',
  'client_id',
  'url',
  'description',
  'event_types',
  'filters',
  'enabled',
  'disabled_reason',
  'disabled_at',
  'secret_sealed',
  'previous_secret_sealed',
  'previous_secret_expires_at',
  'last_sequence',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies ReadonlyArray<keyof Selectable<WebhookEndpointsTable>>;

function endpointColumnsOf(row: Record<string, unknown>): Selectable<WebhookEndpointsTable> {
  return Object.fromEntries(ENDPOINT_COLUMNS.map((column) => [column, row[`e_${column}`]])) as unknown as Selectable<WebhookEndpointsTable>;
}

/**
 * The delivered attempts (nearly all of them) in one UPDATE per lease holder, whatever their
 * number: a statement each made the settling's round trips grow with the attempts it carried. What
 * each delivery is left in is settleOne's for a 'delivered' verdict; its time is its own attempt's.
 */
async function settleDelivered(trx: Kysely<Schema>, delivered: readonly SettledAttempt[]): Promise<void> {
  for (const holder of new Set(delivered.map((attempt) => attempt.holder))) {
    const own = delivered.filter((attempt) => attempt.holder === holder);
    const first = own[0];
    if (first === undefined) continue;
    // The times are numbers this process made, written as literals: a CASE of parameters alone has no type on PostgreSQL.
    const deliveredAt =
      own.length === 1
        ? sql<number>`${sql.lit(first.outcome.attemptedAt)}`
        : sql<number>`case id ${sql.join(own.map(({ delivery, outcome }) => sql`when ${delivery.id} then ${sql.lit(outcome.attemptedAt)}`), sql` `)} end`;
    await trx
      .updateTable('webhook_deliveries')
      .set({
        // Under the holder's lease nothing else moved the count since the attempt read it.
        attempts: sql<number>`attempts + 1`,
        state: sql<string>`case when state = 'test' then 'test' else 'delivered' end`,
        delivered_at: deliveredAt,
        next_attempt_at: null,
        lease_holder: null,
        lease_expires_at: null,
      })
      .where('id', 'in', own.map(({ delivery }) => delivery.id))
      .where('lease_holder', '=', holder)
      .execute();
  }
}

/** What one attempt leaves its delivery (and endpoint) in, its lease given back. */
async function settleOne(trx: Kysely<Schema>, { delivery, endpoint, holder, outcome, verdict }: SettledAttempt): Promise<void> {
  const at = outcome.attemptedAt;
  const attempts = verdict.kind === 'recorded' ? {} : { attempts: delivery.attempts + 1 };
  const state =
    verdict.kind === 'delivered'
      ? { state: delivery.state === 'test' ? 'test' : 'delivered', delivered_at: at, next_attempt_at: null }
      : verdict.kind === 'retry'
        ? { next_attempt_at: verdict.nextAttemptAt }
        : verdict.kind === 'disable'
          ? { next_attempt_at: null }
          : {};
  await trx
    .updateTable('webhook_deliveries')
    .set({ ...attempts, ...state, lease_holder: null, lease_expires_at: null })
    .where('id', '=', delivery.id)
    .where('lease_holder', '=', holder)
    .execute();
  if (verdict.kind === 'disable') await disable(trx, endpoint, verdict.reason, at);
}

/** Disables an endpoint the service gave up on, with its audit entry, unless it is disabled already. */
async function disable(trx: Kysely<Schema>, endpoint: WebhookEndpoint, reason: 'gone' | 'retries_exhausted', at: number): Promise<void> {
  const result = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('id', '=', endpoint.id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return;
  await recordAudit(trx, {
    clientId: endpoint.clientId,
    action: 'webhook.disabled',
    actor: WEBHOOKS_SERVICE,
    at,
    before: { webhook_endpoint_id: endpoint.id, enabled: true, disabled_reason: null },
    after: { webhook_endpoint_id: endpoint.id, enabled: false, disabled_reason: reason },
  });
}

/**
 * The members of shared payloads, each read once while it is recent: the heads of fifty endpoints
 * told of the same changes share one text, which would otherwise be read, decoded and held fifty
 * times. A payload never changes once stored, so what is kept is never stale.
 */
interface SharedPayloads {
  members(ids: readonly number[]): Promise<Map<number, string>>;
}

function sharedPayloads(db: Kysely<Schema>): SharedPayloads {
  const kept = new LruCache<number, string>(PAYLOADS_KEPT);
  return {
    async members(ids: readonly number[]): Promise<Map<number, string>> {
      const found = new Map<number, string>();
      const missing = new Set<number>();
      for (const id of ids) {
        const members = kept.get(id);
        if (members === undefined) missing.add(id);
        else found.set(id, members);
      }
      if (missing.size === 0) return found;
      const rows = await db.selectFrom('webhook_payloads').select(['id', 'members']).where('id', 'in', [...missing]).execute();
      for (const row of rows) {
        kept.set(Number(row.id), row.members);
        found.set(Number(row.id), row.members);
      }
      return found;
    },
  };
}

/** How many payloads' members the dispatcher keeps: a few batches' worth, a few MB at most. */
const PAYLOADS_KEPT = 64;

/** Deliveries (`d`) with the members of the payload each shares (`members`, null when all its data is its own). */
export function selectDeliveries(db: Kysely<Schema>) {
  return db.selectFrom('webhook_deliveries as d').leftJoin('webhook_payloads as p', 'p.id', 'd.payload_id').selectAll('d').select('p.members');
}

/** A delivery as read by `selectDeliveries`: its data whole, the shared members joined after its sequence. */
export function deliveryOf(row: Selectable<WebhookDeliveriesTable> & { members: string | null }): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    sequence: row.sequence === null ? null : Number(row.sequence),
    type: row.type,
    data: row.members === null ? row.data : `${row.data.slice(0, -1)},${row.members}}`,
    state: row.state,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
    changedAt: Number(row.changed_at),
    createdAt: Number(row.created_at),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
  };
}

/** An attempt's row in webhook_attempts. */
export function attemptRow(deliveryId: string, outcome: AttemptOutcome): Insertable<WebhookAttemptsTable> {
  return {
    delivery_id: deliveryId,
    attempted_at: outcome.attemptedAt,
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    response_excerpt: outcome.responseExcerpt,
    error: outcome.error,
  };
}
