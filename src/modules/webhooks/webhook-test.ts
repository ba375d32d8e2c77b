import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { iso } from '../../shared/wire.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { isSuccess, webhookManagement } from './webhook-management.repository.js';
import type { WebhookTestResult } from './webhook.schemas.js';
import type { WebhookSender } from './webhook.sender.js';
import { newDeliveryId } from './webhook.forming.js';

/** Sends one `webhook.test` message to a client's endpoint now and says what came back. */
export type WebhookTester = (clientId: string, endpointId: string) => Promise<WebhookTestResult>;


/**
 * One attempt, made in the request, signed as every message is (both secrets during a rotation),
 * through the sender's outbound guard. It is recorded as a delivery in state 'test' with its one
 * attempt, so the deliveries page shows it, and is never retried: a test says how the endpoint
 * answers now. A disabled endpoint may be tested too, before it is enabled again.
 */
export function createWebhookTester(deps: { db: Kysely<Schema>; endpoints: WebhookEndpointsService; sender: WebhookSender }): WebhookTester {
  const { db, endpoints, sender } = deps;
  return async (clientId, endpointId) => {
    const endpoint = await endpoints.get(clientId, endpointId);
    const id = newDeliveryId();
    const dataJson = JSON.stringify({ endpoint_id: endpoint.id, message: 'A test delivery: this endpoint receives and verifies webhooks.' });
    const outcome = await sender.send(endpoint.url, endpoints.signingSecrets(endpoint), { id, type: 'webhook.test', dataJson });
    await webhookManagement(db).recordTest({ id, endpointId: endpoint.id, data: dataJson, at: outcome.attemptedAt }, outcome);
    return {
      delivery_id: id,
      success: isSuccess(outcome),
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
      response_excerpt: outcome.responseExcerpt,
      error: outcome.error,
      attempted_at: iso(outcome.attemptedAt),
    };
  };
}
