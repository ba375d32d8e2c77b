import { type Static, type TSchema, Type } from 'typebox';
import { matching } from '../../platform/http/validation.js';
import { EVENT_STATUSES, MAX_SCORE } from '../../shared/event-status.js';
import { FACT_FLOW_TYPES } from '../../platform/db/schema.js';
import { SETTLEMENT_RULES } from '../../shared/settlement/rules.js';
import { DecimalPrice, Id, Label, NO_NUL } from '../../shared/wire.js';
import { ALIAS_TYPES, SOURCES } from '../../shared/sources.js';
import { CompetitionItem, CompetitionParticipantItem, outrightOddsFields } from './import.competition-schemas.js';

/**
 * The import dataset (docs/operations.md#loading-data). Every array is optional; ids are the upstream's
 * positive integers; derived fields (qualified keys, sport_id/league_id of events and flows,
 * bet_type, other price formats) are computed by the import and refused here. Unknown
 * fields and arrays are refused too: a typo such as `leage_id` must not pass silently.
 */

/** Rows per array at most; the body's size (import.body.ts) bounds a dataset well before this. */
export const MAX_ITEMS = 1_000_000;

// A dot would break qualified keys (`united-states.nba`), so keys never contain one.
const KeyFor = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, ...matching('^[^.\\s\\u0000]+$', 'a key without dots, blanks or U+0000 (NUL)'), description });
const Key = KeyFor('Upstream key: no dots, no blanks.');
const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, ...NO_NUL, ...(description ? { description } : {}) });
const Name = (description: string) => Label(200, description);
/** Counts of a trend; PostgreSQL stores them as 32-bit integers. */
const MAX_COUNT = 1_000_000;
const DateTime = (description: string) => Type.String({ format: 'date-time', description });
const Score = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_SCORE, description });

/** An optional field may also be sent as null (many exporters write null for "none"). */
function nullable<T extends TSchema & { type?: string }>(schema: T) {
  const { type, ...rest } = schema as { type?: string } & Record<string, unknown>;
  return Type.Optional(Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] }));
}
function nullableEnum<const V extends readonly string[]>(values: V, description: string) {
  return Type.Optional(Type.Unsafe<V[number] | null>({ type: ['string', 'null'], enum: [...values, null], description }));
}

export const ENTITY_TYPES = ['team', 'player', 'event'] as const;
export const FLOW_TYPES = ['fact', 'fun', 'plain'] as const;
export const LIKELIHOODS = ['likely', 'possible', 'longshot'] as const;
export const SPLITS = ['over', 'under'] as const;

const item = <P extends Record<string, TSchema>>(title: string, properties: P) =>
  Type.Object(properties, { title, additionalProperties: false });

/** The id, key and name every keyed record of the dataset starts with. */
const keyedFields = (id: string, name: string) => ({ id: Id(id), key: Key, name: Name(name) });

export const SportItem = item('ImportSport', keyedFields('Sport id.', 'Display name, e.g. `Basketball`.'));

export const LeagueItem = item('ImportLeague', {
  ...keyedFields('League id.', 'Display name, e.g. `NBA`.'),
  sport_id: Id('The sport of the league.'),
  country_key: nullable(Key),
  country_name: nullable(Name('Country name; null or absent for an international league.')),
  is_popular: Type.Optional(Type.Boolean({ description: 'A league clients feature first (GET /v1/references/leagues?is_popular=true); default false.' })),
});

export const TeamItem = item('ImportTeam', {
  ...keyedFields('Team id.', 'Team name; in tennis, the player.'),
  abbreviation: nullable(Text(20, 'Short name, e.g. `LAL`.')),
  location: nullable(Text(200, 'City or region.')),
  league_id: Id('The league of the team.'),
});

export const PlayerItem = item('ImportPlayer', {
  ...keyedFields('Player id.', 'Player name.'),
  position: nullable(Text(50, 'Playing position, e.g. `PG`.')),
  team_id: Id('The team of the player.'),
});

const DeepLinkTemplate = (app: string) =>
  nullable(
    Text(
      2000,
      `The link to a bet in the operator's ${app}: an https URL whose placeholders ({operator_selection_id}, {event_id}, {betting_market_id}, ` +
        '{event_betting_market_position_id}, {position}, {line}) each price fills in, percent-encoded. Another scheme or an unknown placeholder is 422.',
    ),
  );

export const OperatorItem = item('ImportOperator', {
  ...keyedFields('Operator (bookmaker) id.', 'Display name of the sportsbook.'),
  bet_web_deep_link_template: DeepLinkTemplate('web site'),
  bet_ios_deep_link_template: DeepLinkTemplate('iOS app (a universal link)'),
  bet_android_deep_link_template: DeepLinkTemplate('Android app (an app link)'),
});

export const CountryItem = item('ImportCountry', keyedFields('Country id.', 'Country name, e.g. `England`.'));

export const BettingMarketCategoryItem = item('ImportBettingMarketCategory', keyedFields('Category id.', 'Display name, e.g. `Player Props`.'));

export const BettingMarketPositionItem = item('ImportBettingMarketPosition', keyedFields('Position id.', 'Display name, e.g. `Over`.'));

export const BettingMarketItem = item('ImportBettingMarket', {
  ...keyedFields('Betting market id.', 'Display name, e.g. `Player Points`.'),
  category_id: nullable(Id('The category record of the market. Give it, or `category`, or both (then `category` must be its key).')),
  category: Type.Optional(
    Text(100, 'The category by key, e.g. `main` or `player-props` (the format before category records): linked to the category with that key when there is one.'),
  ),
  entity_type: Type.Enum(ENTITY_TYPES, { description: 'What the market is about.' }),
  sport_id: nullable(Id('The sport the market belongs to; absent for markets of every sport.')),
  settlement: nullable(
    Type.Object(
      {
        rule: Type.Enum(SETTLEMENT_RULES, {
          description:
            'How the selections are graded (docs/data.md#how-selections-are-graded): `moneyline`, `1x2`, `spread`, `total`, `team_total`, `player_stat`, `yes_no`; ' +
            "a competition's markets (docs/data.md#competitions): `winner`, `top_5`, `top_10`, `top_20`, `podium`, `participant_matchup`.",
        }),
        stat: nullable(KeyFor('The statistic graded: a player statistic key (required for `player_stat`, and for `yes_no` on a player), or an event count for `yes_no` (`both_teams_score`).')),
        period: nullable(KeyFor("The key of the event period the market settles on (e.g. `regulation`, `1st-half`); absent: the event's final score, overtime included.")),
      },
      {
        title: 'ImportSettlement',
        additionalProperties: false,
        description: 'How the market is graded; absent or null: its odds rows stay ungraded, with the reason `unknown_rule`.',
      },
    ),
  ),
});

export const EventPeriodItem = item('ImportEventPeriod', {
  ...keyedFields('Event period id.', 'Display name, e.g. `1st Half`.'),
  sport_id: Id('The sport whose events have this period.'),
});

export const PlayerStatisticItem = item('ImportPlayerStatistic', {
  ...keyedFields('Player statistic id.', 'Display name, e.g. `Rebounds`.'),
  sport_id: Id('The sport whose players record it.'),
});

/** The most periods and player statistics one event carries. */
export const MAX_EVENT_RESULTS = 2_000;

const PeriodScore = item('ImportPeriodScore', {
  event_period_id: Id('The period (an event period of the event\'s sport).'),
  home_score: Score('Home side\'s score in the period.'),
  away_score: Score('Away side\'s score in the period.'),
});

const PlayerStatisticValue = item('ImportPlayerStatisticValue', {
  player_id: Id('The player (of one of the two teams).'),
  statistic: KeyFor("A player statistic key of the event's sport (GET /v1/references/player-statistics), e.g. `points`."),
  value: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'The player\'s figure for the whole event.' }),
});

export const SubnationalRegionItem = item('ImportSubnationalRegion', {
  ...keyedFields('Region id.', 'Region name, e.g. `New Jersey`.'),
  code: Text(10, 'Short code, e.g. `NJ` (ISO 3166-2 without the country prefix).'),
  country_id: Id('The country of the region.'),
});

export const TagDimensionItem = item('ImportTagDimension', keyedFields('Tag dimension id.', 'Display name, e.g. `Situation`.'));

export const TagTypeItem = item('ImportTagType', {
  ...keyedFields('Tag type id.', 'Display name, e.g. `Home`.'),
  dimension_id: Id('The dimension of the tag type; a child is in its parent\'s.'),
  parent_id: nullable(Id('The parent tag type; absent or null for a top-level one.')),
  terminal: Type.Optional(Type.Boolean({ description: 'A tag flows carry and are filtered by (default: it has no children that are not values).' })),
  is_value: Type.Optional(Type.Boolean({ description: "A value-level leaf: listed in its parent's `known_values` (default false)." })),
  flow_types: Type.Optional(
    Type.Array(Type.Enum(FLOW_TYPES), { minItems: 1, uniqueItems: true, description: 'The flow types the tag applies to (default: every type).' }),
  ),
});

export const EventItem = item('ImportEvent', {
  id: Id('Event id.'),
  league_id: Id('The league of the event; its sport is derived from it.'),
  start_time: DateTime('Start time, ISO 8601 with a time zone.'),
  status: nullableEnum(EVENT_STATUSES, 'One of `scheduled` (the default), `live`, `final`, `postponed`, `cancelled` (docs/data.md#events).'),
  home_team_id: Id('Home team.'),
  away_team_id: Id('Away team.'),
  home_score: nullable(Score('Home side\'s score, when the feed has one (live or final); given together with away_score.')),
  away_score: nullable(Score('Away side\'s score; given together with home_score.')),
  period_scores: Type.Optional(
    Type.Array(PeriodScore, {
      maxItems: MAX_EVENT_RESULTS,
      description: 'The score of each period played (docs/data.md#results); given, it replaces the event\'s stored period scores.',
    }),
  ),
  statistics: Type.Optional(
    Type.Array(PlayerStatisticValue, {
      maxItems: MAX_EVENT_RESULTS,
      description:
        'The players\' statistics for the whole event (`statistic`: a player statistic key of the sport); given, it replaces the stored ones. A player without any did not play.',
    }),
  ),
});

export const OddsItem = item('ImportOdds', {
  id: Id('Odds id.'),
  event_id: Id('The event.'),
  operator_id: Id('The operator offering the price.'),
  betting_market_id: Id('The market.'),
  position: Text(200, 'The selection, e.g. home, away, draw, over, under.'),
  line: nullable(Type.Number({ description: 'Handicap or total line, when the market has one.' })),
  price_decimal: DecimalPrice('Decimal price, above 1 and at most 1,000,001; the other formats are derived.'),
  status: nullable(Text(40, 'Default `open`.')),
  updated_at: nullable(DateTime('When the price last changed; default: the time of the import. Also the time a change is recorded in the price history.')),
  event_betting_market_position_id: nullable(
    Id('The feed\'s own id of the selection (event, market, position, line): used when the selection is first seen; a selection already stored keeps its id.'),
  ),
  player_id: nullable(Id('The player of a player prop (a market whose entity_type is `player`); the position text stays as it is.')),
  event_period_id: nullable(Id('The period priced (an event period of the event\'s sport); absent or null: the full game.')),
  is_main: nullable(Type.Boolean({ description: 'Whether this is the operator\'s main line of the market; false for an alternate line. Default true.' })),
  is_live: nullable(Type.Boolean({ description: 'Whether the price was made while the event was live. Default false.' })),
  operator_selection_id: nullable(Text(200, 'The operator\'s own id of the selection, which its deep-link templates name as {operator_selection_id}.')),
  ...outrightOddsFields,
});

/**
 * A price move of a stored odds row, changing only what it names (decision 0298): an `odds` row
 * replaces every column, so a feed that sends only a new price would clear the others.
 */
export const PriceUpdateItem = item('ImportPriceUpdate', {
  odds_id: Type.Optional(Id('The odds row, by its id; or name it by `event_betting_market_position_id` and `operator_id`.')),
  event_betting_market_position_id: Type.Optional(Id('The selection (the id odds rows and flows give it), with `operator_id`: that operator\'s odds row on it.')),
  operator_id: Type.Optional(Id('The operator whose price on the selection moves; with `event_betting_market_position_id`.')),
  price_decimal: DecimalPrice('The new decimal price, above 1 and at most 1,000,001.'),
  status: nullable(Text(40, 'The new status; absent or null: the stored one stays.')),
  updated_at: nullable(DateTime('When the price changed; default: the time of the import, as for an odds row.')),
});

/** The most past games one flow's hit history holds. */
export const MAX_HIT_HISTORY = 1_000;

export const HitHistoryEntry = item('ImportHitHistoryEntry', {
  date: Type.String({ format: 'date', description: 'The day of the past game, YYYY-MM-DD.' }),
  opponent_team_id: Id('The opponent in that game (docs/data.md#flow-graph-data says of whom).'),
  hit: Type.Boolean({ description: 'Whether the bet would have won in that game.' }),
});

export const FlowItem = item('ImportFlow', {
  id: Id('Flow id.'),
  flow_type: Type.Enum(FLOW_TYPES, { description: '`fact`, `fun` or `plain` (docs/data.md#flows).' }),
  event_id: Id('The event; sport_id and league_id are derived from it.'),
  focus_entity_type: Type.Enum(ENTITY_TYPES, { description: 'What the trend is about: a team, a player or the event.' }),
  focus_entity_id: nullable(Id('The team or player in focus (required for those types); for `event` the event itself.')),
  betting_market_id: nullable(Id('The market the flow is about.')),
  line: nullable(Type.Number({ description: 'Handicap or total line of the bet, when it has one.' })),
  split: nullableEnum(SPLITS, 'Over or under the line.'),
  position: nullable(Text(200, 'The selection a single bets on, as its odds rows name it (e.g. home, over); default: `split`. Gives the flow its event_betting_market_position_id.')),
  fact_flow_type: Type.Optional(
    Type.Enum(FACT_FLOW_TYPES, {
      default: 'base',
      description:
        'Fact flows: `base` (a plain trend, the default), `expanded` (a trend under a condition, e.g. at home after a loss) or `multi` (several trends in one). Another type is always `base`.',
    }),
  ),
  description: Text(1000, 'The trend in words.'),
  hits: Type.Integer({ minimum: 0, maximum: MAX_COUNT, description: 'How often the trend hit; at most `total`.' }),
  total: Type.Integer({ minimum: 1, maximum: MAX_COUNT, description: 'Out of how many.' }),
  likelihood: Type.Enum(LIKELIHOODS, { description: '`likely`, `possible` or `longshot` (docs/data.md#likelihood).' }),
  price_decimal: nullable(DecimalPrice('Decimal price of the bet (of the parlay, for one), at most 1,000,001; the other formats are derived.')),
  leg_ids: Type.Optional(
    Type.Array(Id('A leg: a single flow of the same event.'), {
      uniqueItems: true,
      maxItems: 20,
      description: 'Non-empty → a same-event parlay (bet_type parlay) of these flows.',
    }),
  ),
  tag_type_ids: Type.Optional(
    Type.Array(Id('A tag type (GET /v1/references/tag-types/search).'), {
      uniqueItems: true,
      maxItems: 50,
      description: 'The tags of the flow; a re-imported flow keeps exactly the ones it carries now (none when absent).',
    }),
  ),
  hit_history: Type.Optional(
    Type.Array(HitHistoryEntry, {
      maxItems: MAX_HIT_HISTORY,
      description: 'Fact flows only: the games behind `hits` and `total`, one per game, `total` of them with `hits` hits.',
    }),
  ),
});

export const AliasItem = item('ImportAlias', {
  source: Type.Enum(SOURCES, { description: 'The source that names the record so: `football-data` or `the-odds-api`.' }),
  name: Name("The source's name (a team's name, a league's or a book's code), matched after normalisation (docs/operations.md#loading-real-data)."),
  entity_type: Type.Enum(ALIAS_TYPES, { description: '`sport`, `league`, `team` or `operator`.' }),
  entity_id: Id('Our record the name stands for (of the dataset or stored).'),
});

const list = <T extends TSchema>(schema: T, description: string) => Type.Optional(Type.Array(schema, { maxItems: MAX_ITEMS, description }));

export const Dataset = Type.Object(
  {
    sports: list(SportItem, 'Sports to insert or update.'),
    leagues: list(LeagueItem, 'Leagues, each of a sport.'),
    teams: list(TeamItem, 'Teams, each of a league.'),
    players: list(PlayerItem, 'Players, each of a team.'),
    countries: list(CountryItem, 'Countries; a league names its country by `country_key`.'),
    operators: list(OperatorItem, 'Operators (sportsbooks).'),
    betting_market_categories: list(BettingMarketCategoryItem, 'Categories of betting markets.'),
    betting_market_positions: list(BettingMarketPositionItem, 'Positions (sides) of betting markets, e.g. home, over.'),
    betting_markets: list(BettingMarketItem, 'Betting markets, each in a category.'),
    event_periods: list(EventPeriodItem, 'Periods of events (halves, quarters, sets), each of a sport.'),
    player_statistics: list(PlayerStatisticItem, 'The statistics players are graded on (points, rebounds, goals…), each of a sport.'),
    subnational_regions: list(SubnationalRegionItem, 'Regions of countries (states, provinces), each of a country.'),
    tag_dimensions: list(TagDimensionItem, 'The top of the flow tag taxonomy.'),
    tag_types: list(TagTypeItem, 'Flow tag types, each of a dimension, under a parent or at the top.'),
    events: list(EventItem, 'Events, each of a league, between two of its teams.'),
    competitions: list(CompetitionItem, 'Competitions (tournaments, races, futures): events of N participants, each of a league.'),
    competition_participants: list(CompetitionParticipantItem, 'The participants of competitions, each a team or a player, with their finishing results.'),
    odds: list(OddsItem, 'Prices, each of an event, an operator and a market.'),
    flows: list(FlowItem, 'Betting trends, each on an event; parlays name their legs.'),
    aliases: list(AliasItem, "Names a source gives our records (a team's name in football-data's files): its rows then land on them."),
    price_updates: list(
      PriceUpdateItem,
      'Price moves of stored odds rows: each changes the price (and the status and time it gives) of one row, leaving its other fields as stored, and records one history entry when the price or status changes. A row the dataset also sends whole, or names twice, is refused.',
    ),
  },
  { title: 'ImportDataset', additionalProperties: false },
);
export type Dataset = Static<typeof Dataset>;
/** The arrays of records with ids: the aliases name records and have none of their own; `price_updates` changes the stored odds rows instead. */
export type DatasetArray = Exclude<keyof Dataset, 'aliases' | 'price_updates'>;
/** The arrays of competitions (docs/data.md#competitions), which a dataset of matchups does without. */
export type CompetitionArray = 'competitions' | 'competition_participants';
/** A dataset of the matchups' records only, as a generator builds one whole (its competitions are arrays of their own). */
export type DatasetRecords = Pick<Dataset, Exclude<DatasetArray, CompetitionArray>>;

/** The arrays in dependency order: a later array may reference an earlier one. */
export const DATASET_ARRAYS: readonly DatasetArray[] = [
  'sports',
  'countries',
  'leagues',
  'teams',
  'players',
  'operators',
  'betting_market_categories',
  'betting_market_positions',
  'betting_markets',
  'event_periods',
  'player_statistics',
  'subnational_regions',
  'tag_dimensions',
  'tag_types',
  'events',
  'competitions',
  'competition_participants',
  'odds',
  'flows',
];
