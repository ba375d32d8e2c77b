import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { utcDays } from '../../shared/date-range.js';
import type { DayRange } from '../../platform/time.js';
import type { ReadCache } from '../../platform/cache/read-cache.js';
import type { Schema } from '../../platform/db/schema.js';
import type { KeyResolver } from './key-resolver.js';
import type { ReferenceList } from './reference-list.js';
import { ODDS_FORMAT_ITEMS } from './odds-formats.js';
import { createReferencesRepository, type ReferencesRepository, type SportsOfCategory } from './references.repository.js';
import { matches, type Search, type SearchMode, searchOf } from './search.js';
import { createTaxonomyService, type TaxonomyService } from './taxonomy.js';
import type {
  BettingMarketCategoriesQuery,
  BettingMarketCategoryItem,
  BettingMarketItem,
  BettingMarketPositionItem,
  BettingMarketPositionsQuery,
  BettingMarketsQuery,
  CountriesQuery,
  CountryItem,
  EventPeriodItem,
  EventPeriodsQuery,
  PlayerStatisticItem,
  PlayerStatisticsQuery,
  LeagueItem,
  LeaguesQuery,
  OperatorItem,
  OddsFormatItem,
  OddsFormatsQuery,
  OperatorsQuery,
  PlayerItem,
  PlayersQuery,
  SportItem,
  SportsQuery,
  TeamItem,
  TeamsQuery,
} from './references.schemas.js';

/**
 * The reference lists (docs/api.md#references). Reference tables are small (hundreds of leagues and
 * teams, some thousands of players): each is read whole once per data version, already in the
 * shape the API shows, and a list's ids are the rows its filters keep, in id order.
 */
export interface ReferencesService {
  /** Sports, by search. */
  sports: ReferenceList<SportsQuery, SearchFilters, SportItem>;
  /** Leagues, by sport, country, popularity and search. */
  leagues: ReferenceList<LeaguesQuery, LeagueFilters, LeagueItem>;
  /** Teams, by league, search and the days they play in. */
  teams: ReferenceList<TeamsQuery, TeamFilters, TeamItem>;
  /** Players, by team, league and search. */
  players: ReferenceList<PlayersQuery, PlayerFilters, PlayerItem>;
  /** Operators (sportsbooks), by search. */
  operators: ReferenceList<OperatorsQuery, SearchFilters, OperatorItem>;
  /** Betting markets, by sport (a market of no sport is every sport's) and search. */
  bettingMarkets: ReferenceList<BettingMarketsQuery, SportFilters, BettingMarketItem>;
  /** Countries, by search. */
  countries: ReferenceList<CountriesQuery, SearchFilters, CountryItem>;
  /** Betting-market categories, by the sports their markets are offered for and search. */
  bettingMarketCategories: ReferenceList<BettingMarketCategoriesQuery, SportFilters, BettingMarketCategoryItem>;
  /** Betting-market positions (sides), by search. */
  bettingMarketPositions: ReferenceList<BettingMarketPositionsQuery, SearchFilters, BettingMarketPositionItem>;
  /** Event periods, by sport and search. */
  eventPeriods: ReferenceList<EventPeriodsQuery, SportFilters, EventPeriodItem>;
  /** Player statistics, by sport and search. */
  playerStatistics: ReferenceList<PlayerStatisticsQuery, SportFilters, PlayerStatisticItem>;
  /** The odds formats the odds endpoints take, by search. */
  oddsFormats: ReferenceList<OddsFormatsQuery, SearchFilters, OddsFormatItem>;
  /** The flow tag taxonomy and the subnational regions (taxonomy.ts). */
  taxonomy: TaxonomyService;
}

/** The filters of a list by search alone. */
type SearchFilters = readonly [search: Search | null];
/** sport_id, sport_key (null when the id is given) and search. */
type SportFilters = readonly [sportId: number | null, sportKey: string | null, search: Search | null];
type LeagueFilters = readonly [...SportFilters, countryId: number | null, popular: boolean | null];
type TeamFilters = readonly [leagueId: number | null, leagueKey: string | null, search: Search | null, days: DayRange | null];
type PlayerFilters = readonly [teamId: number | null, teamKey: string | null, leagueKey: string | null, search: Search | null];

/** An item with what search reads. */
interface Keyed {
  id: number;
  key: string;
  name: string;
}

/** The query of a list by sport. */
interface SportScoped {
  sport_id?: number;
  sport_key?: string;
  search?: string;
  search_mode?: SearchMode;
}

/** A table row: the item the API shows, with what filters need beyond it. */
interface Row<T> {
  item: T;
}

interface Table<R extends Row<{ id: number }>> {
  rows: readonly R[];
  byId: ReadonlyMap<number, R['item']>;
}

/** A table as read once per data version. */
type Cached<R extends Row<{ id: number }>> = () => Promise<Table<R>>;

/** Every reference table, each cached per data version. */
interface Tables {
  sports: Cached<Row<SportItem>>;
  leagues: Cached<Row<LeagueItem>>;
  teams: Cached<Row<TeamItem>>;
  players: Cached<{ item: PlayerItem; leagueId: number }>;
  operators: Cached<Row<OperatorItem>>;
  bettingMarkets: Cached<{ item: BettingMarketItem; sportId: number | null }>;
  countries: Cached<Row<CountryItem>>;
  bettingMarketCategories: Cached<{ item: BettingMarketCategoryItem; sports: SportsOfCategory }>;
  bettingMarketPositions: Cached<Row<BettingMarketPositionItem>>;
  eventPeriods: Cached<Row<EventPeriodItem>>;
  playerStatistics: Cached<Row<PlayerStatisticItem>>;
  oddsFormats: Cached<Row<OddsFormatItem>>;
}

export function createReferencesService(deps: { db: Kysely<Schema>; keys: KeyResolver; cache: Pick<ReadCache, 'snapshot'>; clock: Clock }): ReferencesService {
  const { keys, cache, clock } = deps;
  const repository = createReferencesRepository(deps.db);
  const tables = referenceTables(repository, cache);
  return {
    sports: searchable<SportsQuery, SportItem>('sports', tables.sports),
    leagues: leaguesList(tables, keys),
    teams: teamsList(tables.teams, keys, repository, clock),
    players: playersList(tables.players, keys),
    operators: searchable<OperatorsQuery, OperatorItem>('operators', tables.operators),
    bettingMarkets: bettingMarketsList(tables.bettingMarkets, keys),
    countries: searchable<CountriesQuery, CountryItem>('countries', tables.countries),
    bettingMarketCategories: bettingMarketCategoriesList(tables.bettingMarketCategories, keys),
    bettingMarketPositions: searchable<BettingMarketPositionsQuery, BettingMarketPositionItem>('betting-market-positions', tables.bettingMarketPositions),
    eventPeriods: ofSport<EventPeriodsQuery, EventPeriodItem>('event-periods', tables.eventPeriods, keys),
    playerStatistics: ofSport<PlayerStatisticsQuery, PlayerStatisticItem>('player-statistics', tables.playerStatistics, keys),
    oddsFormats: searchable<OddsFormatsQuery, OddsFormatItem>('odds-formats', tables.oddsFormats),
    taxonomy: createTaxonomyService({ db: deps.db, cache }),
  };
}

function referenceTables(repository: ReferencesRepository, cache: Pick<ReadCache, 'snapshot'>): Tables {
  const tableOf = <R extends Row<{ id: number }>>(label: string, load: () => Promise<R[]>) =>
    cache.snapshot(`references:${label}`, async (): Promise<Table<R>> => {
      const rows = await load();
      return { rows, byId: new Map(rows.map((row) => [row.item.id, row.item])) };
    });
  const itemsOnly = <T>(load: () => Promise<T[]>) => async () => (await load()).map((item) => ({ item }));

  return {
    sports: tableOf('sports', itemsOnly(repository.sports)),
    leagues: tableOf('leagues', itemsOnly(repository.leagues)),
    teams: tableOf('teams', itemsOnly(repository.teams)),
    players: tableOf('players', repository.players),
    operators: tableOf('operators', itemsOnly(repository.operators)),
    bettingMarkets: tableOf('betting-markets', repository.bettingMarkets),
    countries: tableOf('countries', itemsOnly(repository.countries)),
    bettingMarketCategories: tableOf('betting-market-categories', repository.bettingMarketCategories),
    bettingMarketPositions: tableOf('betting-market-positions', itemsOnly(repository.bettingMarketPositions)),
    eventPeriods: tableOf('event-periods', itemsOnly(repository.eventPeriods)),
    playerStatistics: tableOf('player-statistics', itemsOnly(repository.playerStatistics)),
    oddsFormats: tableOf('odds-formats', async () => ODDS_FORMAT_ITEMS.map((item) => ({ item }))),
  };
}

/** A list over a table: `keep` resolves the filters (404/409 for keys) into a row predicate. */
function list<Q, F, R extends Row<{ id: number }>>(spec: {
  name: string;
  table: () => Promise<Table<R>>;
  filters: (query: Q) => F;
  keep: (filters: F) => Promise<(row: R) => boolean>;
}): ReferenceList<Q, F, R['item']> {
  return {
    name: spec.name,
    filters: spec.filters,
    async ids(filters) {
      const keep = await spec.keep(filters);
      return (await spec.table()).rows.filter(keep).map((row) => row.item.id);
    },
    async items(ids) {
      const { byId } = await spec.table();
      return new Map(ids.flatMap((id) => {
        const item = byId.get(id);
        return item === undefined ? [] : [[id, item] as const];
      }));
    },
  };
}

/** A list filtered by search alone. */
function searchable<Q extends { search?: string }, T extends Keyed>(name: string, table: Cached<Row<T>>): ReferenceList<Q, SearchFilters, T> {
  return list({
    name,
    table,
    filters: (q: Q) => [searchOf(q.search, 'contains')] as const,
    keep: async ([search]) => (row: Row<T>) => matches(search, row.item.name, row.item.key),
  });
}

/** sport_id or sport_key, the id winning (the key then not resolved), and search. */
function sportFilters(q: SportScoped): SportFilters {
  return [q.sport_id ?? null, q.sport_id === undefined ? keyOf(q.sport_key) : null, searchOf(q.search, q.search_mode ?? 'contains')] as const;
}

function sportOf(keys: KeyResolver, id: number | null, key: string | null): Promise<number | undefined> {
  return keys.scope('sport', { id, key }, { id: 'sport_id', key: 'sport_key' });
}

/** A list of records that each belong to one sport, filtered by sport and search. */
function ofSport<Q extends SportScoped, T extends Keyed & { sport_id: number }>(name: string, table: Cached<Row<T>>, keys: KeyResolver): ReferenceList<Q, SportFilters, T> {
  return list({
    name,
    table,
    filters: (q: Q) => sportFilters(q),
    keep: async ([sportId, sportKey, search]) => {
      const sport = await sportOf(keys, sportId, sportKey);
      return ({ item }: Row<T>) => (sport === undefined || item.sport_id === sport) && matches(search, item.name, item.key);
    },
  });
}

/** Leagues name their country by key: the key of the country record with this id; 404 for none. */
async function countryKeyOf(countries: Tables['countries'], id: number): Promise<string> {
  const country = (await countries()).byId.get(id);
  if (country === undefined) throw new ApiError('NOT_FOUND', `no country with country_id ${id}`);
  return country.key;
}

function leaguesList(tables: Tables, keys: KeyResolver): ReferencesService['leagues'] {
  return list({
    name: 'leagues',
    table: tables.leagues,
    filters: (q: LeaguesQuery) => [...sportFilters(q), q.country_id ?? null, q.is_popular ?? null] as const,
    keep: async ([sportId, sportKey, search, countryId, popular]) => {
      const sport = await sportOf(keys, sportId, sportKey);
      const country = countryId === null ? null : await countryKeyOf(tables.countries, countryId);
      return ({ item }: Row<LeagueItem>) =>
        (sport === undefined || item.sport_id === sport) &&
        (country === null || item.country?.key === country) &&
        (popular === null || item.is_popular === popular) &&
        matches(search, item.name, item.key);
    },
  });
}

function teamsList(table: Tables['teams'], keys: KeyResolver, repository: ReferencesRepository, clock: Clock): ReferencesService['teams'] {
  return list({
    name: 'teams',
    table,
    // The days are resolved here, against the clock, so that a filter names the days it covers
    // (the defaults included) and a cached list of ids is never one of another day's range.
    filters: (q: TeamsQuery) =>
      [
        q.league_id ?? null,
        q.league_id === undefined ? keyOf(q.league_key) : null,
        searchOf(q.search, q.search_mode ?? 'contains'),
        q.start_date === undefined && q.end_date === undefined ? null : utcDays(q, clock.now()),
      ] as const,
    keep: async ([leagueId, leagueKey, search, days]) => {
      const league = await keys.scope('league', { id: leagueId, key: leagueKey }, { id: 'league_id', key: 'league_key' });
      const played = days === null ? null : await repository.teamsWithEvents(days);
      return ({ item }: Row<TeamItem>) =>
        (league === undefined || item.league_id === league) && (played === null || played.has(item.id)) && matches(search, item.name, item.key);
    },
  });
}

function playersList(table: Tables['players'], keys: KeyResolver): ReferencesService['players'] {
  return list({
    name: 'players',
    table,
    filters: (q: PlayersQuery) =>
      [q.team_id ?? null, q.team_id === undefined ? keyOf(q.team_key) : null, keyOf(q.league_key), searchOf(q.search, q.search_mode ?? 'contains')] as const,
    keep: async ([teamId, teamKey, leagueKey, search]) => {
      const team = await keys.scope('team', { id: teamId, key: teamKey }, { id: 'team_id', key: 'team_key' });
      const league = leagueKey === null ? null : await keys.resolve('league', leagueKey, 'league_key');
      return (p: { item: PlayerItem; leagueId: number }) =>
        (team === undefined || p.item.team_id === team) && (league === null || p.leagueId === league) && matches(search, p.item.name, p.item.key);
    },
  });
}

function bettingMarketsList(table: Tables['bettingMarkets'], keys: KeyResolver): ReferencesService['bettingMarkets'] {
  return list({
    name: 'betting-markets',
    table,
    filters: (q: BettingMarketsQuery) => [q.sport_id ?? null, q.sport_id === undefined ? keyOf(q.sport_key) : null, searchOf(q.search, 'contains')] as const,
    keep: async ([sportId, sportKey, search]) => {
      const sport =
        sportId !== null ? await keys.requireId('sport', sportId, 'sport_id') : sportKey !== null ? await keys.resolve('sport', sportKey, 'sport_key') : null;
      // A market without a sport (e.g. a generic moneyline) is offered for every sport.
      return (m: { item: BettingMarketItem; sportId: number | null }) =>
        (sport === null || m.sportId === null || m.sportId === sport) && matches(search, m.item.name, m.item.key);
    },
  });
}

function bettingMarketCategoriesList(table: Tables['bettingMarketCategories'], keys: KeyResolver): ReferencesService['bettingMarketCategories'] {
  return list({
    name: 'betting-market-categories',
    table,
    filters: (q: BettingMarketCategoriesQuery) => sportFilters(q),
    keep: async ([sportId, sportKey, search]) => {
      const sport = await sportOf(keys, sportId, sportKey);
      return (c: { item: BettingMarketCategoryItem; sports: SportsOfCategory }) =>
        (sport === undefined || c.sports === 'every' || c.sports.has(sport)) && matches(search, c.item.name, c.item.key);
    },
  });
}

/** Keys compare case-insensitively (the key resolver lower-cases them too). */
function keyOf(key: string | undefined): string | null {
  return key === undefined ? null : key.toLowerCase();
}
