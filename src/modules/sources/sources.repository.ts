import { type Kysely, sql, type Transaction } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { AliasesTable, EventsTable, ExternalIdsTable, OddsTable, Schema, SourceQueueTable } from '../../platform/db/schema.js';

/** Ids per statement: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/** The tables whose ids a source allocates (the next free one) for the records it makes. */
export type AllocatedTable = 'sports' | 'leagues' | 'teams' | 'events' | 'operators' | 'betting_markets' | 'betting_market_positions' | 'event_periods' | 'odds';

export interface Named {
  id: number;
  key: string;
  name: string;
}

/** The columns of a StoredEvent. */
const EVENT_COLUMNS = ['id', 'league_id', 'home_team_id', 'away_team_id', 'start_time', 'status', 'home_score', 'away_score'] as const;

/** A stored event, as the writer matches a source's match to it. */
export type StoredEvent = Pick<EventsTable, (typeof EVENT_COLUMNS)[number]>;

/** A stored full-time odds row, as the writer applies a source's price to it. */
export type StoredOdds = Pick<OddsTable, 'id' | 'event_id' | 'operator_id' | 'betting_market_id' | 'position' | 'line' | 'price_decimal' | 'status' | 'updated_at'> & { is_main: boolean };

const num = (value: unknown): number => Number(value);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The source importer's reads and writes: in the import's transaction, or (the admin lists) outside any. */
export interface SourcesRepository {
  /** The largest id the table holds, 0 when it is empty. */
  maxId(table: AllocatedTable): Promise<number>;
  /** Every key the source keeps of a record type: external id → our id. */
  externalIds(source: string, entityType: string): Promise<Map<string, number>>;
  /** The records of a type the source has a key of (matched or made). */
  linkedIds(source: string, entityType: string): Promise<Set<number>>;
  /** Stores sources' keys; a key already stored is kept as it is. */
  insertExternalIds(rows: readonly ExternalIdsTable[]): Promise<void>;
  /** The stored keys that match every given field (at most 1,000). */
  findExternalIds(filter: { source?: string; entityType?: string; externalId?: string; entityId?: number }): Promise<ExternalIdsTable[]>;
  /** The source's aliases of a record type: `${scope_id}/${name_key}` → our id. */
  aliases(source: string, entityType: string): Promise<Map<string, number>>;
  /** The stored aliases of a source and a record type, either or both (at most 1,000). */
  listAliases(filter: { source?: string; entityType?: string }): Promise<AliasesTable[]>;
  sports(): Promise<Named[]>;
  operators(): Promise<Named[]>;
  leaguesOf(sportId: number): Promise<Named[]>;
  teamsOf(leagueId: number): Promise<Named[]>;
  /** The betting markets or positions of these keys. */
  byKey(table: 'betting_markets' | 'betting_market_positions', keys: readonly string[]): Promise<Named[]>;
  /** The id of a sport's event period of this key, when it is stored. */
  eventPeriod(sportId: number, key: string): Promise<number | undefined>;
  /** The id of the team, league, sport or operator, when it is stored. */
  exists(table: 'teams' | 'leagues' | 'sports' | 'operators', id: number): Promise<{ scope: number } | undefined>;
  eventsByIds(ids: readonly number[]): Promise<StoredEvent[]>;
  /** The events of a league between two teams whose kick-off is within `windowMs` of `start`. */
  eventsNear(leagueId: number, home: number, away: number, start: number, windowMs: number): Promise<StoredEvent[]>;
  /** The full-time odds (no player, no period) of these events. */
  oddsOfEvents(eventIds: readonly number[]): Promise<StoredOdds[]>;
  /** The review queue's rows, of one source or all, oldest first. */
  queue(source?: string): Promise<SourceQueueTable[]>;
  /** Puts rows in the review queue; a row of the same source and event replaces the one waiting. */
  enqueue(rows: readonly SourceQueueTable[]): Promise<void>;
  /** Takes these events' rows out of the source's queue. */
  dequeue(source: string, eventKeys: readonly string[]): Promise<void>;
  queueSize(): Promise<number>;
}

type Db = Kysely<Schema> | Transaction<Schema>;

/** The statements over `db`: the import's transaction, or the database itself for the admin lists. */
export function createSourcesRepository(db: Db): SourcesRepository {
  return { ...keyStatements(db), ...recordReads(db), ...eventReads(db), ...queueStatements(db) };
}

/** The sources' keys of our records, and the names bound to them. */
function keyStatements(db: Db): Pick<SourcesRepository, 'maxId' | 'externalIds' | 'linkedIds' | 'insertExternalIds' | 'findExternalIds' | 'aliases' | 'listAliases'> {
  return {
    async maxId(table: AllocatedTable): Promise<number> {
      const row = await db.selectFrom(table).select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
      return Number(row?.max ?? 0);
    },

    /** Every key the source keeps of a record type: external id → our id. */
    async externalIds(source: string, entityType: string): Promise<Map<string, number>> {
      const rows = await db.selectFrom('external_ids').select(['external_id', 'entity_id']).where('source', '=', source).where('entity_type', '=', entityType).execute();
      return new Map(rows.map((r) => [r.external_id, num(r.entity_id)]));
    },

    /** The records of a type the source has a key of (matched or made). */
    async linkedIds(source: string, entityType: string): Promise<Set<number>> {
      const rows = await db.selectFrom('external_ids').select('entity_id').where('source', '=', source).where('entity_type', '=', entityType).execute();
      return new Set(rows.map((r) => num(r.entity_id)));
    },

    async insertExternalIds(rows: readonly ExternalIdsTable[]): Promise<void> {
      for (const chunk of chunksOf(rows, CHUNK)) {
        await db.insertInto('external_ids').values([...chunk]).onConflict((oc) => oc.columns(['source', 'entity_type', 'external_id']).doNothing()).execute();
      }
    },

    async findExternalIds(filter: { source?: string; entityType?: string; externalId?: string; entityId?: number }): Promise<ExternalIdsTable[]> {
      let query = db.selectFrom('external_ids').selectAll();
      if (filter.source !== undefined) query = query.where('source', '=', filter.source);
      if (filter.entityType !== undefined) query = query.where('entity_type', '=', filter.entityType);
      if (filter.externalId !== undefined) query = query.where('external_id', '=', filter.externalId);
      if (filter.entityId !== undefined) query = query.where('entity_id', '=', filter.entityId);
      const rows = await query.orderBy('source').orderBy('entity_type').orderBy('external_id').limit(1_000).execute();
      return rows.map((r) => ({ ...r, entity_id: num(r.entity_id), created: num(r.created), created_at: num(r.created_at) }));
    },

    /** The source's aliases of a record type: `${scope_id}/${name_key}` → our id. */
    async aliases(source: string, entityType: string): Promise<Map<string, number>> {
      const rows = await db.selectFrom('aliases').select(['scope_id', 'name_key', 'entity_id']).where('source', '=', source).where('entity_type', '=', entityType).execute();
      return new Map(rows.map((r) => [`${num(r.scope_id)}/${r.name_key}`, num(r.entity_id)]));
    },

    async listAliases(filter: { source?: string; entityType?: string }): Promise<AliasesTable[]> {
      let query = db.selectFrom('aliases').selectAll();
      if (filter.source !== undefined) query = query.where('source', '=', filter.source);
      if (filter.entityType !== undefined) query = query.where('entity_type', '=', filter.entityType);
      const rows = await query.orderBy('source').orderBy('entity_type').orderBy('name_key').limit(1_000).execute();
      return rows.map((r) => ({ ...r, scope_id: num(r.scope_id), entity_id: num(r.entity_id), created_at: num(r.created_at) }));
    },
  };
}

/** The records a source's names are matched against. */
function recordReads(db: Db): Pick<SourcesRepository, 'sports' | 'operators' | 'leaguesOf' | 'teamsOf' | 'byKey' | 'eventPeriod' | 'exists'> {
  return {
    async sports(): Promise<Named[]> {
      return (await db.selectFrom('sports').select(['id', 'key', 'name']).execute()).map((r) => ({ ...r, id: num(r.id) }));
    },
    async operators(): Promise<Named[]> {
      return (await db.selectFrom('operators').select(['id', 'key', 'name']).execute()).map((r) => ({ ...r, id: num(r.id) }));
    },
    async leaguesOf(sportId: number): Promise<Named[]> {
      return (await db.selectFrom('leagues').select(['id', 'key', 'name']).where('sport_id', '=', sportId).execute()).map((r) => ({ ...r, id: num(r.id) }));
    },
    async teamsOf(leagueId: number): Promise<Named[]> {
      return (await db.selectFrom('teams').select(['id', 'key', 'name']).where('league_id', '=', leagueId).execute()).map((r) => ({ ...r, id: num(r.id) }));
    },
    async byKey(table: 'betting_markets' | 'betting_market_positions', keys: readonly string[]): Promise<Named[]> {
      if (keys.length === 0) return [];
      return (await db.selectFrom(table).select(['id', 'key', 'name']).where('key', 'in', [...keys]).orderBy('id').execute()).map((r) => ({ ...r, id: num(r.id) }));
    },
    async eventPeriod(sportId: number, key: string): Promise<number | undefined> {
      const row = await db.selectFrom('event_periods').select('id').where('sport_id', '=', sportId).where('key', '=', key).executeTakeFirst();
      return row === undefined ? undefined : num(row.id);
    },
    /** The id of the team, league, sport or operator, when it is stored. */
    async exists(table: 'teams' | 'leagues' | 'sports' | 'operators', id: number): Promise<{ scope: number } | undefined> {
      if (table === 'teams') {
        const row = await db.selectFrom('teams').select('league_id').where('id', '=', id).executeTakeFirst();
        return row && { scope: num(row.league_id) };
      }
      if (table === 'leagues') {
        const row = await db.selectFrom('leagues').select('sport_id').where('id', '=', id).executeTakeFirst();
        return row && { scope: num(row.sport_id) };
      }
      const row = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
      return row && { scope: 0 };
    },
  };
}

/** The stored events and odds a source's rows are matched against. */
function eventReads(db: Db): Pick<SourcesRepository, 'eventsByIds' | 'eventsNear' | 'oddsOfEvents'> {
  return {
    async eventsByIds(ids: readonly number[]): Promise<StoredEvent[]> {
      const found: StoredEvent[] = [];
      for (const chunk of chunksOf([...new Set(ids)], CHUNK)) {
        const rows = await db
          .selectFrom('events')
          .select(EVENT_COLUMNS)
          .where('id', 'in', [...chunk])
          .execute();
        for (const r of rows) found.push(eventOf(r));
      }
      return found;
    },

    /** The events of a league between two teams whose kick-off is within `windowMs` of `start`. */
    async eventsNear(leagueId: number, home: number, away: number, start: number, windowMs: number): Promise<StoredEvent[]> {
      const rows = await db
        .selectFrom('events')
        .select(EVENT_COLUMNS)
        .where('league_id', '=', leagueId)
        .where('home_team_id', '=', home)
        .where('away_team_id', '=', away)
        .where('start_time', '>=', start - windowMs)
        .where('start_time', '<=', start + windowMs)
        .orderBy('id')
        .execute();
      return rows.map(eventOf);
    },

    async oddsOfEvents(eventIds: readonly number[]): Promise<StoredOdds[]> {
      const found: StoredOdds[] = [];
      for (const chunk of chunksOf([...new Set(eventIds)], CHUNK)) {
        const rows = await db
          .selectFrom('odds')
          .select(['id', 'event_id', 'operator_id', 'betting_market_id', 'position', 'line', 'price_decimal', 'status', 'is_main', 'updated_at'])
          .where('event_id', 'in', [...chunk])
          .where('player_id', 'is', null)
          .where('event_period_id', 'is', null)
          .execute();
        for (const r of rows) {
          found.push({ id: num(r.id), event_id: num(r.event_id), operator_id: num(r.operator_id), betting_market_id: num(r.betting_market_id), position: r.position, line: numOrNull(r.line), price_decimal: num(r.price_decimal), status: r.status, is_main: num(r.is_main) === 1, updated_at: num(r.updated_at) });
        }
      }
      return found;
    },
  };
}

/** The review queue: the rows that wait on a name no rule matched. */
function queueStatements(db: Db): Pick<SourcesRepository, 'queue' | 'enqueue' | 'dequeue' | 'queueSize'> {
  return {
    async queue(source?: string): Promise<SourceQueueTable[]> {
      let query = db.selectFrom('source_queue').selectAll();
      if (source !== undefined) query = query.where('source', '=', source);
      return (await query.orderBy('queued_at').orderBy('event_key').execute()).map((r) => ({ ...r, queued_at: num(r.queued_at) }));
    },
    async enqueue(rows: readonly SourceQueueTable[]): Promise<void> {
      for (const chunk of chunksOf(rows, 200)) {
        await db
          .insertInto('source_queue')
          .values([...chunk])
          .onConflict((oc) => oc.columns(['source', 'event_key']).doUpdateSet((eb) => ({ row: eb.ref('excluded.row'), unmatched: eb.ref('excluded.unmatched') })))
          .execute();
      }
    },
    async dequeue(source: string, eventKeys: readonly string[]): Promise<void> {
      for (const chunk of chunksOf([...eventKeys], CHUNK)) await db.deleteFrom('source_queue').where('source', '=', source).where('event_key', 'in', [...chunk]).execute();
    },
    async queueSize(): Promise<number> {
      const row = await db.selectFrom('source_queue').select(sql<number>`count(*)`.as('n')).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

function eventOf(r: { id: unknown; league_id: unknown; home_team_id: unknown; away_team_id: unknown; start_time: unknown; status: string; home_score: unknown; away_score: unknown }): StoredEvent {
  return {
    id: num(r.id),
    league_id: num(r.league_id),
    home_team_id: num(r.home_team_id),
    away_team_id: num(r.away_team_id),
    start_time: num(r.start_time),
    status: r.status,
    home_score: numOrNull(r.home_score),
    away_score: numOrNull(r.away_score),
  };
}
