import { type TSchema, Type } from 'typebox';
import { EventUpdatedData, ResultGradedData } from './webhook-payloads.events.js';
import { BoardChangedData, EdgeFoundData, OddsChangedData, OddsDropData, OddsSteamData } from './webhook-payloads.odds.js';
import type { WebhookEventType } from './webhook.types.js';

/**
 * What each kind of message carries in its `data`: the one registry the event-types route, the
 * OpenAPI document's `webhooks` and the docs read. Every delivery of a subscribable type carries
 * its endpoint's `sequence` (1, 2, 3… with no gap, per endpoint), by which a receiver puts them in
 * order and sees a missed one.
 */

/** A type's `data` schema and what it tells. */
export interface WebhookPayload {
  readonly description: string;
  readonly data: TSchema;
}

export const WEBHOOK_PAYLOADS: Readonly<Record<WebhookEventType | 'webhook.test', WebhookPayload>> = {
  'odds.changed': {
    description: 'Prices changed: the price changes recorded since the previous delivery, oldest first, each as the odds stream sends it (same shape, same id).',
    data: OddsChangedData,
  },
  'board.changed': {
    description: "The board moved: selections whose best price, consensus or fair price changed, each as the odds stream's board event, as it is now.",
    data: BoardChangedData,
  },
  'event.updated': {
    description:
      "An event's status, start time or score changed (a competition's status, start or end time, for an endpoint whose `event_kinds` names `competition`): the event as it stands after the change, and what changed.",
    data: EventUpdatedData,
  },
  'result.graded': {
    description: "An event's selections were graded (won, lost, push, void, half won or lost, or why not) from its result: the grades this grading made, and whether one replaced an earlier grade.",
    data: ResultGradedData,
  },
  'edge.found': {
    description: "A value bet or an arbitrage reached the endpoint's `min_edge` (any positive edge without one), each as `POST /v1/odds/edges` shows it.",
    data: EdgeFoundData,
  },
  'odds.steam': {
    description:
      'A steam move was found: at least MOVES_MIN_BOOKS books shortened one selection by at least MOVES_MIN_MOVE implied-probability points within MOVES_WINDOW_S seconds (docs/data.md#steam-moves-and-drops), each as `POST /v1/odds/moves` lists it.',
    data: OddsSteamData,
  },
  'odds.drop': {
    description:
      "A drop was found: one book shortened a selection by at least MOVES_MIN_DROP percent against its price MOVES_WINDOW_S seconds before (docs/data.md#steam-moves-and-drops), each as `POST /v1/odds/moves` lists it.",
    data: OddsDropData,
  },
  'webhook.test': {
    description: 'A test delivery, sent on request (`POST /v1/webhooks/{id}/test`) only: never subscribed to, never retried, without a sequence.',
    data: Type.Object(
      {
        endpoint_id: Type.String({ description: 'The endpoint tested.' }),
        message: Type.String({ description: 'Words saying this is a test.' }),
      },
      { title: 'WebhookTestData', additionalProperties: false },
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
