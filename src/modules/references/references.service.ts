import type { ReadCache } from '../../platform/cache/read-cache.js';
import { type Page, type Paging, slicePage } from '../../platform/pagination.js';
import type { KeyResolver } from './key-resolver.js';
import type { ReferencesRepository } from './references.repository.js';
import type {
  BettingMarketItem,
  BettingMarketsQuery,
  LeagueItem,
  LeaguesQuery,
  OperatorItem,
  OperatorsQuery,
  PlayerItem,
  PlayersQuery,
  SportItem,
  SportsQuery,
  TeamItem,
  TeamsQuery,
} from './references.schemas.js';

/**
 * One reference list endpoint. Data changes only through import, so everything here is
 * computed once per data version and kept in the read cache:
 * - the whole table (`ref:rows:…`), read from the database on first use;
 * - each filtered list (`ref:list:…`), the filter applied once, not once per page;
 * - each page, rendered to JSON by the route under `cacheKey(query)`.
 */
export interface ReferenceList<Q extends Paging, T> {
  /** endpoint + normalized filters + page + page_size: equal for requests that mean the same. */
  cacheKey(query: Q): string;
  page(query: Q): Promise<Page<T>>;
}

export interface ReferencesService {
  sports: ReferenceList<SportsQuery, SportItem>;
  leagues: ReferenceList<LeaguesQuery, LeagueItem>;
  teams: ReferenceList<TeamsQuery, TeamItem>;
  players: ReferenceList<PlayersQuery, PlayerItem>;
  operators: ReferenceList<OperatorsQuery, OperatorItem>;
  bettingMarkets: ReferenceList<BettingMarketsQuery, BettingMarketItem>;
}

/** Normalized filters: a JSON-serializable tuple (null = filter not given). */
type Filters = ReadonlyArray<string | number | null>;

export function createReferencesService(deps: { repository: ReferencesRepository; cache: ReadCache; keys: KeyResolver }): ReferencesService {
  const { repository, cache, keys } = deps;

  const rows = {
    sports: () => cache.get('ref:rows:sports', () => repository.sports()),
    leagues: () => cache.get('ref:rows:leagues', () => repository.leagues()),
    teams: () => cache.get('ref:rows:teams', () => repository.teams()),
    players: () => cache.get('ref:rows:players', () => repository.players()),
    operators: () => cache.get('ref:rows:operators', () => repository.operators()),
    bettingMarkets: () => cache.get('ref:rows:betting-markets', () => repository.bettingMarkets()),
  };

  function list<Q extends Paging, F extends Filters, T>(
    name: string,
    normalize: (query: Q) => F,
    compute: (filters: F) => Promise<readonly T[]>,
  ): ReferenceList<Q, T> {
    // JSON keeps the parts apart whatever characters a key or search contains.
    const filterKey = (filters: F) => `${name}:${JSON.stringify(filters)}`;
    return {
      cacheKey: (query) => `ref:page:${filterKey(normalize(query))}:${query.page}:${query.page_size}`,
      async page(query) {
        const filters = normalize(query);
        const all = await cache.get(`ref:list:${filterKey(filters)}`, () => compute(filters));
        return slicePage(all, query);
      },
    };
  }


  return {
    sports: list(
      'sports',
      (q: SportsQuery) => [searchOf(q.search)] as const,
      async ([search]) => (await rows.sports()).filter((s) => matches(search, s)),
    ),

    leagues: list(
      'leagues',
      (q: LeaguesQuery) => [q.sport_id ?? null, q.sport_id === undefined ? keyOf(q.sport_key) : null, searchOf(q.search)] as const,
      async ([sportId, sportKey, search]) => {
        const sport = await keys.scope('sport', { id: sportId, key: sportKey }, { id: 'sport_id', key: 'sport_key' });
        return (await rows.leagues()).filter((l) => (sport === undefined || l.sport_id === sport) && matches(search, l));
      },
    ),

    teams: list(
      'teams',
      (q: TeamsQuery) => [q.league_id ?? null, q.league_id === undefined ? keyOf(q.league_key) : null, searchOf(q.search)] as const,
      async ([leagueId, leagueKey, search]) => {
        const league = await keys.scope('league', { id: leagueId, key: leagueKey }, { id: 'league_id', key: 'league_key' });
        return (await rows.teams()).filter((t) => (league === undefined || t.league_id === league) && matches(search, t));
      },
    ),

    players: list(
      'players',
      (q: PlayersQuery) =>
        [q.team_id ?? null, q.team_id === undefined ? keyOf(q.team_key) : null, keyOf(q.league_key), searchOf(q.search)] as const,
      async ([teamId, teamKey, leagueKey, search]) => {
        const team = await keys.scope('team', { id: teamId, key: teamKey }, { id: 'team_id', key: 'team_key' });
        const league = leagueKey === null ? null : await keys.resolve('league', leagueKey, 'league_key');
        return (await rows.players())
          .filter((p) => (team === undefined || p.item.team_id === team) && (league === null || p.leagueId === league) && matches(search, p.item))
          .map((p) => p.item);
      },
    ),

    operators: list(
      'operators',
      (q: OperatorsQuery) => [searchOf(q.search)] as const,
      async ([search]) => (await rows.operators()).filter((o) => matches(search, o)),
    ),

    bettingMarkets: list(
      'betting-markets',
      (q: BettingMarketsQuery) => [q.sport_id ?? null, searchOf(q.search)] as const,
      async ([sportId, search]) => {
        const sport = sportId === null ? null : await keys.requireId('sport', sportId, 'sport_id');
        // A market without a sport (e.g. a generic moneyline) is offered for every sport.
        return (await rows.bettingMarkets())
          .filter((m) => (sport === null || m.sportId === null || m.sportId === sport) && matches(search, m.item))
          .map((m) => m.item);
      },
    ),
  };
}

/** Keys compare case-insensitively (the key resolver lower-cases them too). */
function keyOf(key: string | undefined): string | null {
  return key === undefined ? null : key.toLowerCase();
}

/** An empty search matches everything, exactly like no search. */
function searchOf(search: string | undefined): string | null {
  return search === undefined || search === '' ? null : search.toLowerCase();
}

/** search: a case-insensitive substring of the name or of the plain key. */
function matches(search: string | null, record: { name: string; key: string }): boolean {
  return search === null || record.name.toLowerCase().includes(search) || record.key.toLowerCase().includes(search);
}
