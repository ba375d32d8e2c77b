import { MAX_ID } from '../../shared/wire.js';
import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';

export const DELIVERIES_PAGE_SIZE_MAX = 100;

const DateTime = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const EndpointParams = Type.Object({ id: Type.String({ description: 'The webhook endpoint (`ep_…`).' }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ description: 'The webhook endpoint (`ep_…`).' }),
  delivery_id: Type.String({ description: 'The delivery: its webhook-id (`msg_…`).' }),
});

export const DeliveriesQuery = Type.Object(pagingProperties(DELIVERIES_PAGE_SIZE_MAX), { additionalProperties: false });

/** One attempt to deliver, as the deliveries page and the retry answer show it. */
export const WebhookAttempt = Type.Object(
  {
    attempted_at: DateTime('When it was sent.'),
    status_code: Nullable(Type.Integer(), "The answer's HTTP status; null when none came (timeout, refused address, connection failure)."),
    latency_ms: Type.Integer({ minimum: 0, description: 'From sending to the answer or the failure.' }),
    response_excerpt: Type.String({ description: "The answer's first 1 KiB, as text." }),
    error: Nullable(Type.String(), 'Why no answer came; null when one did.'),
  },
  { title: 'WebhookAttempt', additionalProperties: false },
);
export type WebhookAttempt = Static<typeof WebhookAttempt>;

const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: 'The webhook-id header: the same on every attempt and replay (`msg_…`).' }),
    sequence: Nullable(Type.Integer({ minimum: 1 }), "Its place in the endpoint's deliveries, gapless and increasing; null for a test delivery."),
    type: Type.String({ description: 'The event type (odds.changed, board.changed, event.updated, result.graded, edge.found, odds.steam, odds.drop, webhook.test).' }),
    state: Type.Enum(['pending', 'delivered', 'test'], {
      description: 'pending: to send, or to retry at next_attempt_at (null: its retries are spent and the endpoint disabled); delivered: acknowledged with a 2xx; test: a test delivery.',
    }),
    created_at: DateTime('When it was formed.'),
    delivered_at: Nullable(DateTime('When'), 'When it was first acknowledged; null until then.'),
    next_attempt_at: Nullable(DateTime('When'), 'When the next attempt is due; null when none is.'),
    attempts: Type.Array(WebhookAttempt, { description: 'Every attempt kept, oldest first.' }),
  },
  { title: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DeliveriesPage = PageOf(WebhookDelivery, 'WebhookDeliveriesPage');

export const ReplayBody = Type.Object(
  {
    from_sequence: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Replay from this sequence number on.' })),
    since: Type.Optional(DateTime('Replay the deliveries formed at or after this instant.')),
  },
  { additionalProperties: false, description: 'Where the replay starts: exactly one of a sequence number and an instant, within WEBHOOK_RETENTION_DAYS.' },
);
export type ReplayBody = Static<typeof ReplayBody>;

export const ReplayAnswer = Type.Object(
  {
    replayed: Type.Integer({ minimum: 0, description: 'Delivered deliveries queued to be sent again, in sequence order.' }),
    first_sequence: Nullable(Type.Integer({ minimum: 1 }), 'The first of them; null when none.'),
    last_sequence: Nullable(Type.Integer({ minimum: 1 }), 'The last of them; null when none.'),
  },
  { title: 'WebhookReplay', additionalProperties: false },
);
