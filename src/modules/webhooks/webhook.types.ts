import type { EventKind } from '../../platform/db/schema.js';

/**
 * What a webhook endpoint can be told (decision 0305). Every name here is a contract: clients
 * subscribe to these names and switch on them.
 */
export const WEBHOOK_EVENT_TYPES = ['odds.changed', 'board.changed', 'event.updated', 'result.graded', 'edge.found', 'odds.steam', 'odds.drop'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** What an endpoint narrows its deliveries to; an absent list lets everything through, but for `event_kinds`. */
export interface WebhookFilters {
  /** The kinds of events it is told of (shared/event-kinds.ts); absent: matchups only, as before competitions existed. */
  event_kinds?: EventKind[];
  sport_ids?: number[];
  league_ids?: number[];
  event_ids?: number[];
  betting_market_ids?: number[];
  operator_ids?: number[];
  /** edge.found only: the smallest edge (a fraction: 0.02 is 2%) an endpoint is told of. */
  min_edge?: number;
}

/** An endpoint as the service holds it, its secrets still sealed. */
export interface WebhookEndpoint {
  id: string;
  clientId: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  filters: WebhookFilters;
  enabled: boolean;
  /** 'client', 'gone' (it answered 410) or 'retries_exhausted'; null while enabled. */
  disabledReason: string | null;
  disabledAt: number | null;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  lastSequence: number;
  createdAt: number;
  updatedAt: number;
}

/** One message as it goes out: its id (webhook-id), its type, and its `data` (with its sequence, but for a test) as JSON text, as stored. */
export interface WebhookMessage {
  id: string;
  type: WebhookEventType | 'webhook.test';
  /** JSON text of an object: spliced into the body as it is, never parsed and serialized again. */
  dataJson: string;
}

/** What one attempt gave, as the attempts table and the deliveries page show it. */
export interface AttemptOutcome {
  attemptedAt: number;
  /** The answer's status; null when none came (timeout, refused, connection failure). */
  statusCode: number | null;
  latencyMs: number;
  /** The answer's first 1 KiB, as text. */
  responseExcerpt: string;
  /** Why no answer came; null when one did. */
  error: string | null;
}

/**
 * Whether a text has the form of an id the service gives (`ep_…` an endpoint's, `msg_…` a
 * delivery's: the prefix and base64url). Any other is no id of ours, answered as one that does not
 * exist without asking the database, which refuses some texts (PostgreSQL a NUL) with an error.
 */
export function isServiceId(prefix: 'ep_' | 'msg_', text: string): boolean {
  return text.startsWith(prefix) && text.length <= 100 && /^[A-Za-z0-9_-]+$/.test(text.slice(prefix.length));
}
