import { type Static, Type } from 'typebox';
import { PageOf } from '../../platform/pagination.js';
import { dateRangeProperties } from '../../shared/date-range.js';
import { ODDS_FORMATS } from '../../shared/odds-format.js';
import { Id } from '../../shared/wire.js';
import { keyedProperties, listQuery, record } from './schema-parts.js';
import { SEARCH_MODES } from './search.js';

const Key = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

// ---- items (docs/data.md says what each is; nullable fields are null, never absent) ----

/** A record of a reference list that is nothing but its key and name. */
const keyed = (title: string, what: string, key: string, name: string) =>
  record(title, keyedProperties({ id: `${what} id.`, key: `${what} key, e.g. \`${key}\`.`, name: `Display name, e.g. \`${name}\`.` }));

/** A record of a reference list that belongs to one sport: its key is unique within the sport. */
const ofSport = (title: string, descriptions: { id: string; key: string; name: string; sport_id: string }) =>
  record(title, { ...keyedProperties(descriptions), sport_id: Id(descriptions.sport_id) });

/** The start of a record whose plain key may repeat, so that the API also shows it qualified by its parent's. */
const qualifiedProperties = (descriptions: { id: string; key: string; qualified_key: string; name: string }) => ({
  id: Id(descriptions.id),
  key: Type.String({ description: descriptions.key }),
  qualified_key: Type.String({ description: descriptions.qualified_key }),
  name: Type.String({ description: descriptions.name }),
});

export const Sport = keyed('Sport', 'Sport', 'basketball', 'Basketball');

export const Country = record('Country', {
  key: Type.String({ description: 'Country key, e.g. `united-states`; the first part of a qualified league key.' }),
  name: Type.String({ description: 'Country name.' }),
});

export const League = record('League', {
  ...qualifiedProperties({
    id: 'League id.',
    key: 'League key, e.g. `nba`. Several leagues may share one.',
    qualified_key: '`country.league` (e.g. `united-states.nba`), or the plain key when the league has no country.',
    name: 'Display name, e.g. `NBA`.',
  }),
  sport_id: Id('Sport of the league.'),
  country: Type.Union([Country, Type.Null()], { description: 'Country of the league; null for international leagues.' }),
  is_popular: Type.Boolean({ description: 'A league clients feature first, as the data provider marks it (false unless it says so).' }),
});

export const Team = record('Team', {
  ...qualifiedProperties({
    id: 'Team id.',
    key: 'Team key, unique within its league.',
    qualified_key: '`league.team`, e.g. `nba.los-angeles-lakers`.',
    name: 'Team name; in tennis, the player (each player is a "team" of one).',
  }),
  abbreviation: Nullable('Short name, e.g. `LAL`.'),
  location: Nullable('City or region.'),
  sport_id: Id('Sport of the team (of its league).'),
  league_id: Id('League of the team.'),
  league_key: Type.String({ description: 'Plain key of the league.' }),
});

export const Player = record('Player', {
  ...keyedProperties({ id: 'Player id.', key: 'Player key; may repeat across teams, so qualify it with the team key (`team.player`).', name: 'Player name.' }),
  position: Nullable('Playing position.'),
  team_id: Id('Team of the player.'),
  team_key: Type.String({ description: 'Plain key of the team.' }),
});

export const Operator = record(
  'Operator',
  keyedProperties({ id: 'Operator (sportsbook) id.', key: 'Operator key, e.g. for `operator_keys` filters.', name: 'Display name of the sportsbook.' }),
);

export const BettingMarket = record('BettingMarket', {
  ...keyedProperties({ id: 'Betting market id.', key: 'Market key, e.g. `moneyline`, `spread`, `player-points`.', name: 'Display name, e.g. `Player Points`.' }),
  category: Type.String({ description: 'Key of the market category, e.g. `main`, `team-props`, `game-props` or `player-props`.' }),
  category_id: Type.Union([Id(), Type.Null()], {
    description: 'The category record (GET /v1/references/betting-market-categories); null when the feed named a category that has no record.',
  }),
  entity_type: Type.Enum(['team', 'player', 'event'], {
    description: 'What a bet in the market is on: a team (moneyline, spread), a player (props) or the event as a whole (total, both teams to score).',
  }),
});

export const CountryRecord = keyed('CountryRecord', 'Country', 'united-states', 'United States');
export const BettingMarketCategory = keyed('BettingMarketCategory', 'Category', 'player-props', 'Player Props');
export const BettingMarketPosition = keyed('BettingMarketPosition', 'Position', 'over', 'Over');

export const EventPeriod = ofSport('EventPeriod', {
  id: 'Event period id.',
  key: 'Period key, e.g. `1st-half`; unique within its sport.',
  name: 'Display name, e.g. `1st Half`.',
  sport_id: 'The sport whose events have this period.',
});

export const PlayerStatistic = ofSport('PlayerStatistic', {
  id: 'Player statistic id.',
  key: 'Statistic key, e.g. `rebounds`; unique within its sport. The `stat` of a player-prop market\'s settlement.',
  name: 'Display name, e.g. `Rebounds`.',
  sport_id: 'The sport whose players record it.',
});

export const OddsFormat = record('OddsFormat', {
  id: Id('Odds format id (1 to 6, in the order of the list).'),
  key: Type.Enum(ODDS_FORMATS, { description: 'The value of `odds_format` on the odds endpoints.' }),
  name: Type.String({ description: 'Display name, e.g. `American`.' }),
  value_type: Type.Enum(['number', 'integer', 'string'], { description: 'The JSON type of `price` in this format.' }),
  description: Type.String({ description: 'What the price means in this format, with the price 2.25 as an example.' }),
});

export type SportItem = Static<typeof Sport>;
export type LeagueItem = Static<typeof League>;
export type TeamItem = Static<typeof Team>;
export type PlayerItem = Static<typeof Player>;
export type OperatorItem = Static<typeof Operator>;
export type BettingMarketItem = Static<typeof BettingMarket>;
export type CountryItem = Static<typeof CountryRecord>;
export type BettingMarketCategoryItem = Static<typeof BettingMarketCategory>;
export type BettingMarketPositionItem = Static<typeof BettingMarketPosition>;
export type EventPeriodItem = Static<typeof EventPeriod>;
export type PlayerStatisticItem = Static<typeof PlayerStatistic>;
export type OddsFormatItem = Static<typeof OddsFormat>;

export const SportPage = PageOf(Sport, 'SportPage');
export const LeaguePage = PageOf(League, 'LeaguePage');
export const TeamPage = PageOf(Team, 'TeamPage');
export const PlayerPage = PageOf(Player, 'PlayerPage');
export const OperatorPage = PageOf(Operator, 'OperatorPage');
export const BettingMarketPage = PageOf(BettingMarket, 'BettingMarketPage');
export const CountryPage = PageOf(CountryRecord, 'CountryPage');
export const BettingMarketCategoryPage = PageOf(BettingMarketCategory, 'BettingMarketCategoryPage');
export const BettingMarketPositionPage = PageOf(BettingMarketPosition, 'BettingMarketPositionPage');
export const EventPeriodPage = PageOf(EventPeriod, 'EventPeriodPage');
export const PlayerStatisticPage = PageOf(PlayerStatistic, 'PlayerStatisticPage');
export const OddsFormatPage = PageOf(OddsFormat, 'OddsFormatPage');

// ---- queries ----

const search = Type.String({
  maxLength: 100,
  description: 'Case-insensitive substring of the name or of the (plain) key.',
});

const searchMode = Type.Optional(
  Type.Enum(SEARCH_MODES, {
    description: 'How `search` compares with the name and the key: `contains` (the default), `starts_with`, or `exact` (the whole name or key, case-insensitive).',
  }),
);

export const SportsQuery = listQuery('SportsQuery', { search: Type.Optional(search) });

/** sport_id or sport_key: the records of one sport. */
const sportScope = (what: string) => ({
  sport_id: Type.Optional(Id(`Only ${what} of this sport. Wins over sport_key.`)),
  sport_key: Type.Optional(Key(`Only ${what} of the sport with this key.`)),
});

export const LeaguesQuery = listQuery('LeaguesQuery', {
  ...sportScope('leagues'),
  country_id: Type.Optional(Id('Only leagues of this country (GET /v1/references/countries); an unknown id is 404. International leagues have none.')),
  is_popular: Type.Optional(Type.Boolean({ description: 'true: only the popular leagues; false: only the others. Absent: both.' })),
  search: Type.Optional(search),
  search_mode: searchMode,
});

export const TeamsQuery = listQuery('TeamsQuery', {
  league_id: Type.Optional(Id('Only teams of this league. Wins over league_key.')),
  league_key: Type.Optional(Key('Only teams of this league: `nba` or qualified `united-states.nba`; a key shared by several leagues is 409.')),
  search: Type.Optional(search),
  search_mode: searchMode,
  ...dateRangeProperties('the events a team must have (home or away), by start time', ' Without start_date and end_date, no date filter.'),
});

export const PlayersQuery = listQuery('PlayersQuery', {
  team_id: Type.Optional(Id('Only players of this team. Wins over team_key.')),
  team_key: Type.Optional(Key('Only players of this team: plain key or qualified `league.team` / `country.league.team`.')),
  league_key: Type.Optional(Key('Only players of teams in this league (`nba` or `united-states.nba`).')),
  search: Type.Optional(search),
  search_mode: searchMode,
});

export const OperatorsQuery = listQuery('OperatorsQuery', { search: Type.Optional(search) });

export const BettingMarketsQuery = listQuery('BettingMarketsQuery', {
  sport_id: Type.Optional(Id('Only markets offered for this sport: those of the sport and those not tied to any sport. Wins over sport_key.')),
  sport_key: Type.Optional(Key('The same, by the sport key (an unknown key is 404).')),
  search: Type.Optional(search),
});

export const CountriesQuery = listQuery('CountriesQuery', { search: Type.Optional(search) });

export const BettingMarketCategoriesQuery = listQuery('BettingMarketCategoriesQuery', {
  sport_id: Type.Optional(Id('Only categories with a market offered for this sport (a market of the sport, or of every sport). Wins over sport_key.')),
  sport_key: Type.Optional(Key('The same, by the sport key.')),
  search: Type.Optional(search),
});

export const BettingMarketPositionsQuery = listQuery('BettingMarketPositionsQuery', { search: Type.Optional(search) });

export const EventPeriodsQuery = listQuery('EventPeriodsQuery', { ...sportScope('periods'), search: Type.Optional(search) });

export const PlayerStatisticsQuery = listQuery('PlayerStatisticsQuery', { ...sportScope('statistics'), search: Type.Optional(search) });

export const OddsFormatsQuery = listQuery('OddsFormatsQuery', { search: Type.Optional(search) });

export type SportsQuery = Static<typeof SportsQuery>;
export type LeaguesQuery = Static<typeof LeaguesQuery>;
export type TeamsQuery = Static<typeof TeamsQuery>;
export type PlayersQuery = Static<typeof PlayersQuery>;
export type OperatorsQuery = Static<typeof OperatorsQuery>;
export type BettingMarketsQuery = Static<typeof BettingMarketsQuery>;
export type CountriesQuery = Static<typeof CountriesQuery>;
export type BettingMarketCategoriesQuery = Static<typeof BettingMarketCategoriesQuery>;
export type BettingMarketPositionsQuery = Static<typeof BettingMarketPositionsQuery>;
export type EventPeriodsQuery = Static<typeof EventPeriodsQuery>;
export type PlayerStatisticsQuery = Static<typeof PlayerStatisticsQuery>;
export type OddsFormatsQuery = Static<typeof OddsFormatsQuery>;
