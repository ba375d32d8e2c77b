/** Webhooks: a client's endpoints, the deliveries formed for them from what changed, and their signed, retried sending (decision 0305). */
export { WEBHOOK_EVENT_TYPES, isWebhookEventType, type AttemptOutcome, type WebhookEndpoint, type WebhookEventType, type WebhookFilters, type WebhookMessage } from './webhook.types.js';
export { createWebhookSender, newWebhookSecret, RESPONSE_EXCERPT_BYTES, type WebhookSender, type WebhookSenderDeps } from './webhook.sender.js';
export { endpointOf, webhookEndpoints, type WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
export { webhookOutbox, type OutboxRow, type TakenOutboxEntry, type WebhookOutboxRepository } from './webhook-outbox.repository.js';
export {
  EVENT_CHANGES,
  EventUpdatedData,
  ResultGradedData,
  WebhookEvent,
  WebhookGrade,
  type EventChange,
  type EventUpdatedRecord,
  type ResultGradedRecord,
} from './webhook-payloads.events.js';
export { createWebhookFormer, WEBHOOKS_BOARD_CURSOR, WEBHOOKS_ODDS_CURSOR, type WebhookFormer, type WebhookFormerDeps } from './webhook.former.js';
export type { FormedDelivery } from './webhook-deliveries.repository.js';
export { createWebhookPurgeJob, forgetOldEdges, purgeOldDeliveries } from './webhook.purge.js';
export { ArbitrageEdgeItem, BoardChangedData, BoardEventItem, EdgeFoundData, EdgeItem, OddsChangedData, ValueEdgeItem } from './webhook-payloads.odds.js';
export { createWebhookDispatcher, LEASE_MARGIN_MS, type WebhookDispatcher, type WebhookDispatcherDeps } from './webhook.dispatcher.js';
export { createWebhookDispatchRepository, type Delivery, deliveryOf, selectDeliveries, type WebhookDispatchRepository } from './webhook-dispatch.repository.js';
export { nextAttemptAt, RETRY_DELAYS_MS, RETRY_JITTER } from './webhook.retries.js';
export { createWebhookDeliveriesService, type WebhookDeliveriesService } from './webhook-deliveries.service.js';
export { webhookDeliveriesRoutes } from './webhook-deliveries.routes.js';
export { createWebhookEndpoints, PREVIOUS_SECRET_SIGNS_MS, type WebhookEndpointsDeps, type WebhookEndpointsService } from './webhook-endpoints.service.js';
export { createWebhookTester, type WebhookTester } from './webhook-test.js';
export { newDeliveryId } from './webhook.forming.js';
export { WEBHOOK_PAYLOADS, type WebhookPayload } from './webhook.payloads.js';
export { webhookOperations } from './webhook.openapi.js';
export { webhookRoutes } from './webhook.routes.js';
