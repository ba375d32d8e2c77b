import type { BetType, FlowType, Likelihood } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors.js';
import { idSet } from '../../shared/filters.js';
import type { KeyResolver } from '../references/index.js';
import { FLOW_TYPES, type FlowsBody, LIKELIHOODS } from './trends.schemas.js';

/**
 * The flows filters (docs/api.md#trends) reduced to one canonical form, so that equivalent requests
 * (arrays in another order, a singular alias, a default spelled out, `singles` for `single`)
 * share one cache entry. Normalizing is synchronous and cheap: it runs before the page cache.
 */
export interface FlowFilters {
  sport_ids?: number[];
  sport_key?: string;
  league_ids?: number[];
  league_key?: string;
  event_ids?: number[];
  team_ids?: number[];
  team_key?: string;
  player_ids?: number[];
  player_key?: string;
  operator_ids?: number[];
  flow_type?: FlowType;
  bet_type?: BetType;
  likelihood?: Likelihood;
  min_hit_rate?: number;
  max_hit_rate?: number;
  /** Event start range [from, before), epoch ms. */
  starts_from?: number;
  starts_before?: number;
}

/** The filters with every key replaced by the id it names. */
export type ResolvedFlowFilters = Omit<FlowFilters, 'sport_key' | 'league_key' | 'team_key' | 'player_key'>;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Both endpoints' bodies: MixedFlowsBody differs from FlowsBody only in flow_type's default. */
type FlowsRequest = Omit<FlowsBody, 'page' | 'page_size'>;

/** A plural array merged with its singular alias; ids win over the key (dropped when ids are given). */
function idsAndKey(plural: number[] | undefined, singular: number | undefined, key?: string): { ids?: number[]; key?: string } {
  const ids = idSet(singular === undefined ? plural : [...(plural ?? []), singular]);
  if (ids) return { ids };
  return key === undefined ? {} : { key: key.toLowerCase() };
}

const isFlowType = (value: string | undefined): value is FlowType => FLOW_TYPES.some((t) => t === value);
const isLikelihood = (value: string | undefined): value is Likelihood => LIKELIHOODS.some((l) => l === value);

/** `from` of a date is its 00:00 UTC; `to` of a date covers that whole day; a date-time is inclusive. */
function startsFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
}
function startsBefore(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) + DAY_MS : Date.parse(value) + 1;
}

/** `defaultFlowType`: the type when the body names none (flows: fact; mixed-flows: every type). */
export function normalizeFlowFilters(body: FlowsRequest, defaultFlowType?: FlowType): FlowFilters {
  const sport = idsAndKey(body.sport_ids, body.sport_id, body.sport_key);
  const league = idsAndKey(body.league_ids, body.league_id, body.league_key);
  const event = idsAndKey(body.event_ids, body.event_id);
  const team = idsAndKey(body.team_ids, body.team_id, body.team_key);
  const player = idsAndKey(body.player_ids, body.player_id, body.player_key);
  const operator = idsAndKey(body.operator_ids, body.operator_id);
  const min = body.min_hit_rate_threshold;
  const max = body.max_hit_rate_threshold;
  if (min !== undefined && max !== undefined && min > max) {
    throw validationError('min_hit_rate_threshold', 'range', 'min_hit_rate_threshold must not be above max_hit_rate_threshold');
  }
  const from = startsFrom(body.event_start_date_from);
  const before = startsBefore(body.event_start_date_to);
  if (from !== undefined && before !== undefined && from >= before) {
    throw validationError('event_start_date_from', 'range', 'event_start_date_from must not be after event_start_date_to');
  }
  // Fixed property order and no undefined values: JSON.stringify of the result is the cache key.
  const filters: FlowFilters = {};
  if (sport.ids) filters.sport_ids = sport.ids;
  if (sport.key) filters.sport_key = sport.key;
  if (league.ids) filters.league_ids = league.ids;
  if (league.key) filters.league_key = league.key;
  if (event.ids) filters.event_ids = event.ids;
  if (team.ids) filters.team_ids = team.ids;
  if (team.key) filters.team_key = team.key;
  if (player.ids) filters.player_ids = player.ids;
  if (player.key) filters.player_key = player.key;
  if (operator.ids) filters.operator_ids = operator.ids;
  const flowType = isFlowType(body.flow_type) ? body.flow_type : defaultFlowType;
  if (flowType) filters.flow_type = flowType;
  if (body.bet_type !== undefined) filters.bet_type = body.bet_type === 'parlay' ? 'parlay' : 'single';
  if (isLikelihood(body.likelihood_type)) filters.likelihood = body.likelihood_type;
  // The full range is no filter.
  if (min !== undefined && min > 0) filters.min_hit_rate = min;
  if (max !== undefined && max < 100) filters.max_hit_rate = max;
  if (from !== undefined) filters.starts_from = from;
  if (before !== undefined) filters.starts_before = before;
  return filters;
}

/** Replaces keys by ids (404 for an unknown key, 409 for an ambiguous one). */
export async function resolveFlowFilters(keys: KeyResolver, filters: FlowFilters): Promise<ResolvedFlowFilters> {
  const { sport_key, league_key, team_key, player_key, ...resolved } = filters;
  if (sport_key !== undefined) resolved.sport_ids = [await keys.resolve('sport', sport_key, 'sport_key')];
  if (league_key !== undefined) resolved.league_ids = [await keys.resolve('league', league_key, 'league_key')];
  if (team_key !== undefined) resolved.team_ids = [await keys.resolve('team', team_key, 'team_key')];
  if (player_key !== undefined) resolved.player_ids = [await keys.resolve('player', player_key, 'player_key')];
  return resolved;
}
