import type { ModuleRoutes } from '../../platform/http/types.js';
import { principalOf } from '../auth/index.js';
import type { ClientPolicy } from '../policy/index.js';
import { DeliveriesPage, DeliveriesQuery, DeliveryParams, EndpointParams, ReplayAnswer, ReplayBody, WebhookAttempt } from './webhook-deliveries.schemas.js';
import type { WebhookDeliveriesService } from './webhook-deliveries.service.js';

/** Account state like the endpoints themselves: the minute only, never cached, for the tiers with webhooks. */
const DELIVERIES: ClientPolicy = { auth: 'client', tier: 'webhooks', limit: 'account', usage: 'account', cache: 'no-store', errors: ['NOT_FOUND'] };

/** An endpoint's deliveries: the page with every attempt, a replay, a retry now (decision 0310). */
export const webhookDeliveriesRoutes: ModuleRoutes<{ deliveries: WebhookDeliveriesService }> = async (app, { deliveries }) => {
  const tags = ['account'];

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { policy: DELIVERIES },
      schema: {
        tags,
        summary: "A webhook endpoint's deliveries, with their attempts",
        description:
          'Newest first, each with its webhook-id, sequence, type, state and every attempt (when, status, latency, the first 1 KiB of the answer, the error), and when the next attempt is due. Kept WEBHOOK_RETENTION_DAYS.',
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveriesPage },
      },
    },
    async (request) => deliveries.page(principalOf(request).client.id, request.params.id, request.query),
  );

  app.post(
    '/v1/webhooks/:id/replay',
    {
      config: { policy: { ...DELIVERIES, errors: ['NOT_FOUND', 'VALIDATION_ERROR'] } },
      schema: {
        tags,
        summary: 'Sends delivered deliveries again, in order',
        description:
          'From `from_sequence` on, or those formed `since` an instant: each keeps its webhook-id and sequence (a receiver that deduplicates by webhook-id drops what it has), and is signed anew with a new timestamp when sent, before the endpoint’s later deliveries. 422 when the start lies outside what is kept (WEBHOOK_RETENTION_DAYS).',
        params: EndpointParams,
        body: ReplayBody,
        response: { 200: ReplayAnswer },
      },
    },
    async (request) => deliveries.replay(principalOf(request).client.id, request.params.id, request.body),
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    {
      config: { policy: { ...DELIVERIES, errors: ['NOT_FOUND', 'CONFLICT'] } },
      schema: {
        tags,
        summary: 'Sends one delivery now',
        description:
          'Whatever its state: a 2xx delivers a pending one, a 410 disables the endpoint; another failure is recorded and leaves its retry schedule as it was. Answers the attempt. 409 while another attempt at it is under way, and for a test message, which is never sent again.',
        params: DeliveryParams,
        response: { 200: WebhookAttempt },
      },
    },
    async (request) => deliveries.retry(principalOf(request).client.id, request.params.id, request.params.delivery_id),
  );
};
