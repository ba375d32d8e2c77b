import type { Kysely, Selectable } from 'kysely';
import type { Schema, WebhookDeliveriesTable } from '../../platform/db/schema.js';
import type { WebhookBacklog } from '../../platform/metrics/webhooks.js';
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

/** The SQL of sending: the due heads, their leases, each attempt and what it leaves behind (decision 0310). */
export interface WebhookDispatchRepository {
  /**
   * The head (lowest sequence) pending delivery of each enabled, not deleted endpoint, when it is
   * due and no lease holds it, oldest due first; none of `busy` endpoints'.
   */
  dueHeads(now: number, busy: readonly string[], limit: number): Promise<Array<{ delivery: Delivery; endpoint: WebhookEndpoint }>>;
  /**
   * Leases a delivery to `holder` until `until`: one conditional UPDATE, true for the one node
   * whose statement found it pending (or `anyState`) and the lease free or expired.
   */
  claim(deliveryId: string, holder: string, now: number, until: number, options?: { anyState?: boolean; enabledOnly?: boolean }): Promise<boolean>;
  /** Records an attempt and its verdict, and gives the lease back; with an audit entry when the endpoint is disabled. */
  settle(delivery: Delivery, endpoint: WebhookEndpoint, holder: string, outcome: AttemptOutcome, verdict: AttemptVerdict): Promise<void>;
  /** What waits: pending deliveries (tests aside) and outbox rows. */
  backlog(): Promise<WebhookBacklog>;
}

export function createWebhookDispatchRepository(db: Kysely<Schema>): WebhookDispatchRepository {
  return {
    async dueHeads(now, busy, limit) {
      let query = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .selectAll('d')
        .where('e.enabled', '=', 1)
        .where('e.deleted_at', 'is', null)
        .where('d.state', '=', 'pending')
        .where('d.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('d.lease_expires_at', 'is', null), eb('d.lease_expires_at', '<=', now)]))
        // The head only: while it waits for its retry, the endpoint's later deliveries wait behind it.
        .where((eb) =>
          eb(
            'd.sequence',
            '=',
            eb.selectFrom('webhook_deliveries as h').select((h) => h.fn.min('h.sequence').as('head')).whereRef('h.endpoint_id', '=', 'd.endpoint_id').where('h.state', '=', 'pending'),
          ),
        );
      if (busy.length > 0) query = query.where('d.endpoint_id', 'not in', busy);
      const rows = await query.orderBy('d.next_attempt_at').orderBy('d.endpoint_id').limit(limit).execute();
      if (rows.length === 0) return [];
      const endpoints = await db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', rows.map((row) => row.endpoint_id)).execute();
      const byId = new Map(endpoints.map((row) => [row.id, endpointOf(row)]));
      return rows.flatMap((row) => {
        const endpoint = byId.get(row.endpoint_id);
        return endpoint === undefined ? [] : [{ delivery: deliveryOf(row), endpoint }];
      });
    },

    async claim(deliveryId, holder, now, until, options = {}) {
      let update = db
        .updateTable('webhook_deliveries')
        .set({ lease_holder: holder, lease_expires_at: until })
        .where('id', '=', deliveryId)
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
      const result = await update.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    settle: (delivery, endpoint, holder, outcome, verdict) => settle(db, { delivery, endpoint, holder, outcome, verdict }),

    async backlog() {
      const [pending, outbox] = await Promise.all([
        db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'pending').executeTakeFirstOrThrow(),
        db.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { pending: Number(pending.n), outbox: Number(outbox.n) };
    },
  };
}

async function settle(
  db: Kysely<Schema>,
  step: { delivery: Delivery; endpoint: WebhookEndpoint; holder: string; outcome: AttemptOutcome; verdict: AttemptVerdict },
): Promise<void> {
  const { delivery, endpoint, holder, outcome, verdict } = step;
  const at = outcome.attemptedAt;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: delivery.id,
        attempted_at: at,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        response_excerpt: outcome.responseExcerpt,
        error: outcome.error,
      })
      .execute();
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
  });
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

export function deliveryOf(row: Selectable<WebhookDeliveriesTable>): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    sequence: row.sequence === null ? null : Number(row.sequence),
    type: row.type,
    data: row.data,
    state: row.state,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
    changedAt: Number(row.changed_at),
    createdAt: Number(row.created_at),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
  };
}
