import type { Dataset } from '../import/index.js';
import type { ExternalIdsTable } from '../../platform/db/schema.js';
import { keyOfName, nameKey } from '../../shared/name-key.js';
import type { Mapped, SourceLeague, SourceName } from './source-batch.js';
import type { AllocatedTable, Named, SourcesRepository } from './sources.repository.js';

/** A name no rule matched, in the scope it was looked for in (a team's league, a league's sport). */
export interface Unmatched {
  entity_type: 'league' | 'team';
  name: string;
  scope_id: number;
}

/** A name resolved to our record, left for the review queue, or refused: a row problem at the source's column. */
export type Found = { id: number } | { unmatched: Unmatched } | { refused: { column: string; message: string } };

/** The column (or field) that gives a source's league code: where an unknown code is refused. */
const LEAGUE_COLUMN: Record<SourceName, string> = { 'football-data': 'Div', 'the-odds-api': 'sport_key' };

/** Names the operator chose to create from the queue: `${entity_type}/${scope_id}/${name_key}`. */
export type Forced = ReadonlySet<string>;
export const forcedKey = (entityType: string, scopeId: number, name: string) => `${entityType}/${scopeId}/${nameKey(name)}`;

/** The records a source's names stand for, found or made, and what the batch made so far. */
export interface Resolver {
  /** A sport: by the source's key of it, an alias, our key, its name; else made. */
  sport(given: { key: string; name: string }): Promise<number>;
  /** A league of a sport, or unmatched when a new name meets records the source has no key of. */
  league(given: SourceLeague, sportId: number): Promise<Found>;
  /** A team of a league, or unmatched as a league is. */
  team(name: string, leagueId: number): Promise<Found>;
  /** A book: by its code, an alias, our key from the shipped table (`PS` and `pinnacle` are both `pinnacle`), its name; else made. */
  operator(book: Mapped): Promise<number>;
  /** The next free id of a table, counting those given out in this batch. */
  allocate(table: AllocatedTable): Promise<number>;
  /** Keeps the source's key of a record (the first one given for a key stays). */
  link(type: string, externalId: string, id: number, made: boolean): Promise<void>;
  /** The event's own key of this source, when it has one. */
  eventOfKey(eventKey: string): Promise<number | undefined>;
  /** The records made so far. */
  created: Required<Pick<Dataset, 'sports' | 'leagues' | 'teams' | 'operators'>>;
  /** Records made by the writer (a sport's first-half period). */
  extra: { event_periods: NonNullable<Dataset['event_periods']> };
  /** The keys to store. */
  links: ExternalIdsTable[];
}

/** What the resolver's rules share: the ids it gives out, what it has read, and what it has made. */
interface Memory extends Pick<Resolver, 'allocate' | 'link' | 'created' | 'links'> {
  keysOf(type: string): Promise<Map<string, number>>;
  aliasOf(type: string, scope: number, ...names: string[]): Promise<number | undefined>;
  recordsOf(scope: string, load: () => Promise<Named[]>): Promise<Named[]>;
  holdsForeign(type: string, records: readonly Named[]): Promise<boolean>;
}

/**
 * Finds or makes the records a source's names stand for (docs/operations.md#loading-real-data),
 * in this order, the first rule that answers wins: the source's own key of the record (external_ids),
 * an alias of the name in its scope, our key (the source's shipped table: sports, leagues, operators),
 * the name after normalisation (nameKey) in its scope. Failing all of them a league or a team is
 * made, unless its scope holds records the source has no key of (another source's, or native):
 * then it is unmatched and its row waits in the review queue (decision 0296).
 */
export function createResolver(repo: SourcesRepository, source: SourceName, now: number, forced: Forced = new Set()): Resolver {
  const memory = createMemory(repo, source, now);
  return {
    ...recordFinders(repo, source, memory, forced),
    allocate: memory.allocate,
    link: memory.link,
    eventOfKey: async (eventKey: string) => (await memory.keysOf('event')).get(eventKey),
    created: memory.created,
    extra: { event_periods: [] },
    links: memory.links,
  };
}

/** The resolver's memory over one batch: each table's next id, and each read once. */
function createMemory(repo: SourcesRepository, source: SourceName, now: number): Memory {
  const next = new Map<AllocatedTable, number>();
  const created: Resolver['created'] = { sports: [], leagues: [], teams: [], operators: [] };
  const links: ExternalIdsTable[] = [];
  const keyed = new Map<string, Map<string, number>>();
  const linked = new Map<string, Set<number>>();
  const aliases = new Map<string, Map<string, number>>();
  const scoped = new Map<string, Named[]>();

  async function allocate(table: AllocatedTable): Promise<number> {
    const id = next.get(table) ?? (await repo.maxId(table)) + 1;
    next.set(table, id + 1);
    return id;
  }
  async function keysOf(type: string) {
    let map = keyed.get(type);
    if (map === undefined) keyed.set(type, (map = await repo.externalIds(source, type)));
    return map;
  }
  async function linkedOf(type: string) {
    let set = linked.get(type);
    if (set === undefined) linked.set(type, (set = await repo.linkedIds(source, type)));
    return set;
  }
  async function aliasOf(type: string, scope: number, ...names: string[]): Promise<number | undefined> {
    let map = aliases.get(type);
    if (map === undefined) aliases.set(type, (map = await repo.aliases(source, type)));
    for (const name of names) {
      const id = map.get(`${scope}/${nameKey(name)}`);
      if (id !== undefined) return id;
    }
    return undefined;
  }
  /** The stored records of a scope (a sport's leagues, a league's teams, every sport or operator), with those made in this batch. */
  async function recordsOf(scope: string, load: () => Promise<Named[]>): Promise<Named[]> {
    let list = scoped.get(scope);
    if (list === undefined) scoped.set(scope, (list = await load()));
    return list;
  }
  async function link(type: string, externalId: string, id: number, made: boolean): Promise<void> {
    const map = await keysOf(type);
    if (map.has(externalId)) return;
    map.set(externalId, id);
    (await linkedOf(type)).add(id);
    links.push({ source, entity_type: type, external_id: externalId, entity_id: id, created: made ? 1 : 0, created_at: now });
  }
  /** Whether the scope holds a record the source has no key of: then a new name waits for the operator. */
  async function holdsForeign(type: string, records: readonly Named[]): Promise<boolean> {
    const mine = await linkedOf(type);
    return records.some((r) => !mine.has(r.id));
  }

  return { allocate, keysOf, aliasOf, recordsOf, link, holdsForeign, created, links };
}

const byName = (records: readonly Named[], ...names: string[]) => {
  const wanted = new Set(names.map(nameKey));
  return records.filter((r) => wanted.has(nameKey(r.name))).sort((a, b) => a.id - b.id)[0]?.id;
};

/** The rules, for each kind of record a source names. */
function recordFinders(repo: SourcesRepository, source: SourceName, memory: Memory, forced: Forced): Pick<Resolver, 'sport' | 'league' | 'team' | 'operator'> {
  const { allocate, keysOf, aliasOf, recordsOf, link, holdsForeign, created } = memory;

  async function sport(given: { key: string; name: string }): Promise<number> {
    const known = (await keysOf('sport')).get(given.key);
    if (known !== undefined) return known;
    const records = await recordsOf('sports', () => repo.sports());
    const found = (await aliasOf('sport', 0, given.key, given.name)) ?? records.find((r) => r.key === given.key)?.id ?? byName(records, given.name);
    const id = found ?? (await allocate('sports'));
    if (found === undefined) {
      created.sports.push({ id, key: given.key, name: given.name });
      records.push({ id, key: given.key, name: given.name });
    }
    await link('sport', given.key, id, found === undefined);
    return id;
  }

  async function league(given: SourceLeague, sportId: number): Promise<Found> {
    const known = (await keysOf('league')).get(given.sourceKey);
    if (known !== undefined) return { id: known };
    const records = await recordsOf(`leagues/${sportId}`, () => repo.leaguesOf(sportId));
    const found =
      (await aliasOf('league', sportId, given.sourceKey, given.name)) ??
      (given.key === undefined ? undefined : records.find((r) => r.key === given.key)?.id) ??
      byName(records, given.name);
    // A code the source's table does not know names no league we could make with confidence: a row problem until an alias maps it (decision 0302).
    if (found === undefined && given.key === undefined && !forced.has(forcedKey('league', sportId, given.sourceKey))) {
      return { refused: { column: LEAGUE_COLUMN[source], message: `${given.sourceKey} (${given.name}) is no league of ours: map it with POST /admin/v1/mapping/aliases (entity_type league)` } };
    }
    const id = found ?? (await allocate('leagues'));
    if (found === undefined) {
      const key = given.key ?? keyOfName(given.name);
      created.leagues.push({ id, key, name: given.name, sport_id: sportId, country_key: given.country?.key ?? null, country_name: given.country?.name ?? null });
      records.push({ id, key, name: given.name });
    }
    await link('league', given.sourceKey, id, found === undefined);
    return { id };
  }

  async function team(name: string, leagueId: number): Promise<Found> {
    const known = (await keysOf('team')).get(name);
    if (known !== undefined) return { id: known };
    const records = await recordsOf(`teams/${leagueId}`, () => repo.teamsOf(leagueId));
    const found = (await aliasOf('team', leagueId, name)) ?? byName(records, name);
    if (found === undefined && !forced.has(forcedKey('team', leagueId, name)) && (await holdsForeign('team', records))) {
      return { unmatched: { entity_type: 'team', name, scope_id: leagueId } };
    }
    const id = found ?? (await allocate('teams'));
    if (found === undefined) {
      created.teams.push({ id, key: keyOfName(name), name, league_id: leagueId });
      records.push({ id, key: keyOfName(name), name });
    }
    await link('team', name, id, found === undefined);
    return { id };
  }

  /** A book: by its code, an alias, our key from the shipped table (`PS` and `pinnacle` are both `pinnacle`), its name; else made. */
  async function operator(book: Mapped): Promise<number> {
    const known = (await keysOf('operator')).get(book.sourceKey);
    if (known !== undefined) return known;
    const records = await recordsOf('operators', () => repo.operators());
    const key = book.key ?? keyOfName(book.name);
    const found = (await aliasOf('operator', 0, book.sourceKey, book.name)) ?? records.find((r) => r.key === key)?.id ?? byName(records, book.name);
    const id = found ?? (await allocate('operators'));
    if (found === undefined) {
      created.operators.push({ id, key, name: book.name });
      records.push({ id, key, name: book.name });
    }
    await link('operator', book.sourceKey, id, found === undefined);
    return id;
  }

  return { sport, league, team, operator };
}
