import type { Kysely, Selectable } from 'kysely';
import type { Schema, WebhookEndpointsTable } from '../../platform/db/schema.js';
import { isServiceId, isWebhookEventType, type WebhookEndpoint, type WebhookFilters } from './webhook.types.js';

/** The endpoints' reads every part of the module shares; the endpoint routes' writes join them here. */
export interface WebhookEndpointsRepository {
  /** An endpoint that is not deleted, whoever owns it. */
  byId(db: Kysely<Schema>, id: string): Promise<WebhookEndpoint | undefined>;
  /**
   * The endpoints the former forms deliveries for, subscribed to one of `types`: the enabled ones,
   * and those disabled because every retry of a delivery failed, whose deliveries queue behind it
   * so that enabling the endpoint again resumes where it stopped, nothing lost. An endpoint its
   * client disabled, or that answered 410 (gone), gets nothing while it stays so.
   */
  enabledFor(db: Kysely<Schema>, types: readonly string[]): Promise<WebhookEndpoint[]>;
}

export const webhookEndpoints: WebhookEndpointsRepository = {
  async byId(db, id) {
    if (!isServiceId('ep_', id)) return undefined;
    const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    return row === undefined ? undefined : endpointOf(row);
  },

  async enabledFor(db, types) {
    const rows = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where((eb) => eb.or([eb('enabled', '=', 1), eb('disabled_reason', '=', 'retries_exhausted')]))
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map(endpointOf).filter((endpoint) => endpoint.eventTypes.some((type) => types.includes(type)));
  },
};

export function endpointOf(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  const types: unknown = JSON.parse(row.event_types);
  return {
    id: row.id,
    clientId: row.client_id,
    url: row.url,
    description: row.description,
    eventTypes: Array.isArray(types) ? types.filter((t): t is WebhookEndpoint['eventTypes'][number] => typeof t === 'string' && isWebhookEventType(t)) : [],
    filters: JSON.parse(row.filters) as WebhookFilters,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : Number(row.previous_secret_expires_at),
    lastSequence: Number(row.last_sequence),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
