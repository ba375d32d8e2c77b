import type { EventKind } from '../../platform/db/schema.js';
import { eventKindsOf } from '../../shared/event-kinds.js';
import type { WebhookEndpoint, WebhookFilters } from './webhook.types.js';

/**
 * What a change is about, as an endpoint's filters read it. A dimension a kind of change does not
 * have (undefined: a board change has no one operator) is not filtered on; one it has but that is
 * unknown (null: an outbox entry of no event) passes only a filter that does not name it.
 */
export interface Subject {
  sportId: number | null;
  leagueId: number | null;
  eventId: number | null;
  bettingMarketId?: number;
  /** Any of them listed lets it through (a value bet's book, an arbitrage's legs' books). */
  operatorIds?: readonly number[];
  /** Its event's kind, which `event_kinds` (default matchups only) must name; undefined: of no event. */
  eventKind?: EventKind;
}

/**
 * Whether an endpoint's filters let a change through: every list given must name it; an absent list
 * lets everything through, but `event_kinds`, whose absence is matchups only: an endpoint made before
 * competitions existed is told what it was told then.
 */
export function passes(filters: WebhookFilters, subject: Subject): boolean {
  const names = (list: readonly number[] | undefined, value: number | null | undefined) => list === undefined || value === undefined || (value !== null && list.includes(value));
  return (
    (subject.eventKind === undefined || eventKindsOf(filters.event_kinds).includes(subject.eventKind)) &&
    names(filters.sport_ids, subject.sportId) &&
    names(filters.league_ids, subject.leagueId) &&
    names(filters.event_ids, subject.eventId) &&
    names(filters.betting_market_ids, subject.bettingMarketId) &&
    (filters.operator_ids === undefined || subject.operatorIds === undefined || subject.operatorIds.some((id) => filters.operator_ids?.includes(id) === true))
  );
}

/**
 * Each endpoint's changes among `items`, in their order; endpoints none of them passes are left
 * out. `tells`, when given, is what an endpoint is told beyond its lists (edge.found: its min_edge).
 */
export function matching<T>(
  endpoints: readonly WebhookEndpoint[],
  items: readonly T[],
  subjectOf: (item: T) => Subject,
  tells: (endpoint: WebhookEndpoint, item: T) => boolean = () => true,
): Array<{ endpoint: WebhookEndpoint; items: T[] }> {
  const out: Array<{ endpoint: WebhookEndpoint; items: T[] }> = [];
  for (const endpoint of endpoints) {
    const own = items.filter((item) => tells(endpoint, item) && passes(endpoint.filters, subjectOf(item)));
    if (own.length > 0) out.push({ endpoint, items: own });
  }
  return out;
}
