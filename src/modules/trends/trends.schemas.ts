import { type Static, type TSchema, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { Id, MAX_FILTER_ITEMS, NamedRef, TeamRef } from '../../shared/wire.js';

export const FLOWS_MAX_PAGE_SIZE = 25;
export const FLOW_TYPES = ['fact', 'fun', 'plain'] as const;
export const LIKELIHOODS = ['likely', 'possible', 'longshot'] as const;

// ---- Items ----

const flowFields = {
  id: Type.Integer(),
  flow_type: Type.Enum(FLOW_TYPES),
  bet_type: Type.Enum(['single', 'parlay']),
  sport_id: Type.Integer(),
  league_id: Type.Integer(),
  event: Type.Object(
    { id: Type.Integer(), start_time: Type.String({ format: 'date-time' }), home_team: TeamRef, away_team: TeamRef },
    { additionalProperties: false },
  ),
  focus_entity: Type.Object(
    {
      type: Type.Enum(['team', 'player', 'event']),
      id: Type.Integer(),
      name: Type.String({ description: 'For an event: "Home vs Away".' }),
    },
    { additionalProperties: false },
  ),
  betting_market: Type.Union([NamedRef, Type.Null()]),
  line: Type.Union([Type.Number(), Type.Null()]),
  split: Type.Union([Type.Enum(['over', 'under']), Type.Null()]),
  description: Type.String(),
  hit_rate: Type.Object(
    {
      hits: Type.Integer({ minimum: 0 }),
      total: Type.Integer({ minimum: 0 }),
      pct: Type.Number({ minimum: 0, maximum: 100, description: 'hits / total × 100, to 2 decimals.' }),
    },
    { additionalProperties: false },
  ),
  likelihood: Type.Enum(LIKELIHOODS),
  implied_probability: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: '1/d of the price, to 4 decimals; null without a price.' }),
  odds: Type.Union([Type.Object({ american: Type.Integer(), decimal: Type.Number() }, { additionalProperties: false }), Type.Null()]),
};

/** A parlay's leg: a flow item of its own. Legs are single flows, so a leg's `legs` is empty. */
export const FlowLegItem = Type.Object(
  {
    ...flowFields,
    legs: Type.Array(Type.Object({}), { maxItems: 0, description: 'Always empty: a leg is a single flow.' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'FlowLeg', additionalProperties: false },
);

export const FlowItem = Type.Object(
  {
    ...flowFields,
    legs: Type.Array(FlowLegItem, { description: "A parlay's legs, in order, as flow items; empty for a single." }),
    updated_at: Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' }),
  },
  { title: 'Flow', additionalProperties: false },
);
export type FlowItem = Static<typeof FlowItem>;
export type FlowLegItem = Static<typeof FlowLegItem>;

export const FlowsPage = PageOf(FlowItem, 'FlowsPage');

// ---- Requests ----

const ids = (description: string) => Type.Optional(Type.Array(Id(), { maxItems: MAX_FILTER_ITEMS, description }));
const id = (plural: string) => Type.Optional(Id(`Same as a one-item ${plural}.`));
const key = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));
const dateOrDateTime = (description: string) =>
  Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], { description }));
const percent = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 100, description }));

function flowFilters<T extends TSchema>(flowType: T) {
  return {
    sport_ids: ids('Flows of these sports. Wins over sport_key.'),
    sport_id: id('sport_ids'),
    sport_key: key('A sport key, e.g. `basketball`.'),
    league_ids: ids('Flows of these leagues. Wins over league_key.'),
    league_id: id('league_ids'),
    league_key: key('Plain (`nba`) or qualified (`united-states.nba`).'),
    event_ids: ids('Flows of these events.'),
    event_id: id('event_ids'),
    team_ids: ids("Flows of these teams' events, or focused on these teams. Wins over team_key."),
    team_id: id('team_ids'),
    team_key: key('Plain (`lakers`) or qualified with the league key (`nba.lakers`).'),
    player_ids: ids('Flows focused on these players (a parlay matches when one of its legs does). Wins over player_key.'),
    player_id: id('player_ids'),
    player_key: key('Plain or qualified with the team key (`lakers.lebron-james`).'),
    operator_ids: ids('Flows of events that these operators price.'),
    operator_id: id('operator_ids'),
    flow_type: flowType,
    bet_type: Type.Optional(Type.Enum(['single', 'parlay', 'singles'], { description: '`singles` is accepted for `single`.' })),
    likelihood_type: Type.Optional(Type.Enum(LIKELIHOODS)),
    min_hit_rate_threshold: percent('Hit rate at least this, in percent (inclusive).'),
    max_hit_rate_threshold: percent('Hit rate at most this, in percent (inclusive).'),
    event_start_date_from: dateOrDateTime('Events starting at or after this instant; a date means its 00:00 UTC.'),
    event_start_date_to: dateOrDateTime('Events starting at or before this instant; a date means the whole day, UTC.'),
    ...pagingProperties(FLOWS_MAX_PAGE_SIZE),
  };
}

export const FlowsBody = Type.Object(
  flowFilters(Type.Optional(Type.Enum(FLOW_TYPES, { default: 'fact', description: 'The flow type to list (default fact).' }))),
  { additionalProperties: false },
);
export const MixedFlowsBody = Type.Object(
  flowFilters(Type.Optional(Type.Enum(FLOW_TYPES, { description: 'Narrows the mix to one type (default: every type).' }))),
  { additionalProperties: false },
);
export type FlowsBody = Static<typeof FlowsBody>;
export type MixedFlowsBody = Static<typeof MixedFlowsBody>;
