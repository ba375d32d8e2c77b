import type { Insertable, Kysely, Updateable } from 'kysely';
import { locked } from '../../platform/db/locked-transaction.js';
import type { Schema, WebhookEndpointsTable } from '../../platform/db/schema.js';
import { type AttemptOutcome, isServiceId, type WebhookEndpoint } from './webhook.types.js';
import { attemptRow } from './webhook-dispatch.repository.js';
import { endpointOf } from './webhook-endpoints.repository.js';

/** The endpoint routes' reads and writes: a client's endpoints, their changes, and the record of a test delivery. */
export interface WebhookManagementRepository {
  /** Locks the client's row for the rest of the transaction (PostgreSQL): two creations cannot both pass the cap. */
  lockClient(clientId: string): Promise<void>;
  /** The client's endpoints not deleted, oldest first. */
  idsOf(clientId: string): Promise<string[]>;
  byIds(ids: readonly string[]): Promise<Map<string, WebhookEndpoint>>;
  /** The client's endpoint, not deleted; undefined when another client's or none. */
  ownedBy(clientId: string, id: string): Promise<WebhookEndpoint | undefined>;
  insert(row: Insertable<WebhookEndpointsTable>): Promise<void>;
  update(id: string, changes: Updateable<WebhookEndpointsTable>): Promise<void>;
  /** Every pending delivery of the endpoint due at once, its retries counted afresh (a re-enabled endpoint resumes). */
  resumePending(endpointId: string, now: number): Promise<void>;
  /** A test delivery (state 'test', no sequence) and its one attempt. */
  recordTest(delivery: { id: string; endpointId: string; data: string; at: number }, outcome: AttemptOutcome): Promise<void>;
}

export function webhookManagement(db: Kysely<Schema>): WebhookManagementRepository {
  const live = () => db.selectFrom('webhook_endpoints').where('deleted_at', 'is', null);
  return {
    async lockClient(clientId) {
      await locked(db.selectFrom('clients').select('id').where('id', '=', clientId), 'update', db).execute();
    },

    async idsOf(clientId) {
      const rows = await live().select('id').where('client_id', '=', clientId).orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => row.id);
    },

    async byIds(ids) {
      const rows = ids.length === 0 ? [] : await live().selectAll().where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [row.id, endpointOf(row)]));
    },

    async ownedBy(clientId, id) {
      if (!isServiceId('ep_', id)) return undefined;
      const row = await live().selectAll().where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
      return row === undefined ? undefined : endpointOf(row);
    },

    async insert(row) {
      await db.insertInto('webhook_endpoints').values(row).execute();
    },

    async update(id, changes) {
      await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
    },

    async resumePending(endpointId, now) {
      await db.updateTable('webhook_deliveries').set({ attempts: 0, next_attempt_at: now }).where('endpoint_id', '=', endpointId).where('state', '=', 'pending').execute();
    },

    async recordTest(delivery, outcome) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_deliveries')
          .values({
            id: delivery.id,
            endpoint_id: delivery.endpointId,
            sequence: null,
            type: 'webhook.test',
            data: delivery.data,
            state: 'test',
            attempts: 1,
            next_attempt_at: null,
            lease_holder: null,
            lease_expires_at: null,
            changed_at: delivery.at,
            created_at: delivery.at,
            delivered_at: isSuccess(outcome) ? outcome.attemptedAt : null,
          })
          .execute();
        await trx
          .insertInto('webhook_attempts')
          .values(attemptRow(delivery.id, outcome))
          .execute();
      });
    },
  };
}

/** A 2xx within the deadline: what counts as delivered. */
export function isSuccess(outcome: AttemptOutcome): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}
