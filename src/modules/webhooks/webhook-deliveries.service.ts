import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { offsetOf, type Page, pageOf, type Paging } from '../../platform/pagination.js';
import { DAY_MS } from '../../platform/time.js';
import { iso } from '../../shared/wire.js';
import { createWebhookDeliveriesRepository, type WebhookDeliveriesRepository } from './webhook-delivery-pages.repository.js';
import type { ReplayBody, WebhookAttempt, WebhookDelivery } from './webhook-deliveries.schemas.js';
import type { Delivery } from './webhook-dispatch.repository.js';
import type { WebhookDispatcher } from './webhook.dispatcher.js';
import { webhookEndpoints } from './webhook-endpoints.repository.js';
import type { AttemptOutcome, WebhookEndpoint } from './webhook.types.js';

/** An endpoint's deliveries as its client sees them, replays and manual retries. */
export interface WebhookDeliveriesService {
  /** A page of the endpoint's deliveries, newest first, each with its attempts. */
  page(clientId: string, endpointId: string, paging: Paging): Promise<Page<WebhookDelivery>>;
  /** Queues the delivered deliveries from a sequence or an instant to be sent again, in order; 422 outside what is kept. */
  replay(clientId: string, endpointId: string, from: ReplayBody): Promise<{ replayed: number; first_sequence: number | null; last_sequence: number | null }>;
  /** Sends one delivery now and answers the attempt; 409 while another attempt at it is under way. */
  retry(clientId: string, endpointId: string, deliveryId: string): Promise<WebhookAttempt>;
}

export interface WebhookDeliveriesDeps {
  db: Kysely<Schema>;
  clock: Clock;
  dispatcher: WebhookDispatcher;
  /** WEBHOOK_RETENTION_DAYS: how far back a replay reaches. */
  retentionDays: number;
}

export function createWebhookDeliveriesService(deps: WebhookDeliveriesDeps): WebhookDeliveriesService {
  const { db, clock, dispatcher } = deps;
  const repository = createWebhookDeliveriesRepository(db);
  const keptFrom = () => clock.now() - deps.retentionDays * DAY_MS;

  /** The caller's own endpoint, or 404: another client's is answered as one that does not exist. */
  const ownEndpoint = async (clientId: string, endpointId: string): Promise<WebhookEndpoint> => {
    const endpoint = await webhookEndpoints.byId(db, endpointId);
    if (endpoint === undefined || endpoint.clientId !== clientId) throw new ApiError('NOT_FOUND', `no webhook endpoint ${endpointId}`);
    return endpoint;
  };

  return {
    async page(clientId, endpointId, paging) {
      await ownEndpoint(clientId, endpointId);
      const { deliveries, total } = await repository.page(endpointId, offsetOf(paging), paging.page_size);
      const attempts = await repository.attempts(deliveries.map((d) => d.id));
      return pageOf(
        deliveries.map((delivery) => deliveryView(delivery, attempts.get(delivery.id) ?? [])),
        total,
        paging,
      );
    },

    async replay(clientId, endpointId, body) {
      await ownEndpoint(clientId, endpointId);
      const from = replayStart(body);
      await rejectUnkept(repository, endpointId, from, keptFrom());
      const span = await repository.replay(endpointId, from, keptFrom(), clock.now());
      // Sent by the dispatcher, in order with the endpoint's other pending deliveries, under its leases.
      void dispatcher.run().catch(() => {});
      return { replayed: span.count, first_sequence: span.first, last_sequence: span.last };
    },

    async retry(clientId, endpointId, deliveryId) {
      const endpoint = await ownEndpoint(clientId, endpointId);
      const delivery = await repository.delivery(endpointId, deliveryId);
      if (delivery === undefined) throw new ApiError('NOT_FOUND', `no delivery ${deliveryId} of webhook endpoint ${endpointId}`);
      // A test message is sent once, when asked for; another is asked for the same way.
      if (delivery.state === 'test') throw new ApiError('CONFLICT', `delivery ${deliveryId} is a test message, which is never sent again: ask for another with POST /v1/webhooks/${endpointId}/test`);
      const outcome = await dispatcher.sendNow(delivery, endpoint);
      if (outcome === null) throw new ApiError('CONFLICT', 'an attempt at this delivery is under way: try again when it has ended');
      // A success may have made the endpoint's next delivery due.
      void dispatcher.run().catch(() => {});
      return attemptView(outcome);
    },
  };
}

/** Exactly one of from_sequence and since. */
function replayStart(body: ReplayBody): { sequence: number } | { since: number } {
  if (body.from_sequence !== undefined && body.since === undefined) return { sequence: body.from_sequence };
  if (body.since !== undefined && body.from_sequence === undefined) return { since: Date.parse(body.since) };
  throw new ApiError('VALIDATION_ERROR', 'give exactly one of from_sequence and since', { details: [{ field: 'from_sequence', rule: 'oneOf' }] });
}

/** A replay reaches only what is kept: a sequence of a delivery still stored and within retention, an instant within retention. */
async function rejectUnkept(
  repository: WebhookDeliveriesRepository,
  endpointId: string,
  from: { sequence: number } | { since: number },
  keptFrom: number,
): Promise<void> {
  if ('since' in from) {
    if (from.since < keptFrom) throw new ApiError('VALIDATION_ERROR', `since is older than what is kept (deliveries are kept from ${iso(keptFrom)})`, { details: [{ field: 'since', rule: 'retention' }] });
    return;
  }
  const oldest = (await repository.oldestKept(endpointId, keptFrom))?.sequence ?? null;
  if (oldest === null || from.sequence < oldest) {
    const kept = oldest === null ? 'none is kept' : `the oldest kept is ${oldest}`;
    throw new ApiError('VALIDATION_ERROR', `from_sequence is outside what is kept (${kept})`, { details: [{ field: 'from_sequence', rule: 'retention' }] });
  }
}

function deliveryView(delivery: Delivery, attempts: readonly AttemptOutcome[]): WebhookDelivery {
  return {
    id: delivery.id,
    sequence: delivery.sequence,
    type: delivery.type,
    state: delivery.state === 'delivered' || delivery.state === 'test' ? delivery.state : 'pending',
    created_at: iso(delivery.createdAt),
    delivered_at: delivery.deliveredAt === null ? null : iso(delivery.deliveredAt),
    next_attempt_at: delivery.nextAttemptAt === null ? null : iso(delivery.nextAttemptAt),
    attempts: attempts.map(attemptView),
  };
}

function attemptView(outcome: AttemptOutcome): WebhookAttempt {
  return {
    attempted_at: iso(outcome.attemptedAt),
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    response_excerpt: outcome.responseExcerpt,
    error: outcome.error,
  };
}
