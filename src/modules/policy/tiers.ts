import { type Tier, TIERS } from '../auth/index.js';

/**
 * The kinds of data a tier may read. A client route's policy names the one it serves (its tier
 * rule); a client whose tier lacks it gets 403. Each kind with its row in docs/api.md#tiers and
 * what a refusal calls it ("the price history is for the pro and enterprise tiers").
 */
export const ENTITLEMENTS = {
  basics: { row: 'references, upcoming events, current odds, trends, account', refused: 'this' },
  'historical-events': { row: 'historical events, with status and score', refused: 'the historical events' },
  'price-history': { row: 'price history (`POST /v1/odds/history-by-event`, `GET /v1/odds/changes`)', refused: 'the price history' },
  'history-files': { row: 'history files and league exports (`/v1/historical/odds…`)', refused: 'the price history' },
  'odds-stream': { row: 'live odds stream (`GET /v1/stream/odds`)', refused: 'the odds stream' },
  'odds-edges': { row: 'value bets and arbitrages (`POST /v1/odds/edges`)', refused: 'the odds edges' },
  'odds-movement': { row: 'line movement (`POST /v1/odds/movement`)', refused: 'the line movement' },
  'as-of': { row: 'answers as of an instant (`as_of` on the odds of an event, the board and the edges)', refused: 'as_of' },
  'odds-moves': { row: 'steam moves and drops (`POST /v1/odds/moves`, `types=steam,drop` on the stream)', refused: 'the steam moves and drops' },
  quotes: { row: 'quotes at your own pricing endpoint (`/v1/account/check-endpoint`, `POST /v1/trends/flows/quote`)', refused: 'quotes' },
  results: { row: 'results: scores by period, graded odds, closing-line value (`/v1/results/…`)', refused: 'the results' },
  webhooks: { row: 'webhooks: changes posted to your own endpoints ([Webhooks](#webhooks), `/v1/webhooks`)', refused: 'webhooks' },
  signals: { row: 'signals and their graded track record (`POST /v1/signals`, `POST /v1/signals/performance`)', refused: 'the signals' },
} as const;

export type Entitlement = keyof typeof ENTITLEMENTS;

/** Everything a tier gets. */
export interface TierRights {
  /** The kinds of data it reads. */
  readonly reads: readonly Entitlement[];
  /** Odds streams one client may hold open at once, across every node (0 without `odds-stream`). */
  readonly streams: number;
  /**
   * Requests per UTC minute and per UTC day, and the webhook endpoints one client may keep (0 without
   * `webhooks`), unless TIER_LIMITS says otherwise; null: no cap.
   */
  readonly limits: { readonly perMinute: number | null; readonly perDay: number | null; readonly webhookEndpoints: number | null };
}

const EVERYTHING: readonly Entitlement[] = ['basics', 'historical-events', 'price-history', 'history-files', 'odds-stream', 'odds-edges', 'odds-movement', 'odds-moves', 'as-of', 'quotes', 'results', 'webhooks'];

/**
 * What each tier gets: the one table that the tier checks, the rate limiter's defaults, the odds
 * stream's caps and docs/api.md#tiers (checked by test/docs/tiers.test.ts) read. Decision 0182.
 */
export const TIER_TABLE: Readonly<Record<Tier, TierRights>> = {
  free: { reads: ['basics', 'historical-events'], streams: 0, limits: { perMinute: 60, perDay: 5_000, webhookEndpoints: 0 } },
  pro: { reads: EVERYTHING, streams: 5, limits: { perMinute: 600, perDay: 200_000, webhookEndpoints: 5 } },
  // Signals are enterprise only (decision 0321).
  enterprise: { reads: [...EVERYTHING, 'signals'], streams: 50, limits: { perMinute: 6_000, perDay: null, webhookEndpoints: 50 } },
};

/** The tiers that read a kind of data, in the order of TIERS. */
export function tiersWith(entitlement: Entitlement): Tier[] {
  return TIERS.filter((tier) => TIER_TABLE[tier].reads.includes(entitlement));
}
