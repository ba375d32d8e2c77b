import { impliedProbabilityOf } from '../../src/shared/odds-format.js';
import {
  BETTING_MARKET_CATEGORIES,
  BETTING_MARKETS,
  betTypeOf,
  eventById,
  FLOWS,
  type FixtureFlow,
  hitRatePct,
  ODDS,
  sportOfLeague,
} from '../fixtures/events-flows.js';

/**
 * Expected flow ids computed from the fixture with plain JavaScript, following the documented
 * meaning of each filter (docs/decisions: team = the event's teams or the focus team; player =
 * the focus player, or a leg's for parlays; operator = the event has odds from it).
 */
export type FlowPredicate = (f: FixtureFlow) => boolean;

export function flowIds(...predicates: FlowPredicate[]): number[] {
  return FLOWS.filter((f) => predicates.every((p) => p(f)))
    .map((f) => f.id)
    .sort((a, b) => a - b);
}

const flowById = (id: number): FixtureFlow | undefined => FLOWS.find((f) => f.id === id);
const leagueOf = (f: FixtureFlow) => eventById(f.event_id).league_id;

export const inSports = (...ids: number[]): FlowPredicate => (f) => ids.includes(sportOfLeague(leagueOf(f)));
export const inLeagues = (...ids: number[]): FlowPredicate => (f) => ids.includes(leagueOf(f));
export const ofEvents = (...ids: number[]): FlowPredicate => (f) => ids.includes(f.event_id);
export const ofType = (type: FixtureFlow['flow_type']): FlowPredicate => (f) => f.flow_type === type;
export const ofBetType = (type: 'single' | 'parlay'): FlowPredicate => (f) => betTypeOf(f) === type;
export const ofLikelihood = (l: FixtureFlow['likelihood']): FlowPredicate => (f) => f.likelihood === l;
export const hitRateBetween = (min: number, max: number): FlowPredicate => (f) => hitRatePct(f) >= min && hitRatePct(f) <= max;

export const withTeams = (...ids: number[]): FlowPredicate => (f) => {
  const e = eventById(f.event_id);
  return ids.includes(e.home_team_id) || ids.includes(e.away_team_id) || (f.focus_entity_type === 'team' && ids.includes(f.focus_entity_id ?? -1));
};

const focusedOnPlayer = (f: FixtureFlow, ids: number[]) => f.focus_entity_type === 'player' && ids.includes(f.focus_entity_id ?? -1);
export const withPlayers = (...ids: number[]): FlowPredicate => (f) =>
  focusedOnPlayer(f, ids) || (f.leg_ids ?? []).some((legId) => {
    const leg = flowById(legId);
    return leg !== undefined && focusedOnPlayer(leg, ids);
  });

export const pricedBy = (...operatorIds: number[]): FlowPredicate => (f) =>
  ODDS.some((o) => o.event_id === f.event_id && operatorIds.includes(o.operator_id));

/** Events starting in [from, before). */
export const startingBetween = (from: string, before: string): FlowPredicate => (f) => {
  const start = Date.parse(eventById(f.event_id).start_time);
  return start >= Date.parse(from) && start < Date.parse(before);
};

/** A bet predicate on a single: the flow's own, or for a parlay one of its legs' (docs/api.md#trends). */
export const withBet = (bet: FlowPredicate): FlowPredicate => (f) =>
  bet(f) || (f.leg_ids ?? []).some((legId) => {
    const leg = flowById(legId);
    return leg !== undefined && bet(leg);
  });

const marketOf = (f: FixtureFlow) => BETTING_MARKETS.find((m) => m.id === f.betting_market_id);
export const inMarkets = (...ids: number[]): FlowPredicate => (f) => ids.includes(f.betting_market_id ?? -1);
export const inCategories = (...ids: number[]): FlowPredicate => (f) =>
  ids.includes(BETTING_MARKET_CATEGORIES.find((c) => c.key === marketOf(f)?.category)?.id ?? -1);
export const aboutEntity = (type: string): FlowPredicate => (f) => marketOf(f)?.entity_type === type;
export const onSplit = (split: 'over' | 'under'): FlowPredicate => (f) => f.split === split;

/** The implied probability the item shows (1/d to 4 decimals), between the bounds inclusive; none without a price. */
export const impliedBetween = (min: number, max: number): FlowPredicate => (f) => {
  if (f.price_decimal === undefined) return false;
  const implied = impliedProbabilityOf(f.price_decimal);
  return implied >= min && implied <= max;
};
