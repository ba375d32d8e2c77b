import type { Kysely } from 'kysely';
import { readInChunks } from '../../platform/db/keyset.js';
import type { Schema } from '../../platform/db/schema.js';
import { leagueQualifiedKey } from './key-resolver.js';
import type { BettingMarketItem, LeagueItem, OperatorItem, PlayerItem, SportItem, TeamItem } from './references.schemas.js';

/**
 * Whole reference tables, read once per data version (they are small: hundreds of leagues
 * and teams, some thousands of players) and already in the shape the API shows. Ordered by id,
 * the stable order of every list.
 */
export interface ReferencesRepository {
  sports(): Promise<SportItem[]>;
  leagues(): Promise<LeagueItem[]>;
  teams(): Promise<TeamItem[]>;
  /** Players with the league of their team, for the league_key filter. */
  players(): Promise<Array<{ item: PlayerItem; leagueId: number }>>;
  operators(): Promise<OperatorItem[]>;
  /** Markets with their sport (null: offered for every sport), for the sport_id filter. */
  bettingMarkets(): Promise<Array<{ item: BettingMarketItem; sportId: number | null }>>;
}

export function createReferencesRepository(db: Kysely<Schema>): ReferencesRepository {
  return {
    sports: () => db.selectFrom('sports').select(['id', 'key', 'name']).orderBy('id').execute(),

    operators: () => db.selectFrom('operators').select(['id', 'key', 'name']).orderBy('id').execute(),

    async leagues() {
      const rows = await db.selectFrom('leagues').selectAll().orderBy('id').execute();
      return rows.map((r) => ({
        id: r.id,
        key: r.key,
        qualified_key: leagueQualifiedKey(r.key, r.country_key),
        name: r.name,
        sport_id: r.sport_id,
        country: r.country_key ? { key: r.country_key, name: r.country_name ?? r.country_key } : null,
      }));
    },

    // Teams and players run to thousands (55,000 players at --scale 10): read in keyset chunks.
    teams: () =>
      readInChunks(
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
      ),

    players: () =>
      readInChunks(
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
      ),

    async bettingMarkets() {
      const rows = await db.selectFrom('betting_markets').selectAll().orderBy('id').execute();
      return rows.map((r) => ({
        item: { id: r.id, key: r.key, name: r.name, category: r.category, entity_type: r.entity_type },
        sportId: r.sport_id,
      }));
    },
  };
}
