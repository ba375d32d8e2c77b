import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { figure } from '../../shared/figures.js';
import { edgesOfTouched, type LeaguedBoardChange, type MarketEdge, type MarketPair, touchedMarkets } from '../odds/index.js';
import type { FormedDelivery } from './webhook-deliveries.repository.js';
import { type KnownEdge, webhookEdges } from './webhook-edges.repository.js';
import { type ChangeKind, cutFor } from './webhook.forming.js';
import type { EdgeItem } from './webhook-payloads.odds.js';
import type { WebhookEndpoint, WebhookFilters } from './webhook.types.js';

/** A board change with when its batch was stored. */
export interface StampedBoardChange extends LeaguedBoardChange {
  storedAt: number;
}

/** An edge of a market the board changes touched, with what was known of it before. */
interface FoundEdge {
  edge: MarketEdge;
  /** Its edge when the markets were last looked at; undefined when it had none (or nothing is known). */
  before: number | undefined;
  leagueId: number | null;
  /** When the newest board change of its market was stored. */
  storedAt: number;
}

/** What edge.found made of some board changes: its deliveries, and the edges to remember with them (none when no endpoint is subscribed). */
export interface EdgesFound {
  deliveries: FormedDelivery[];
  remember?: { pairs: MarketPair[]; edges: KnownEdge[]; stale: boolean };
}

/** Whether an edge is one an endpoint's min_edge lets through: at least it, or above 0 when it gives none. */
function reaches(filters: WebhookFilters, edge: number | undefined): boolean {
  if (edge === undefined) return false;
  return filters.min_edge === undefined ? edge > 0 : edge >= filters.min_edge;
}

/** An edge as edge.found carries it: what the edges endpoint shows of it. A value edge's subject is its books; an arbitrage's, its legs' books. */
const EDGE_FOUND: ChangeKind<FoundEdge> = {
  type: 'edge.found',
  list: 'edges',
  subjectOf: ({ edge, leagueId }, sports) => ({
    sportId: sports.get(edge.event_id) ?? null,
    leagueId,
    eventId: edge.event_id,
    bettingMarketId: edge.betting_market_id,
    operatorIds: itemOf(edge).operator_ids,
  }),
  eventIdOf: ({ edge }) => edge.event_id,
  recordedAt: ({ storedAt }) => storedAt,
  shown: ({ edge }) => itemOf(edge),
  // Appeared: it reaches the endpoint's min_edge now, and did not when last looked at.
  tells: (endpoint, { edge, before }) => reaches(endpoint.filters, edge.edge) && !reaches(endpoint.filters, before),
};

/**
 * edge.found from some board changes (decision 0316): the edges now of the markets they touched,
 * each told to the endpoints whose min_edge it has just reached. With no endpoint subscribed to it,
 * nothing is read. Otherwise one read of the markets' rows, one of the edges known of them (and of
 * the mark that says whether what is known is current), and their replacement in the transaction
 * that stores the deliveries.
 */
export async function formEdgesFound(db: Kysely<Schema>, endpoints: readonly WebhookEndpoint[], changes: readonly StampedBoardChange[], cursor: string, batchMax: number): Promise<EdgesFound> {
  if (changes.length === 0 || !endpoints.some((endpoint) => endpoint.eventTypes.includes('edge.found'))) return { deliveries: [] };
  const markets = touchedMarkets(changes, ({ change }) => [change.event_id, change.betting_market_id], ({ storedAt }) => storedAt);
  const pairs = [...markets.values()].map((market) => market.pair);
  const stale = !(await webhookEdges.current(db, cursor));
  const known = stale ? new Map<string, number>() : await webhookEdges.of(db, pairs);
  const touched = await edgesOfTouched(db, markets);
  const edges = touched.map(({ edge }) => edge);
  const found = touched.map(({ edge, market }): FoundEdge => ({ edge, before: known.get(`${edge.kind}|${edge.key}`), leagueId: market.newest.leagueId, storedAt: market.newest.storedAt }));
  return {
    // Value bets first, then arbitrages, each in the order of their markets' rows.
    deliveries: await cutFor(db, endpoints, EDGE_FOUND, [...found.filter((f) => f.edge.kind === 'value'), ...found.filter((f) => f.edge.kind === 'arbitrage')], batchMax),
    remember: { pairs, stale, edges: edges.map(({ kind, key, event_id, betting_market_id, edge }) => ({ kind, key, event_id, betting_market_id, edge })) },
  };
}

/** The payload's item: the endpoint's value bet (its books at the top price together) or arbitrage, with the edge as a fraction. */
function itemOf(edge: MarketEdge): EdgeItem {
  const market = { event_id: edge.event_id, betting_market_id: edge.betting_market_id };
  if (edge.kind === 'arbitrage') {
    const { arbitrage } = edge;
    return {
      kind: 'arbitrage',
      ...market,
      event_period_id: arbitrage.event_period_id,
      player_id: arbitrage.player_id,
      operator_ids: [...new Set(arbitrage.legs.flatMap((leg) => leg.operators.map((operator) => operator.id)))],
      implied_sum: arbitrage.implied_sum,
      profit_pct: arbitrage.profit_pct,
      payout: arbitrage.payout,
      edge: figure(edge.edge),
      legs: arbitrage.legs.map((leg) => ({ position: leg.position, line: leg.line, price_decimal: leg.price_decimal, operator_ids: leg.operators.map((operator) => operator.id), stake: leg.stake })),
    };
  }
  const [bet] = edge.bets;
  return {
    kind: 'value',
    ...market,
    event_period_id: bet.event_period_id,
    player_id: bet.player_id,
    event_betting_market_position_id: bet.event_betting_market_position_id,
    position: bet.position,
    line: bet.line,
    operator_ids: edge.bets.map((b) => b.operator.id),
    price_decimal: bet.price_decimal,
    fair_probability: bet.fair_probability,
    fair_price: bet.fair_price,
    ev_pct: bet.ev_pct,
    edge: figure(edge.edge),
  };
}
