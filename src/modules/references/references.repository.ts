import type { Kysely } from 'kysely';
import { readInChunks } from '../../platform/db/keyset.js';
import type { Schema } from '../../platform/db/schema.js';
import type { DayRange } from '../../platform/time.js';
import { leagueQualifiedKey } from './key-resolver.js';
import type {
  BettingMarketCategoryItem,
  BettingMarketItem,
  BettingMarketPositionItem,
  CountryItem,
  EventPeriodItem,
  PlayerStatisticItem,
  LeagueItem,
  OperatorItem,
  PlayerItem,
  SportItem,
  TeamItem,
} from './references.schemas.js';

/** The sports a category's markets are offered for: some, or every sport (it has a market of no sport). */
export type SportsOfCategory = 'every' | ReadonlySet<number>;

/**
 * Whole reference tables, read once per data version (they are small: hundreds of leagues
 * and teams, some thousands of players) and already in the shape the API shows. Ordered by id,
 * the stable order of every list.
 */
export interface ReferencesRepository {
  /** Every sport. */
  sports(): Promise<SportItem[]>;
  /** Every league, with its qualified key and its country. */
  leagues(): Promise<LeagueItem[]>;
  /** Every team, with its league's key and sport. */
  teams(): Promise<TeamItem[]>;
  /** Players with the league of their team, for the league_key filter. */
  players(): Promise<Array<{ item: PlayerItem; leagueId: number }>>;
  /** Every operator (sportsbook). */
  operators(): Promise<OperatorItem[]>;
  /** Markets with their sport (null: offered for every sport), for the sport_id filter. */
  bettingMarkets(): Promise<Array<{ item: BettingMarketItem; sportId: number | null }>>;
  /** Every country. */
  countries(): Promise<CountryItem[]>;
  /** Categories with the sports their markets are offered for, for the sport filters. */
  bettingMarketCategories(): Promise<Array<{ item: BettingMarketCategoryItem; sports: SportsOfCategory }>>;
  /** Every betting market position (side). */
  bettingMarketPositions(): Promise<BettingMarketPositionItem[]>;
  /** Every event period, with its sport. */
  eventPeriods(): Promise<EventPeriodItem[]>;
  /** Every player statistic, with its sport. */
  playerStatistics(): Promise<PlayerStatisticItem[]>;
  /** The teams with an event, home or away, starting in [start, end). */
  teamsWithEvents(days: DayRange): Promise<ReadonlySet<number>>;
}

export function createReferencesRepository(db: Kysely<Schema>): ReferencesRepository {
  return {
    sports: () => db.selectFrom('sports').select(['id', 'key', 'name']).orderBy('id').execute(),
    operators: () => db.selectFrom('operators').select(['id', 'key', 'name']).orderBy('id').execute(),
    leagues: () => readLeagues(db),
    teams: () => readTeams(db),
    players: () => readPlayers(db),
    bettingMarkets: () => readBettingMarkets(db),
    countries: () => db.selectFrom('countries').select(['id', 'key', 'name']).orderBy('id').execute(),
    bettingMarketCategories: () => readBettingMarketCategories(db),
    bettingMarketPositions: () => db.selectFrom('betting_market_positions').select(['id', 'key', 'name']).orderBy('id').execute(),
    eventPeriods: () => db.selectFrom('event_periods').select(['id', 'key', 'name', 'sport_id']).orderBy('id').execute(),
    playerStatistics: () => db.selectFrom('player_statistics').select(['id', 'key', 'name', 'sport_id']).orderBy('id').execute(),
    teamsWithEvents: (days) => readTeamsWithEvents(db, days),
  };
}

async function readLeagues(db: Kysely<Schema>): Promise<LeagueItem[]> {
  const rows = await db.selectFrom('leagues').selectAll().orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    key: r.key,
    qualified_key: leagueQualifiedKey(r.key, r.country_key),
    name: r.name,
    sport_id: r.sport_id,
    country: r.country_key ? { key: r.country_key, name: r.country_name ?? r.country_key } : null,
    is_popular: Number(r.is_popular) === 1,
  }));
}

// Teams and players run to thousands (55,000 players at --scale 10): read in keyset chunks.
function readTeams(db: Kysely<Schema>): Promise<TeamItem[]> {
  return readInChunks(
    (after, limit) =>
      db
        .selectFrom('teams')
        .innerJoin('leagues', 'leagues.id', 'teams.league_id')
        .select([
          'teams.id as id',
          'teams.key as key',
          'teams.name as name',
          'teams.abbreviation as abbreviation',
          'teams.location as location',
          'teams.league_id as league_id',
          'leagues.key as league_key',
          'leagues.sport_id as sport_id',
        ])
        .where('teams.id', '>', after)
        .orderBy('teams.id')
        .limit(limit)
        .execute(),
    (r) => ({
      id: r.id,
      key: r.key,
      qualified_key: `${r.league_key}.${r.key}`,
      name: r.name,
      abbreviation: r.abbreviation,
      location: r.location,
      sport_id: r.sport_id,
      league_id: r.league_id,
      league_key: r.league_key,
    }),
  );
}

function readPlayers(db: Kysely<Schema>): Promise<Array<{ item: PlayerItem; leagueId: number }>> {
  return readInChunks(
    (after, limit) =>
      db
        .selectFrom('players')
        .innerJoin('teams', 'teams.id', 'players.team_id')
        .select([
          'players.id as id',
          'players.key as key',
          'players.name as name',
          'players.position as position',
          'players.team_id as team_id',
          'teams.key as team_key',
          'teams.league_id as league_id',
        ])
        .where('players.id', '>', after)
        .orderBy('players.id')
        .limit(limit)
        .execute(),
    ({ league_id, ...r }) => ({
      item: { id: r.id, key: r.key, name: r.name, position: r.position, team_id: r.team_id, team_key: r.team_key },
      leagueId: league_id,
    }),
  );
}

async function readBettingMarkets(db: Kysely<Schema>): Promise<Array<{ item: BettingMarketItem; sportId: number | null }>> {
  const rows = await db
    .selectFrom('betting_markets as m')
    .leftJoin('betting_market_categories as c', 'c.id', 'm.category_id')
    .select(['m.id', 'm.key', 'm.name', 'm.category', 'm.category_id', 'm.entity_type', 'm.sport_id', 'c.key as category_key'])
    .orderBy('m.id')
    .execute();
  return rows.map((r) => ({
    // The category record's key when there is one: it stays right if the category is re-keyed.
    item: { id: r.id, key: r.key, name: r.name, category: r.category_key ?? r.category, category_id: r.category_id, entity_type: r.entity_type },
    sportId: r.sport_id,
  }));
}

async function readBettingMarketCategories(db: Kysely<Schema>): Promise<Array<{ item: BettingMarketCategoryItem; sports: SportsOfCategory }>> {
  const categories = await db.selectFrom('betting_market_categories').select(['id', 'key', 'name']).orderBy('id').execute();
  const markets = await db.selectFrom('betting_markets').select(['category_id', 'sport_id']).where('category_id', 'is not', null).execute();
  const offered = new Map<number, 'every' | Set<number>>();
  for (const market of markets) {
    const id = Number(market.category_id);
    const sports = offered.get(id) ?? new Set<number>();
    if (sports === 'every') continue;
    offered.set(id, market.sport_id === null ? 'every' : sports.add(Number(market.sport_id)));
  }
  return categories.map((item) => ({ item, sports: offered.get(item.id) ?? new Set<number>() }));
}

async function readTeamsWithEvents(db: Kysely<Schema>, { start, end }: DayRange): Promise<ReadonlySet<number>> {
  const inRange = db.selectFrom('events').where('start_time', '>=', start).where('start_time', '<', end);
  const rows = await inRange
    .select('home_team_id as team_id')
    .union(inRange.select('away_team_id as team_id'))
    .execute();
  return new Set(rows.map((r) => Number(r.team_id)));
}
