/** Webhooks: a client's endpoints, the deliveries formed for them from what changed, and their signed, retried sending (decision 0305). */
export { WEBHOOK_EVENT_TYPES, isWebhookEventType, type AttemptOutcome, type WebhookEndpoint, type WebhookEventType, type WebhookFilters, type WebhookMessage } from './webhook.types.js';
export { createWebhookSender, newWebhookSecret, RESPONSE_EXCERPT_BYTES, type WebhookSender, type WebhookSenderDeps } from './webhook.sender.js';
export { endpointOf, webhookEndpoints, type WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
export { createWebhookEndpoints, PREVIOUS_SECRET_SIGNS_MS, type WebhookEndpointsDeps, type WebhookEndpointsService } from './webhook-endpoints.service.js';
export { createWebhookTester, newDeliveryId, type WebhookTester } from './webhook-test.js';
export { WEBHOOK_PAYLOADS, type WebhookPayload } from './webhook.payloads.js';
export { webhookOperations } from './webhook.openapi.js';
export { webhookRoutes } from './webhook.routes.js';
