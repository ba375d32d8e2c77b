import { roundedTo } from '../../shared/exact-decimal.js';
import { americanOf, impliedProbabilityOf } from '../../shared/odds-format.js';
import { iso, teamRef } from '../../shared/wire.js';
import { gamesOf } from './flow-graph.js';
import { attachOperatorLinks } from './flow-links.js';
import type { FlowRow, TrendsRepository } from './repository/index.js';
import type { FlowItem, FlowLegItem } from './trends.schemas.js';

/** Renders flow items by primary key (trends.service.ts gives it to every flow answer). */
export type FlowItemLoader = (ids: readonly number[], options?: { history?: boolean }) => Promise<Map<number, FlowItem>>;

/** The queries flow items are made of. */
type FlowItemRows = Pick<TrendsRepository, 'flowRows' | 'flowTags' | 'parlayLegs' | 'operatorLinkRows' | 'teamNames'>;

/**
 * Renders flow items by primary key: a flow with its event, focus entity and market, and a
 * parlay with its legs as flow items of their own. Legs are single flows, rendered one level
 * deep (a leg's `legs` is always empty).
 */
export function createFlowItemLoader(repository: FlowItemRows): FlowItemLoader {
  /**
   * Full flow items by id; parlays carry their legs in leg order. `history`: each flow and leg
   * also carries `hit_history` (the flows list keeps it for `full_hit_rate` and its view drops it).
   */
  return async function flowItems(ids, options = {}) {
    const history = options.history === true;
    const bases = await baseItems(repository, ids, history);
    const legsOf = await parlayLegsOf(repository, [...bases.values()].filter((b) => b.bet_type === 'parlay').map((b) => b.id));
    const missingLegs = [...new Set([...legsOf.values()].flat())].filter((id) => !bases.has(id));
    const legBases = await baseItems(repository, missingLegs, history);
    await attachOperatorLinks(repository, [...bases.values(), ...legBases.values()]);
    const items = new Map<number, FlowItem>();
    for (const base of bases.values()) {
      const legs: FlowLegItem[] = [];
      for (const legId of legsOf.get(base.id) ?? []) {
        const leg = bases.get(legId) ?? legBases.get(legId);
        if (leg) legs.push(leg);
      }
      items.set(base.id, { ...base, legs });
    }
    return items;
  };
}

/** Flows by id as items without their legs: with their tags, and with `history` their hit histories. */
async function baseItems(repository: FlowItemRows, ids: readonly number[], history: boolean): Promise<Map<number, FlowLegItem>> {
  const items = new Map<number, FlowLegItem>();
  if (ids.length === 0) return items;
  const rows = await repository.flowRows(ids);
  for (const r of rows) items.set(Number(r.id), itemOf(r));
  for (const tag of await repository.flowTags(ids)) items.get(Number(tag.flow_id))?.tags.push({ id: Number(tag.id), key: tag.key, name: tag.name });
  if (history) {
    const stored = new Map(rows.flatMap((r) => (r.hit_history === null ? [] : [[Number(r.id), r.hit_history] as const])));
    const games = await gamesOf(repository, stored);
    for (const item of items.values()) item.hit_history = games.get(item.id) ?? null;
  }
  return items;
}

/** One flow as an item, without tags, legs or history. */
function itemOf(r: FlowRow): FlowLegItem {
  const id = Number(r.id);
  const eventId = Number(r.event_id);
  const home = teamRef(Number(r.home_team_id ?? 0), r.home_key, r.home_name);
  const away = teamRef(Number(r.away_team_id ?? 0), r.away_key, r.away_name);
  const focusName =
    r.focus_entity_type === 'team' ? r.focus_team_name : r.focus_entity_type === 'player' ? r.focus_player_name : `${home.name} vs ${away.name}`;
  const decimal = r.price_decimal === null ? null : Number(r.price_decimal);
  return {
    id,
    flow_type: r.flow_type,
    bet_type: r.bet_type,
    sport_id: Number(r.sport_id),
    league_id: Number(r.league_id),
    event: { id: eventId, start_time: iso(Number(r.start_time ?? 0)), home_team: home, away_team: away },
    focus_entity: {
      type: r.focus_entity_type,
      id: Number(r.focus_entity_id ?? (r.focus_entity_type === 'event' ? eventId : 0)),
      name: focusName ?? '',
    },
    betting_market:
      r.betting_market_id === null ? null : { id: Number(r.betting_market_id), key: r.market_key ?? '', name: r.market_name ?? '' },
    event_betting_market_position_id: r.selection_id === null ? null : Number(r.selection_id),
    line: r.line === null ? null : Number(r.line),
    split: r.split,
    description: r.description,
    hit_rate: { hits: Number(r.hits), total: Number(r.total), pct: roundedTo(Number(r.hit_rate_pct), 2) },
    likelihood: r.likelihood,
    implied_probability: decimal === null ? null : impliedProbabilityOf(decimal),
    tags: [],
    odds: decimal === null ? null : { american: americanOf(decimal), decimal },
    fact_flow_type: r.fact_flow_type,
    source: r.source,
    disagrees: Number(r.disagrees) === 1,
    legs: [],
    updated_at: iso(Number(r.updated_at)),
  };
}

/** The legs of these parlays, each parlay's in leg order. */
async function parlayLegsOf(repository: FlowItemRows, parlayIds: readonly number[]): Promise<Map<number, number[]>> {
  const legsOf = new Map<number, number[]>();
  if (parlayIds.length === 0) return legsOf;
  for (const link of await repository.parlayLegs(parlayIds)) {
    const flowId = Number(link.flow_id);
    legsOf.set(flowId, [...(legsOf.get(flowId) ?? []), Number(link.leg_id)]);
  }
  return legsOf;
}
