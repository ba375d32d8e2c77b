import type { Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { utcDays } from '../../shared/date-range.js';
import type { DayRange } from '../../platform/time.js';
import type { ReadCache } from '../../platform/cache/read-cache.js';
import type { Schema } from '../../platform/db/schema.js';
import type { ListSource } from '../../platform/lists/paged-lists.js';
import type { KeyResolver } from './key-resolver.js';
import { ODDS_FORMAT_ITEMS } from './odds-formats.js';
import { createReferencesRepository, type SportsOfCategory } from './references.repository.js';
import { matches, type SearchMode, searchOf } from './search.js';
import { createTaxonomyService } from './taxonomy.js';
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

/** One reference list endpoint: a list source and how a query becomes its filters. */
export interface ReferenceList<Q, F, T> extends ListSource<F, T> {
  filters(query: Q): F;
}

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

/**
 * The reference lists (docs/api.md#references). Reference tables are small (hundreds of leagues and
 * teams, some thousands of players): each is read whole once per data version, already in the
 * shape the API shows, and a list's ids are the rows its filters keep, in id order.
 */
export function createReferencesService(deps: { db: Kysely<Schema>; keys: KeyResolver; cache: Pick<ReadCache, 'snapshot'>; clock: Clock }) {
  const { keys, cache, clock } = deps;
  const repository = createReferencesRepository(deps.db);

  const tableOf = <R extends Row<{ id: number }>>(label: string, load: () => Promise<R[]>) =>
    cache.snapshot(`references:${label}`, async (): Promise<Table<R>> => {
      const rows = await load();
      return { rows, byId: new Map(rows.map((row) => [row.item.id, row.item])) };
    });
  const itemsOnly = <T>(load: () => Promise<T[]>) => async () => (await load()).map((item) => ({ item }));

  const tables = {
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

  /** A list filtered by search alone. */
  const searchable = <Q extends { search?: string }, T extends Keyed>(name: string, table: () => Promise<Table<Row<T>>>) =>
    list({
      name,
      table,
      filters: (q: Q) => [searchOf(q.search, 'contains')] as const,
      keep: async ([search]) => (row: Row<T>) => matches(search, row.item.name, row.item.key),
    });

  /** sport_id or sport_key, the id winning (the key then not resolved), and search. */
  const sportFilters = (q: SportScoped) =>
    [q.sport_id ?? null, q.sport_id === undefined ? keyOf(q.sport_key) : null, searchOf(q.search, q.search_mode ?? 'contains')] as const;
  const sportOf = (id: number | null, key: string | null) => keys.scope('sport', { id, key }, { id: 'sport_id', key: 'sport_key' });

  /** Leagues name their country by key: the key of the country record with this id; 404 for none. */
  const countryKeyOf = async (id: number): Promise<string> => {
    const country = (await tables.countries()).byId.get(id);
    if (country === undefined) throw new ApiError('NOT_FOUND', `no country with country_id ${id}`);
    return country.key;
  };

  /** The teams with an event, home or away, starting in [start, end). */
  const teamsWithEvents = async ({ start, end }: DayRange): Promise<ReadonlySet<number>> => {
    const inRange = deps.db.selectFrom('events').where('start_time', '>=', start).where('start_time', '<', end);
    const rows = await inRange
      .select('home_team_id as team_id')
      .union(inRange.select('away_team_id as team_id'))
      .execute();
    return new Set(rows.map((r) => Number(r.team_id)));
  };

  /** A list of records that each belong to one sport, filtered by sport and search. */
  const ofSport = <Q extends SportScoped, T extends Keyed & { sport_id: number }>(name: string, table: () => Promise<Table<Row<T>>>) =>
    list({
      name,
      table,
      filters: (q: Q) => sportFilters(q),
      keep: async ([sportId, sportKey, search]) => {
        const sport = await sportOf(sportId, sportKey);
        return ({ item }: Row<T>) => (sport === undefined || item.sport_id === sport) && matches(search, item.name, item.key);
      },
    });

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

  return {
    sports: searchable<SportsQuery, SportItem>('sports', tables.sports),

    leagues: list({
      name: 'leagues',
      table: tables.leagues,
      filters: (q: LeaguesQuery) => [...sportFilters(q), q.country_id ?? null, q.is_popular ?? null] as const,
      keep: async ([sportId, sportKey, search, countryId, popular]) => {
        const sport = await sportOf(sportId, sportKey);
        const country = countryId === null ? null : await countryKeyOf(countryId);
        return ({ item }: Row<LeagueItem>) =>
          (sport === undefined || item.sport_id === sport) &&
          (country === null || item.country?.key === country) &&
          (popular === null || item.is_popular === popular) &&
          matches(search, item.name, item.key);
      },
    }),

    teams: list({
      name: 'teams',
      table: tables.teams,
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
        const played = days === null ? null : await teamsWithEvents(days);
        return ({ item }: Row<TeamItem>) =>
          (league === undefined || item.league_id === league) && (played === null || played.has(item.id)) && matches(search, item.name, item.key);
      },
    }),

    players: list({
      name: 'players',
      table: tables.players,
      filters: (q: PlayersQuery) =>
        [q.team_id ?? null, q.team_id === undefined ? keyOf(q.team_key) : null, keyOf(q.league_key), searchOf(q.search, q.search_mode ?? 'contains')] as const,
      keep: async ([teamId, teamKey, leagueKey, search]) => {
        const team = await keys.scope('team', { id: teamId, key: teamKey }, { id: 'team_id', key: 'team_key' });
        const league = leagueKey === null ? null : await keys.resolve('league', leagueKey, 'league_key');
        return (p: { item: PlayerItem; leagueId: number }) =>
          (team === undefined || p.item.team_id === team) && (league === null || p.leagueId === league) && matches(search, p.item.name, p.item.key);
      },
    }),

    operators: searchable<OperatorsQuery, OperatorItem>('operators', tables.operators),

    bettingMarkets: list({
      name: 'betting-markets',
      table: tables.bettingMarkets,
      filters: (q: BettingMarketsQuery) => [q.sport_id ?? null, q.sport_id === undefined ? keyOf(q.sport_key) : null, searchOf(q.search, 'contains')] as const,
      keep: async ([sportId, sportKey, search]) => {
        const sport =
          sportId !== null ? await keys.requireId('sport', sportId, 'sport_id') : sportKey !== null ? await keys.resolve('sport', sportKey, 'sport_key') : null;
        // A market without a sport (e.g. a generic moneyline) is offered for every sport.
        return (m: { item: BettingMarketItem; sportId: number | null }) =>
          (sport === null || m.sportId === null || m.sportId === sport) && matches(search, m.item.name, m.item.key);
      },
    }),

    countries: searchable<CountriesQuery, CountryItem>('countries', tables.countries),

    bettingMarketCategories: list({
      name: 'betting-market-categories',
      table: tables.bettingMarketCategories,
      filters: (q: BettingMarketCategoriesQuery) => sportFilters(q),
      keep: async ([sportId, sportKey, search]) => {
        const sport = await sportOf(sportId, sportKey);
        return (c: { item: BettingMarketCategoryItem; sports: SportsOfCategory }) =>
          (sport === undefined || c.sports === 'every' || c.sports.has(sport)) && matches(search, c.item.name, c.item.key);
      },
    }),

    bettingMarketPositions: searchable<BettingMarketPositionsQuery, BettingMarketPositionItem>('betting-market-positions', tables.bettingMarketPositions),

    eventPeriods: ofSport<EventPeriodsQuery, EventPeriodItem>('event-periods', tables.eventPeriods),

    playerStatistics: ofSport<PlayerStatisticsQuery, PlayerStatisticItem>('player-statistics', tables.playerStatistics),

    oddsFormats: searchable<OddsFormatsQuery, OddsFormatItem>('odds-formats', tables.oddsFormats),

    /** The flow tag taxonomy and the subnational regions (taxonomy.ts). */
    taxonomy: createTaxonomyService({ db: deps.db, cache }),
  };
}

export type ReferencesService = ReturnType<typeof createReferencesService>;

/** Keys compare case-insensitively (the key resolver lower-cases them too). */
function keyOf(key: string | undefined): string | null {
  return key === undefined ? null : key.toLowerCase();
}

