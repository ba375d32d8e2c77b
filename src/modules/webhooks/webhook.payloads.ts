import { type TSchema, Type } from 'typebox';
import type { WebhookEventType } from './webhook.types.js';

/**
 * What each kind of message carries in its `data`: the one registry the event-types route, the
 * OpenAPI document's `webhooks` and the docs read. Every delivery of a subscribable type carries
 * its endpoint's `sequence` (1, 2, 3… with no gap, per endpoint), by which a receiver puts them in
 * order and sees a missed one.
 */

const Sequence = Type.Integer({ minimum: 1, description: "This delivery's place among its endpoint's deliveries: 1, 2, 3… without a gap." });
const Items = (description: string) => Type.Array(Type.Object({}, { additionalProperties: true }), { description });

/** A type's `data` schema and what it tells. */
export interface WebhookPayload {
  readonly description: string;
  readonly data: TSchema;
}

export const WEBHOOK_PAYLOADS: Readonly<Record<WebhookEventType | 'webhook.test', WebhookPayload>> = {
  'odds.changed': {
    description: 'Prices changed: the odds changes recorded since the previous delivery, each as the odds stream sends it (same shape, same id).',
    data: Type.Object({ sequence: Sequence, changes: Items("The odds changes, oldest first, each the odds stream's change item.") }, { additionalProperties: false }),
  },
  'board.changed': {
    description: "The board moved: what the changes did to a selection's best price, consensus and fair price, each as the odds stream's board event.",
    data: Type.Object({ sequence: Sequence, changes: Items("The board events, oldest first, each the odds stream's board event item.") }, { additionalProperties: false }),
  },
  'event.updated': {
    description: "An event's status, start time or score changed.",
    data: Type.Object(
      {
        sequence: Sequence,
        event: Type.Object({}, { additionalProperties: true, description: 'The event as the events lists show it, after the change.' }),
        changed: Type.Array(Type.String(), { description: 'The names of the fields that changed.' }),
      },
      { additionalProperties: false },
    ),
  },
  'result.graded': {
    description: 'Selections were graded (won, lost, push, void, half won or lost) from an event\'s result.',
    data: Type.Object({ sequence: Sequence, grades: Items('The grades, as the graded odds list shows them.') }, { additionalProperties: false }),
  },
  'edge.found': {
    description: 'A value bet or an arbitrage appeared at least as large as the endpoint\'s `min_edge`.',
    data: Type.Object({ sequence: Sequence, edges: Items('The edges found, as `POST /v1/odds/edges` lists them.') }, { additionalProperties: false }),
  },
  'webhook.test': {
    description: 'A test delivery, sent on request (`POST /v1/webhooks/{id}/test`) only: never subscribed to, never retried, without a sequence.',
    data: Type.Object(
      {
        endpoint_id: Type.String({ description: 'The endpoint tested.' }),
        message: Type.String({ description: 'Words saying this is a test.' }),
      },
      { additionalProperties: false },
    ),
  },
};

/** The body of one message of `type`: `{type, timestamp, data}`, as the sender serializes and signs it. */
export function payloadSchemaOf(type: keyof typeof WEBHOOK_PAYLOADS): TSchema {
  const { description, data } = WEBHOOK_PAYLOADS[type];
  return Type.Object(
    {
      type: Type.Literal(type, { description: 'The kind of message.' }),
      timestamp: Type.String({ format: 'date-time', description: 'When this attempt was signed (ISO 8601, UTC); webhook-timestamp says the same in seconds.' }),
      data,
    },
    { additionalProperties: false, title: `Webhook ${type}`, description },
  );
}
