import type { Kysely } from 'kysely';
import { keysetChunks } from '../../platform/db/keyset.js';
import type { Schema } from '../../platform/db/schema.js';

/** A record's id and its own key. */
export interface KeyRow {
  id: number;
  key: string;
}

/**
 * The stored keys the key resolver indexes (key-resolver.ts), with the keys of the records that
 * qualify them. Thousands of teams and tens of thousands of players: those come in keyset chunks,
 * so that the resolver indexes each chunk as it arrives.
 */
export interface KeysRepository {
  /** Every sport's key. */
  sports(): Promise<KeyRow[]>;
  /** Every operator's key. */
  operators(): Promise<KeyRow[]>;
  /** Every league's key, with its country's key (null: a league of no country). */
  leagues(): Promise<Array<KeyRow & { country_key: string | null }>>;
  /** Every team's key, with its league's key and that league's country key, in id order. */
  teams(): AsyncIterable<Array<KeyRow & { league_key: string; country_key: string | null }>>;
  /** Every player's key, with its team's key, in id order. */
  players(): AsyncIterable<Array<KeyRow & { team_key: string }>>;
}

export function createKeysRepository(db: Kysely<Schema>): KeysRepository {
  return {
    sports: () => db.selectFrom('sports').select(['id', 'key']).execute(),
    operators: () => db.selectFrom('operators').select(['id', 'key']).execute(),
    leagues: () => db.selectFrom('leagues').select(['id', 'key', 'country_key']).execute(),
    teams: () =>
      keysetChunks((after, limit) =>
        db
          .selectFrom('teams')
          .innerJoin('leagues', 'leagues.id', 'teams.league_id')
          .select(['teams.id as id', 'teams.key as key', 'leagues.key as league_key', 'leagues.country_key as country_key'])
          .where('teams.id', '>', after)
          .orderBy('teams.id')
          .limit(limit)
          .execute(),
      ),
    players: () =>
      keysetChunks((after, limit) =>
        db
          .selectFrom('players')
          .innerJoin('teams', 'teams.id', 'players.team_id')
          .select(['players.id as id', 'players.key as key', 'teams.key as team_key'])
          .where('players.id', '>', after)
          .orderBy('players.id')
          .limit(limit)
          .execute(),
      ),
  };
}
