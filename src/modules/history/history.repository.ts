import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import type { OddsHistoryTable, Schema } from '../../platform/db/schema.js';
import { iso } from '../../shared/wire.js';
import type { HistoryFileItem } from './history-files.js';
import type { HistoryItem } from './history.schemas.js';

type HistoryRow = Selectable<OddsHistoryTable>;
type Grade = Pick<HistoryFileItem, 'outcome' | 'closing_price'>;

export interface HistoryQuery {
  eventId: number;
  operatorIds: readonly number[] | undefined;
  bettingMarketIds: readonly number[] | undefined;
  /** [since, until) in epoch ms; undefined: open. */
  since: number | undefined;
  until: number | undefined;
}

/** How much history a selection holds: its ETag is made from these (rows are never updated). */
export interface HistoryStats {
  count: number;
  /** The newest row's id, 0 when there is none. */
  lastId: number;
  /** The newest grade's id of the odds rows concerned, 0 when there is none: a re-grade changes the files. */
  lastGradeId: number;
}

/** A position in an order by (time, id): an event's history by changed_at, a league's events by start_time. */
export interface Cursor {
  at: number;
  id: number;
}

/** Which changes a stream client follows: none given, every change. */
export interface StreamFilter {
  eventIds: readonly number[];
  leagueIds: readonly number[];
}

/** A history row with the league of its event, for the streams' filters. */
export interface StreamRow {
  item: HistoryItem;
  leagueId: number | null;
}

export function createHistoryRepository(database: Database) {
  const db: Kysely<Schema> = database.db;

  const forEvent = (eventId: number) => db.selectFrom('odds_history').where('event_id', '=', eventId);

  return {
    /** Ids of an event's changes in time order (changed_at, then id): an id list, read off the event loop. */
    ids(query: HistoryQuery): Promise<Float64Array> {
      let select = forEvent(query.eventId).select('id');
      if (query.operatorIds) select = select.where('operator_id', 'in', query.operatorIds);
      if (query.bettingMarketIds) select = select.where('betting_market_id', 'in', query.bettingMarketIds);
      if (query.since !== undefined) select = select.where('changed_at', '>=', query.since);
      if (query.until !== undefined) select = select.where('changed_at', '<', query.until);
      return database.readIds(select.orderBy('changed_at').orderBy('id'));
    },

    async items(ids: readonly number[]): Promise<Map<number, HistoryItem>> {
      const rows = await db.selectFrom('odds_history').selectAll().where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [Number(row.id), itemOf(row)]));
    },

    async eventStats(eventId: number): Promise<HistoryStats> {
      const row = await forEvent(eventId)
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<number | null>('id').as('last_id')])
        .executeTakeFirst();
      const grade = await db
        .selectFrom('odds_grades')
        .select((eb) => eb.fn.max<number | null>('id').as('last_id'))
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      return { count: Number(row?.count ?? 0), lastId: Number(row?.last_id ?? 0), lastGradeId: Number(grade?.last_id ?? 0) };
    },

    /** Up to `limit` changes of an event after `cursor` in time order, none newer than `lastId`, with their odds rows' grades. */
    async eventChunk(eventId: number, lastId: number, cursor: Cursor, limit: number): Promise<Array<{ item: HistoryItem; grade: Grade }>> {
      const rows = await db
        .selectFrom('odds_history as h')
        .leftJoin('odds_grades as g', (join) => join.onRef('g.odds_id', '=', 'h.odds_id').on('g.superseded_at', 'is', null))
        .selectAll('h')
        .select(['g.outcome', 'g.closing_price'])
        .where('h.event_id', '=', eventId)
        .where('h.id', '<=', lastId)
        .where((eb) => eb(eb.refTuple('h.changed_at', 'h.id'), '>', eb.tuple(cursor.at, cursor.id)))
        .orderBy('h.changed_at')
        .orderBy('h.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ item: itemOf(row), grade: { outcome: row.outcome, closing_price: orNull(row.closing_price) } }));
    },

    /** Those of `ids` that name no event. */
    async unknownEvents(ids: readonly number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const found = new Set((await db.selectFrom('events').select('id').where('id', 'in', ids).execute()).map((row) => Number(row.id)));
      return ids.filter((id) => !found.has(id));
    },

    /**
     * The newest id ever given to a change (0 before the first), also when the purge has deleted
     * it: neither database gives an id twice, so no change will have an id above this one yet.
     */
    async lastIssuedId(): Promise<number> {
      const row =
        database.dialect === 'sqlite'
          ? await sql<{ last: number | null }>`select seq as last from sqlite_sequence where name = 'odds_history'`.execute(db)
          : await sql<{ last: string | null }>`select pg_sequence_last_value(pg_get_serial_sequence('odds_history', 'id')::regclass) as last`.execute(db);
      return Number(row.rows[0]?.last ?? 0);
    },

    /** The newest history id (0 when there is none): where a stream without Last-Event-ID starts. */
    async lastId(): Promise<number> {
      const row = await db
        .selectFrom('odds_history')
        .select((eb) => eb.fn.max<number | null>('id').as('last_id'))
        .executeTakeFirst();
      return Number(row?.last_id ?? 0);
    },

    /**
     * Changes with an id in (afterId, upToId], in id order (the order imports committed them), at
     * most `limit`, with the league of their event; only those `filter` follows when given.
     */
    async rowsAfter(afterId: number, upToId: number, limit: number, filter?: StreamFilter): Promise<StreamRow[]> {
      let select = db
        .selectFrom('odds_history as h')
        .leftJoin('events as e', 'e.id', 'h.event_id')
        .selectAll('h')
        .select('e.league_id')
        .where('h.id', '>', afterId)
        .where('h.id', '<=', upToId);
      if (filter && (filter.eventIds.length > 0 || filter.leagueIds.length > 0)) {
        const { eventIds, leagueIds } = filter;
        select = select.where((eb) =>
          eb.or([...(eventIds.length > 0 ? [eb('h.event_id', 'in', eventIds)] : []), ...(leagueIds.length > 0 ? [eb('e.league_id', 'in', leagueIds)] : [])]),
        );
      }
      const rows = await select.orderBy('h.id').limit(limit).execute();
      return rows.map((row) => ({ item: itemOf(row), leagueId: row.league_id === null ? null : Number(row.league_id) }));
    },

    /** The events of a league starting in [start, end), by start time then id, `limit` after `after`. */
    async leagueEvents(leagueId: number, start: number, end: number, after: Cursor, limit: number): Promise<Cursor[]> {
      const rows = await db
        .selectFrom('events')
        .select(['id', 'start_time'])
        .where('league_id', '=', leagueId)
        .where('start_time', '>=', start)
        .where('start_time', '<', end)
        .where((eb) => eb(eb.refTuple('start_time', 'id'), '>', eb.tuple(after.at, after.id)))
        .orderBy('start_time')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ at: Number(row.start_time), id: Number(row.id) }));
    },

    /** Count and newest id of the history of a league's events starting in [start, end). */
    async leagueStats(leagueId: number, start: number, end: number): Promise<HistoryStats> {
      const row = await db
        .selectFrom('odds_history as h')
        .innerJoin('events as e', 'e.id', 'h.event_id')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<number | null>('h.id').as('last_id')])
        .where('e.league_id', '=', leagueId)
        .where('e.start_time', '>=', start)
        .where('e.start_time', '<', end)
        .executeTakeFirst();
      const grade = await db
        .selectFrom('odds_grades as g')
        .innerJoin('events as e', 'e.id', 'g.event_id')
        .select((eb) => eb.fn.max<number | null>('g.id').as('last_id'))
        .where('e.league_id', '=', leagueId)
        .where('e.start_time', '>=', start)
        .where('e.start_time', '<', end)
        .executeTakeFirst();
      return { count: Number(row?.count ?? 0), lastId: Number(row?.last_id ?? 0), lastGradeId: Number(grade?.last_id ?? 0) };
    },
  };
}

export type HistoryRepository = ReturnType<typeof createHistoryRepository>;

const orNull = (value: number | null): number | null => (value === null ? null : Number(value));

function itemOf(row: HistoryRow): HistoryItem {
  return {
    id: Number(row.id),
    odds_id: Number(row.odds_id),
    event_id: Number(row.event_id),
    operator_id: Number(row.operator_id),
    betting_market_id: Number(row.betting_market_id),
    position: row.position,
    changed_at: iso(Number(row.changed_at)),
    price_decimal: { from: orNull(row.price_from), to: Number(row.price_to) },
    line: { from: orNull(row.line_from), to: orNull(row.line_to) },
    status: { from: row.status_from, to: row.status_to },
  };
}
