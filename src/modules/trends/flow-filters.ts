import type { BetType, EntityType, FactFlowType, FlowType, Likelihood } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors.js';
import { idSet, keySet } from '../../shared/filters.js';
import type { OddsFormat } from '../../shared/odds-format.js';
import { formatAsked } from './flow-price.js';
import type { KeyResolver } from '../references/index.js';
import { FLOW_TYPES, type FlowsBody, LIKELIHOODS, STARTING_SOON_HOURS } from './trends.schemas.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../platform/time.js';

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
  operator_keys?: string[];
  betting_market_ids?: number[];
  category_ids?: number[];
  tag_type_ids?: number[];
  /** betting_market_position_ids: the position of the bet's selection. */
  position_ids?: number[];
  entity_type?: EntityType;
  split?: 'over' | 'under';
  focus_type?: EntityType;
  team_split?: 'home' | 'away';
  /** The format of `price` (a view of the items, not a filter): pages are cached per format. */
  price_format?: OddsFormat;
  /** Views too: `hit_history` and the deep links on each item. */
  full_hit_rate?: true;
  deeplinks?: true;
  /** Always set: omitted is `base`, as Odditt. */
  fact_flow_type: FactFlowType;
  /**
   * The caller's account answers in Odditt's vocabulary: a filter (no plain single, which Odditt
   * has no name for) and a view (`flow_type` in Odditt's names), so its pages are cached apart.
   */
  odditt_names?: true;
  /** include_alt_lines: false. */
  main_lines_only?: true;
  /** Bets on a side of a line (over or under): product_mode dfs's own filter. */
  over_under?: true;
  flow_type?: FlowType;
  bet_type?: BetType;
  likelihood?: Likelihood;
  min_hit_rate?: number;
  max_hit_rate?: number;
  min_implied?: number;
  max_implied?: number;
  /** Event start range [from, before), epoch ms; starting_soon narrows it to the next hours. */
  starts_from?: number;
  starts_before?: number;
}

/** The filters with every key replaced by the id it names. */
export type ResolvedFlowFilters = Omit<FlowFilters, 'sport_key' | 'league_key' | 'team_key' | 'player_key' | 'operator_keys' | 'price_format' | 'full_hit_rate' | 'deeplinks'>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Both endpoints' bodies: MixedFlowsBody differs from FlowsBody only in flow_type's default. */
type FlowsRequest = Omit<FlowsBody, 'page' | 'page_size'>;

/** A plural array merged with its singular alias; ids win over the key (dropped when ids are given). */
function idsAndKey(plural: number[] | undefined, singular: number | undefined, key?: string): { ids?: number[]; key?: string } {
  const ids = idSet(singular === undefined ? plural : [...(plural ?? []), singular]);
  if (ids) return { ids };
  return key === undefined ? {} : { key: key.toLowerCase() };
}

/** A plural key array merged with its singular alias. */
function keysOf(plural: string[] | undefined, singular: string | undefined): string[] | undefined {
  return keySet(singular === undefined ? plural : [...(plural ?? []), singular]);
}

/** min above max is a 422 naming min; the full range is no filter. */
function range(min: number | undefined, max: number | undefined, full: number, names: [min: string, max: string]) {
  if (min !== undefined && max !== undefined && min > max) throw validationError(names[0], 'range', `${names[0]} must not be above ${names[1]}`);
  return { min: min !== undefined && min > 0 ? min : undefined, max: max !== undefined && max < full ? max : undefined };
}

/**
 * `starting_soon`: the next STARTING_SOON_HOURS hours from the start of the current minute. Cut at
 * the minute so that its requests share one cache entry for a minute, and one that started this
 * minute still counts.
 */
function startingSoon(now: number): { from: number; before: number } {
  const from = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return { from, before: from + STARTING_SOON_HOURS * HOUR_MS };
}

/** Odditt's focus_entity_type_id values. */
const FOCUS_TYPES: Record<1 | 2 | 3, EntityType> = { 1: 'team', 2: 'player', 3: 'event' };

const isFlowType = (value: string | undefined): value is FlowType => FLOW_TYPES.some((t) => t === value);
const isLikelihood = (value: string | undefined): value is Likelihood => LIKELIHOODS.some((l) => l === value);

const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/** A date-time as an instant: without an offset it is UTC (a naive datetime from Odditt's Python client). */
function instantOf(value: string, field: string): number {
  const instant = Date.parse(HAS_OFFSET.test(value) ? value : `${value.replace(/(\.\d{3})\d+$/, '$1')}Z`);
  if (Number.isNaN(instant)) throw validationError(field, 'format', `${field} is not a date or date-time`);
  return instant;
}

/** `from` of a date is its 00:00 UTC; `to` of a date covers that whole day; a date-time is inclusive. */
function startsFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : instantOf(value, 'event_start_date_from');
}
function startsBefore(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) + DAY_MS : instantOf(value, 'event_start_date_to') + 1;
}

/**
 * `defaultFlowType`: the type when the body names none (flows: fact; mixed-flows: every type).
 * `now` (epoch ms) places `starting_soon`.
 */
export function normalizeFlowFilters(body: FlowsRequest, now: number, defaultFlowType?: FlowType): FlowFilters {
  const sport = idsAndKey(body.sport_ids, body.sport_id, body.sport_key);
  const league = idsAndKey(body.league_ids, body.league_id, body.league_key);
  const event = idsAndKey(body.event_ids, body.event_id);
  const team = idsAndKey(body.team_ids, body.team_id, body.team_key);
  const player = idsAndKey(body.player_ids, body.player_id, body.player_key);
  const operator = idsAndKey(body.operator_ids, body.operator_id);
  const operatorKeys = operator.ids ? undefined : keysOf(body.operator_keys, body.operator_key);
  const markets = idsAndKey(body.betting_market_ids, body.betting_market_id).ids;
  const categories = idsAndKey(body.betting_market_category_ids, body.betting_market_category_id).ids;
  const positions = idsAndKey(body.betting_market_position_ids, body.betting_market_position_id).ids;
  if (body.include_deeplinks === true && (operator.ids?.length ?? 0) + (operatorKeys?.length ?? 0) !== 1) {
    // A deep link is one operator's: Odditt refuses the request rather than pick one.
    throw validationError('include_deeplinks', 'operator', 'include_deeplinks requires exactly one operator (operator_ids, operator_id or operator_keys)');
  }
  if (body.include_only_basic_trends === true && body.fact_flow_type !== undefined && body.fact_flow_type !== 'base') {
    throw validationError('include_only_basic_trends', 'conflict', `include_only_basic_trends asks for base flows, fact_flow_type for ${body.fact_flow_type} ones`);
  }
  const hitRate = range(body.min_hit_rate_threshold, body.max_hit_rate_threshold, 100, ['min_hit_rate_threshold', 'max_hit_rate_threshold']);
  const implied = range(body.min_implied_probability_threshold, body.max_implied_probability_threshold, 1, [
    'min_implied_probability_threshold',
    'max_implied_probability_threshold',
  ]);
  let from = startsFrom(body.event_start_date_from);
  let before = startsBefore(body.event_start_date_to);
  if (from !== undefined && before !== undefined && from >= before) {
    throw validationError('event_start_date_from', 'range', 'event_start_date_from must not be after event_start_date_to');
  }
  if (body.starting_soon === true) {
    // Both ranges at once; an empty intersection lists nothing (it depends on the hour, so it is no 422).
    const soon = startingSoon(now);
    from = Math.max(from ?? soon.from, soon.from);
    before = Math.min(before ?? soon.before, soon.before);
  }
  // Fixed property order and no undefined values: JSON.stringify of the result is the cache key.
  const filters: FlowFilters = { fact_flow_type: body.fact_flow_type ?? 'base' };
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
  if (operatorKeys) filters.operator_keys = operatorKeys;
  if (markets) filters.betting_market_ids = markets;
  if (categories) filters.category_ids = categories;
  const tags = idSet(body.tag_type_ids);
  if (tags) filters.tag_type_ids = tags;
  if (positions) filters.position_ids = positions;
  // Odditt's dfs mode lists what a DFS app offers, over/under player props, unless the request
  // names the entity or the position itself.
  if (body.product_mode === 'dfs' && body.betting_market_entity_type === undefined && !positions) {
    filters.entity_type = 'player';
    filters.over_under = true;
  }
  if (body.betting_market_entity_type !== undefined) filters.entity_type = body.betting_market_entity_type;
  if (body.split_type !== undefined) filters.split = body.split_type === 'overs' || body.split_type === 'over' ? 'over' : 'under';
  if (body.focus_entity_type_id !== undefined) filters.focus_type = FOCUS_TYPES[body.focus_entity_type_id];
  if (body.team_split !== undefined) filters.team_split = body.team_split;
  const flowType = isFlowType(body.flow_type) ? body.flow_type : defaultFlowType;
  if (flowType) filters.flow_type = flowType;
  if (body.bet_type !== undefined) filters.bet_type = body.bet_type === 'parlay' || body.bet_type === 'same_game_parlay' ? 'parlay' : 'single';
  if (isLikelihood(body.likelihood_type)) filters.likelihood = body.likelihood_type;
  if (hitRate.min !== undefined) filters.min_hit_rate = hitRate.min;
  if (hitRate.max !== undefined) filters.max_hit_rate = hitRate.max;
  if (implied.min !== undefined) filters.min_implied = implied.min;
  if (implied.max !== undefined) filters.max_implied = implied.max;
  if (from !== undefined) filters.starts_from = from;
  if (before !== undefined) filters.starts_before = before;
  const format = formatAsked(body);
  if (format !== undefined) filters.price_format = format;
  if (body.full_hit_rate === true) filters.full_hit_rate = true;
  if (body.include_deeplinks === true) filters.deeplinks = true;
  if (body.include_alt_lines === false) filters.main_lines_only = true;
  return filters;
}

/** Replaces keys by ids (404 for an unknown key, 409 for an ambiguous one). */
export async function resolveFlowFilters(keys: KeyResolver, filters: FlowFilters): Promise<ResolvedFlowFilters> {
  const { sport_key, league_key, team_key, player_key, operator_keys, price_format: _format, full_hit_rate: _history, deeplinks: _links, ...resolved } = filters;
  if (sport_key !== undefined) resolved.sport_ids = [await keys.resolve('sport', sport_key, 'sport_key')];
  if (league_key !== undefined) resolved.league_ids = [await keys.resolve('league', league_key, 'league_key')];
  if (team_key !== undefined) resolved.team_ids = [await keys.resolve('team', team_key, 'team_key')];
  if (player_key !== undefined) resolved.player_ids = [await keys.resolve('player', player_key, 'player_key')];
  if (operator_keys !== undefined) {
    resolved.operator_ids = idSet(await Promise.all(operator_keys.map((key) => keys.resolve('operator', key, 'operator_keys'))));
  }
  return resolved;
}
