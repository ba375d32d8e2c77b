import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { eventKindsProperty } from '../../shared/event-kinds.js';
import { Id, iso, MAX_FILTER_ITEMS, NO_NUL } from '../../shared/wire.js';
import { WEBHOOK_PAYLOADS } from './webhook.payloads.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from './webhook.types.js';

/** The wire shapes of a client's webhook endpoints. A secret goes out once, in the answer that made it; never its sealed form. */

export const WEBHOOKS_PAGE_SIZE_MAX = 100;
const URL_MAX_LENGTH = 2048;
const DESCRIPTION_MAX_LENGTH = 500;

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const NullableTimestamp = (description: string) => Type.Union([Timestamp(description), Type.Null()], { description });
const Ids = (what: string) => Type.Optional(Type.Array(Id(), { minItems: 1, maxItems: MAX_FILTER_ITEMS, uniqueItems: true, description: `Only messages about these ${what} (ids); absent: all.` }));

export const WebhookFilters = Type.Object(
  {
    sport_ids: Ids('sports'),
    league_ids: Ids('leagues'),
    event_ids: Ids('events'),
    betting_market_ids: Ids('betting markets'),
    operator_ids: Ids('operators'),
    min_edge: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: '`edge.found` only: the smallest edge told of, as a fraction (0.02 is 2%).' })),
    ...eventKindsProperty,
  },
  {
    additionalProperties: false,
    title: 'WebhookFilters',
    description:
      'What the endpoint is told of: each list narrows its messages; absent lists let everything through, but `event_kinds`, whose absence is matchups only ' +
      '(an endpoint is told of competitions\' price changes, board changes, edges, steam moves, drops, updates and grades only when its `event_kinds` names `competition`).',
  },
);

const EventTypes = Type.Array(Type.Enum(WEBHOOK_EVENT_TYPES), {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  description: `The kinds of message the endpoint receives, at least one of: ${WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}.`,
});
const Url = Type.String({
  minLength: 1,
  maxLength: URL_MAX_LENGTH,
  description:
    'Where messages are posted: https (plain http only outside production, or to an address the operator allowed in OUTBOUND_ALLOW_CIDRS). ' +
    'No user or password in it, and no loopback, private, link-local or metadata address unless the operator allowed its range.',
});
const Description = Type.String({ maxLength: DESCRIPTION_MAX_LENGTH, ...NO_NUL, description: 'A note of your choosing, e.g. what receives the messages.' });

export const NewWebhookBody = Type.Object(
  {
    url: Url,
    event_types: EventTypes,
    filters: Type.Optional(WebhookFilters),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ default: true, description: 'False: the endpoint is kept but sent nothing. Default true.' })),
  },
  { additionalProperties: false, title: 'NewWebhook' },
);
export type NewWebhookBody = Static<typeof NewWebhookBody>;

export const WebhookChangeBody = Type.Object(
  {
    url: Type.Optional(Url),
    event_types: Type.Optional(EventTypes),
    filters: Type.Optional(WebhookFilters),
    description: Type.Optional(Description),
    enabled: Type.Optional(
      Type.Boolean({ description: 'False stops sending: the messages already made wait, and none is made for it until it is enabled again (an endpoint disabled because its retries were spent keeps getting messages made, so enabling it loses nothing). True resumes where sending stopped, every waiting message due at once.' }),
    ),
  },
  { additionalProperties: false, minProperties: 1, title: 'WebhookChange', description: 'The fields to change; the others stay as they are.' },
);
export type WebhookChangeBody = Static<typeof WebhookChangeBody>;

export const Webhook = Type.Object(
  {
    id: Type.String({ description: 'The endpoint\'s id (`ep_…`).' }),
    url: Type.String({ description: 'Where messages are posted.' }),
    description: Type.String({ description: 'The note given to it.' }),
    event_types: Type.Array(Type.Enum(WEBHOOK_EVENT_TYPES), { description: 'The kinds of message it receives.' }),
    filters: WebhookFilters,
    enabled: Type.Boolean({ description: 'Whether messages are sent to it.' }),
    disabled_reason: Type.Union([Type.Enum(['client', 'gone', 'retries_exhausted']), Type.Null()], {
      description: 'Why it is disabled: `client` (by a request), `gone` (it answered 410), `retries_exhausted` (a message failed every retry); null while enabled.',
    }),
    disabled_at: NullableTimestamp('When it was disabled; null while enabled.'),
    previous_secret_expires_at: NullableTimestamp('Until when the secret before the latest rotation still signs beside the new one; null: only one secret signs.'),
    created_at: Timestamp('When it was created (ISO 8601, UTC).'),
    updated_at: Timestamp('When it was last changed (ISO 8601, UTC).'),
  },
  { additionalProperties: false, title: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

const Secret = Type.String({ description: 'The signing secret (`whsec_…`). Shown in this response only: store it now.' });

export const CreatedWebhook = Type.Object({ ...Webhook.properties, secret: Secret }, { additionalProperties: false, title: 'CreatedWebhook' });
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const RotatedSecret = Type.Object(
  {
    id: Type.String({ description: "The endpoint's id." }),
    secret: Secret,
    previous_secret_expires_at: Timestamp('Until when the secret it replaces still signs beside it (24 hours).'),
  },
  { additionalProperties: false, title: 'RotatedWebhookSecret' },
);

export const WebhookTestResult = Type.Object(
  {
    delivery_id: Type.String({ description: 'Its webhook-id header (`msg_…`).' }),
    success: Type.Boolean({ description: 'Whether the endpoint answered 2xx in time.' }),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The answer's status; null when none came." }),
    latency_ms: Type.Integer({ minimum: 0, description: 'How long the attempt took.' }),
    response_excerpt: Type.String({ description: "The answer's first 1 KiB, as text." }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why no answer came (timeout, refused address, connection failure); null when one did.' }),
    attempted_at: Timestamp('When it was sent.'),
  },
  { additionalProperties: false, title: 'WebhookTestResult' },
);
export type WebhookTestResult = Static<typeof WebhookTestResult>;

export const WebhooksPage = PageOf(Webhook, 'WebhooksPage');
export const WebhooksQuery = Type.Object(pagingProperties(WEBHOOKS_PAGE_SIZE_MAX), { additionalProperties: false });
// Not a pattern: an id that names no endpoint of the caller is a 404, whatever its form.
export const WebhookParams = Type.Object({ id: Type.String({ description: "The endpoint's id." }) });
export const WebhookDeleted = Type.Null({ description: 'Deleted: nothing more is sent to it.' });

export const WebhookEventTypes = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          type: Type.String({ description: 'The name a subscription and each message carry.' }),
          description: Type.String({ description: 'What it tells.' }),
          subscribable: Type.Boolean({ description: 'Whether `event_types` may name it (`webhook.test` is sent on request only).' }),
          data_schema: Type.Object({}, { additionalProperties: true, description: "The JSON Schema of its messages' `data`." }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every kind of message, the subscribable ones first.' },
    ),
  },
  { additionalProperties: false, title: 'WebhookEventTypes' },
);

/** Every kind of message, with the JSON Schema of its `data`. */
export function eventTypesView(): Static<typeof WebhookEventTypes> {
  const subscribable: readonly string[] = WEBHOOK_EVENT_TYPES;
  return {
    results: Object.entries(WEBHOOK_PAYLOADS).map(([type, payload]) => ({
      type,
      description: payload.description,
      subscribable: subscribable.includes(type),
      data_schema: JSON.parse(JSON.stringify(payload.data)) as Record<string, unknown>,
    })),
  };
}

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function webhookView(endpoint: WebhookEndpoint, now: number): Webhook {
  const previousSigns = endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    filters: endpoint.filters,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.enabled ? null : ((endpoint.disabledReason ?? 'client') as Webhook['disabled_reason']),
    disabled_at: isoOrNull(endpoint.disabledAt),
    previous_secret_expires_at: previousSigns ? isoOrNull(endpoint.previousSecretExpiresAt) : null,
    created_at: iso(endpoint.createdAt),
    updated_at: iso(endpoint.updatedAt),
  };
}
