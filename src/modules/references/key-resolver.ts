import type { Kysely } from 'kysely';
import type { ReadCache } from '../../platform/cache/read-cache.js';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { createKeysRepository, type KeyRow, type KeysRepository } from './keys.repository.js';

/**
 * Keys in the Odditt form: a plain key (`nba`) or a qualified one (`united-states.nba`).
 * Qualified keys: league `country.league` (plain key when it has no country), team
 * `league.team` (also `country.league.team`), player `team.player`. A key that names several records is ambiguous (409);
 * an unknown key is 404. Indexes are built once per data version.
 */
export type KeyedEntity = 'sport' | 'league' | 'team' | 'player' | 'operator';

export interface KeyResolver {
  /** The one id a key names. Throws 404 NOT_FOUND or 409 AMBIGUOUS_LOOKUP. */
  resolve(entity: KeyedEntity, key: string, field: string): Promise<number>;
  /** Every id a key names, for filters that may match several ("all leagues keyed nba"). */
  idsOf(entity: KeyedEntity, key: string): Promise<number[]>;
  /** An id given as a list's scope (e.g. league_id) must name a record: 404 otherwise. */
  requireId(entity: KeyedEntity, id: number, field: string): Promise<number>;
  /**
   * A list's scope given by id or key (`league_id` / `league_key`): the id wins, and the key is
   * then not even resolved; an unknown id or key is 404, an ambiguous key 409. Undefined when
   * neither is given.
   */
  scope(entity: KeyedEntity, given: { id?: number | null; key?: string | null }, fields: { id: string; key: string }): Promise<number | undefined>;
}

interface KeyIndex {
  byKey: Map<string, number[]>;
  ids: Set<number>;
}

export function createKeyResolver(deps: { db: Kysely<Schema>; cache: Pick<ReadCache, 'snapshot'> }): KeyResolver {
  const { cache } = deps;
  const repository = createKeysRepository(deps.db);
  const indexOf = (entity: KeyedEntity) => cache.snapshot(`keys:${entity}`, () => buildIndex(repository, entity));
  const indexes: Record<KeyedEntity, () => Promise<KeyIndex>> = {
    sport: indexOf('sport'),
    league: indexOf('league'),
    team: indexOf('team'),
    player: indexOf('player'),
    operator: indexOf('operator'),
  };
  const index = (entity: KeyedEntity) => indexes[entity]();

  async function idsOf(entity: KeyedEntity, key: string): Promise<number[]> {
    return (await index(entity)).byKey.get(key.toLowerCase()) ?? [];
  }

  async function requireId(entity: KeyedEntity, id: number, field: string): Promise<number> {
    if (!(await index(entity)).ids.has(id)) throw new ApiError('NOT_FOUND', `no ${entity} with ${field} ${id}`);
    return id;
  }

  async function resolve(entity: KeyedEntity, key: string, field: string): Promise<number> {
    const ids = await idsOf(entity, key);
    const [id] = ids;
    if (id === undefined) throw new ApiError('NOT_FOUND', `no ${entity} with ${field} "${key}"`);
    if (ids.length > 1) {
      throw new ApiError('AMBIGUOUS_LOOKUP', `${field} "${key}" matches ${ids.length} ${entity}s; use the qualified key or the id`);
    }
    return id;
  }

  return {
    idsOf,
    requireId,
    resolve,
    async scope(entity, given, fields) {
      if (given.id !== undefined && given.id !== null) return requireId(entity, given.id, fields.id);
      if (given.key !== undefined && given.key !== null) return resolve(entity, given.key, fields.key);
      return undefined;
    },
  };
}

async function buildIndex(keys: KeysRepository, entity: KeyedEntity): Promise<KeyIndex> {
  const index: KeyIndex = { byKey: new Map(), ids: new Set() };
  // Indexed as the rows arrive, so that the work is spread over the chunks of the read.
  switch (entity) {
    case 'sport':
      addRows(index, await keys.sports(), (r) => [r.key]);
      break;
    case 'operator':
      addRows(index, await keys.operators(), (r) => [r.key]);
      break;
    case 'league':
      addRows(index, await keys.leagues(), (r) => [r.key, r.country_key ? `${r.country_key}.${r.key}` : null]);
      break;
    case 'team':
      for await (const rows of keys.teams()) {
        // Two leagues may share a key (premier-league in two countries): the fully qualified
        // `country.league.team` still names one team.
        addRows(index, rows, (r) => [r.key, `${r.league_key}.${r.key}`, r.country_key ? `${r.country_key}.${r.league_key}.${r.key}` : null]);
      }
      break;
    case 'player':
      for await (const rows of keys.players()) addRows(index, rows, (r) => [r.key, `${r.team_key}.${r.key}`]);
      break;
  }
  return index;
}

/** Indexes each row under every key that names it (null: a qualified form the row does not have). */
function addRows<R extends KeyRow>(index: KeyIndex, rows: readonly R[], keysOf: (row: R) => ReadonlyArray<string | null>): void {
  for (const row of rows) {
    index.ids.add(row.id);
    for (const key of keysOf(row)) {
      if (key === null) continue;
      const k = key.toLowerCase();
      const ids = index.byKey.get(k);
      if (!ids) index.byKey.set(k, [row.id]);
      else if (!ids.includes(row.id)) ids.push(row.id);
    }
  }
}

/** The qualified key of a league, as the API shows it. */
export function leagueQualifiedKey(key: string, countryKey: string | null): string {
  return countryKey ? `${countryKey}.${key}` : key;
}
