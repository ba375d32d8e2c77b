import { type Expression, type Kysely, type Selectable, type SelectQueryBuilder, sql, type StringReference } from 'kysely';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import type { Database } from '../../platform/db/database.js';
import type { OddsHistoryTable, Schema } from '../../platform/db/schema.js';
import { iso } from '../../shared/wire.js';
import type { HistoryFileItem } from './history-files.js';
import type { HistoryItem } from './history.schemas.js';
import { numberOrNull } from '../../platform/db/column-values.js';

/** The price history's queries: an event's changes as a list and as files, a league's for its export, and the streams' reads. */
export interface HistoryRepository {
  /** Ids of an event's changes in time order (changed_at, then id): an id list, read off the event loop. */
  ids(query: HistoryQuery): Promise<Float64Array>;
  /** Changes by id. */
  items(ids: readonly number[]): Promise<Map<number, HistoryItem>>;
  /** How much history an event holds, and its newest grade: an event file's tag. */
  eventStats(eventId: number): Promise<HistoryStats>;
  /** Up to `limit` changes of an event after `cursor` in time order, none newer than `lastId`, with their odds rows' grades. */
  eventChunk(eventId: number, lastId: number, cursor: Cursor, limit: number): Promise<Array<{ item: HistoryItem; grade: Grade }>>;
  /** Those of `ids` that name no event. */
  unknownEvents(ids: readonly number[]): Promise<number[]>;
  /**
   * The newest id ever given to a change (0 before the first), also when the purge has deleted
   * it: neither database gives an id twice, so no change will have an id above this one yet.
   */
  lastIssuedId(): Promise<number>;
  /** The newest history id (0 when there is none): where a stream without Last-Event-ID starts. */
  lastId(): Promise<number>;
  /** The oldest history id kept (undefined when there is none). */
  firstId(): Promise<number | undefined>;
  /**
   * Changes with an id in (afterId, upToId], in id order (the order imports committed them), at
   * most `limit`, with the league of their event; only those `filter` follows when given.
   */
  rowsAfter(afterId: number, upToId: number, limit: number, filter?: StreamFilter): Promise<StreamRow[]>;
  /** The events that are competitions: a stream that does not ask for them leaves their changes out (docs/data.md#competitions). */
  competitionIds(): Promise<number[]>;
  /** The events of a league starting in [start, end), by start time then id, `limit` after `after`. */
  leagueEvents(leagueId: number, start: number, end: number, after: Cursor, limit: number, kinds: readonly string[]): Promise<Cursor[]>;
  /** Count and newest id of the history of a league's events starting in [start, end). */
  leagueStats(leagueId: number, start: number, end: number, kinds: readonly string[]): Promise<HistoryStats>;
}

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
  /** The kinds of events followed (`event_kinds`); absent: every kind (the history's own processors). */
  kinds?: readonly string[];
}

/** A history row with the league of its event, for the streams' filters, and when it was recorded (the webhooks' latency starts there). */
export interface StreamRow {
  item: HistoryItem;
  leagueId: number | null;
  recordedAt: number;
}

/**
 * The columns of a recorded change besides its id, in the table's order: the import writes them,
 * and the files show them in this order (the prices as price_decimal_from and price_decimal_to).
 */
export const CHANGE_COLUMNS = [
  'odds_id',
  'event_id',
  'operator_id',
  'betting_market_id',
  'position',
  'changed_at',
  'price_from',
  'price_to',
  'line_from',
  'line_to',
  'status_from',
  'status_to',
] as const;
export type ChangeColumn = (typeof CHANGE_COLUMNS)[number];

export function createHistoryRepository(database: Database): HistoryRepository {
  const { db } = database;
  return {
    ids: (query) => changeIds(database, query),
    items: (ids) => changesById(db, ids),
    eventStats: (eventId) => eventStats(db, eventId),
    eventChunk: (eventId, lastId, cursor, limit) => eventChunk(db, eventId, lastId, cursor, limit),
    unknownEvents: (ids) => unknownEvents(db, ids),
    lastIssuedId: () => lastIssuedId(database),
    lastId: () => lastId(db),
    firstId: () => firstId(db),
    rowsAfter: (afterId, upToId, limit, filter) => rowsAfter(db, afterId, upToId, limit, filter),
    competitionIds: async () => (await db.selectFrom('competitions').select('id').execute()).map((row) => Number(row.id)),
    leagueEvents: (leagueId, start, end, after, limit, kinds) => leagueEvents(db, leagueId, start, end, after, limit, kinds),
    leagueStats: (leagueId, start, end, kinds) => leagueStats(db, leagueId, start, end, kinds),
  };
}

/**
 * Deletes, in `trx`, up to `limit` changes recorded before `before` (recorded_at, epoch ms: a
 * change's own changed_at may be years older, decision 0299); returns how many, and the highest id
 * deleted (0 when none). The purge calls it a batch per transaction, each a range of the recorded_at index.
 */
export async function deleteChangesBefore(trx: Kysely<Schema>, before: number, limit: number): Promise<{ count: number; lastId: number }> {
  const rows = await trx
    .deleteFrom('odds_history')
    .where('id', 'in', (eb) => eb.selectFrom('odds_history').select('id').where('recorded_at', '<', before).limit(limit))
    .returning('id')
    .execute();
  return { count: rows.length, lastId: rows.reduce((last, row) => Math.max(last, Number(row.id)), 0) };
}

/**
 * Gives the changes written without their recorded_at (by a node of the version before it, during
 * a rolling upgrade) the time `now`: they were recorded within the last purge's interval. A seek of
 * the recorded_at index, which holds the nulls too.
 */
export async function stampUnrecorded(db: Kysely<Schema>, now: number): Promise<void> {
  await db.updateTable('odds_history').set({ recorded_at: now }).where('recorded_at', 'is', null).execute();
}

const forEvent = (db: Kysely<Schema>, eventId: number) => db.selectFrom('odds_history').where('event_id', '=', eventId);

/**
 * The `limit` rows after `cursor` in the order by (`at`, `id`): a keyset page, each a seek on an
 * index of that order.
 */
function pageAfter<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  at: StringReference<DB, TB>,
  id: StringReference<DB, TB>,
  cursor: Cursor,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  return select
    .where((eb) => {
      // A select of any tables knows no column's type: the key compares as an expression of unknown type.
      const key: Expression<unknown> = eb.refTuple(at, id);
      return eb(key, '>', eb.tuple(cursor.at, cursor.id));
    })
    .orderBy(at)
    .orderBy(id)
    .limit(limit);
}

function changeIds(database: Database, query: HistoryQuery): Promise<Float64Array> {
  let select = forEvent(database.db, query.eventId).select('id');
  if (query.operatorIds) select = select.where('operator_id', 'in', query.operatorIds);
  if (query.bettingMarketIds) select = select.where('betting_market_id', 'in', query.bettingMarketIds);
  if (query.since !== undefined) select = select.where('changed_at', '>=', query.since);
  if (query.until !== undefined) select = select.where('changed_at', '<', query.until);
  return database.readIds(select.orderBy('changed_at').orderBy('id'));
}

async function changesById(db: Kysely<Schema>, ids: readonly number[]): Promise<Map<number, HistoryItem>> {
  const rows = await db.selectFrom('odds_history').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), itemOf(row)]));
}

async function eventStats(db: Kysely<Schema>, eventId: number): Promise<HistoryStats> {
  const row = await forEvent(db, eventId)
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<number | null>('id').as('last_id')])
    .executeTakeFirst();
  const grade = await db
    .selectFrom('odds_grades')
    .select((eb) => eb.fn.max<number | null>('id').as('last_id'))
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), lastId: Number(row?.last_id ?? 0), lastGradeId: Number(grade?.last_id ?? 0) };
}

async function eventChunk(db: Kysely<Schema>, eventId: number, lastId: number, cursor: Cursor, limit: number): Promise<Array<{ item: HistoryItem; grade: Grade }>> {
  const select = db
    .selectFrom('odds_history as h')
    .leftJoin('odds_grades as g', (join) => join.onRef('g.odds_id', '=', 'h.odds_id').on('g.superseded_at', 'is', null))
    .selectAll('h')
    .select(['g.outcome', 'g.closing_price'])
    .where('h.event_id', '=', eventId)
    .where('h.id', '<=', lastId);
  const rows = await pageAfter(select, 'h.changed_at', 'h.id', cursor, limit).execute();
  return rows.map((row) => ({ item: itemOf(row), grade: { outcome: row.outcome, closing_price: numberOrNull(row.closing_price) } }));
}

async function unknownEvents(db: Kysely<Schema>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = new Set((await db.selectFrom('events').select('id').where('id', 'in', ids).execute()).map((row) => Number(row.id)));
  return ids.filter((id) => !found.has(id));
}

async function lastIssuedId({ db, dialect }: Database): Promise<number> {
  const row =
    dialect === 'sqlite'
      ? await sql<{ last: number | null }>`select seq as last from sqlite_sequence where name = 'odds_history'`.execute(db)
      : await sql<{ last: string | null }>`select pg_sequence_last_value(pg_get_serial_sequence('odds_history', 'id')::regclass) as last`.execute(db);
  return Number(row.rows[0]?.last ?? 0);
}

async function lastId(db: Kysely<Schema>): Promise<number> {
  const row = await db
    .selectFrom('odds_history')
    .select((eb) => eb.fn.max<number | null>('id').as('last_id'))
    .executeTakeFirst();
  return Number(row?.last_id ?? 0);
}

async function firstId(db: Kysely<Schema>): Promise<number | undefined> {
  const row = await db
    .selectFrom('odds_history')
    .select((eb) => eb.fn.min<number | null>('id').as('first_id'))
    .executeTakeFirst();
  return row?.first_id === null || row?.first_id === undefined ? undefined : Number(row.first_id);
}

/** Changes with an id in (afterId, upToId], in id order, with their event's league (HistoryRepository.rowsAfter, on any connection or transaction). */
export async function rowsAfter(db: Kysely<Schema>, afterId: number, upToId: number, limit: number, filter?: StreamFilter): Promise<StreamRow[]> {
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
  // A change of an event no longer stored (no kind) is followed as it always was.
  const kinds = filter?.kinds;
  if (kinds) select = select.where((eb) => eb.or([eb('e.kind', 'is', null), eb('e.kind', 'in', [...kinds])]));
  const rows = await select.orderBy('h.id').limit(limit).execute();
  return rows.map((row) => ({ item: itemOf(row), leagueId: row.league_id === null ? null : Number(row.league_id), recordedAt: Number(row.recorded_at) }));
}

async function leagueEvents(db: Kysely<Schema>, leagueId: number, start: number, end: number, after: Cursor, limit: number, kinds: readonly string[]): Promise<Cursor[]> {
  const select = whereEventKinds(
    db.selectFrom('events').select(['id', 'start_time']).where('league_id', '=', leagueId).where('start_time', '>=', start).where('start_time', '<', end),
    'events.kind',
    kinds,
  );
  const rows = await pageAfter(select, 'start_time', 'id', after, limit).execute();
  return rows.map((row) => ({ at: Number(row.start_time), id: Number(row.id) }));
}

async function leagueStats(db: Kysely<Schema>, leagueId: number, start: number, end: number, kinds: readonly string[]): Promise<HistoryStats> {
  const history = db
    .selectFrom('odds_history as h')
    .innerJoin('events as e', 'e.id', 'h.event_id')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<number | null>('h.id').as('last_id')])
    .where('e.league_id', '=', leagueId)
    .where('e.start_time', '>=', start)
    .where('e.start_time', '<', end);
  const row = await whereEventKinds(history, 'e.kind', kinds).executeTakeFirst();
  const grades = db
    .selectFrom('odds_grades as g')
    .innerJoin('events as e', 'e.id', 'g.event_id')
    .select((eb) => eb.fn.max<number | null>('g.id').as('last_id'))
    .where('e.league_id', '=', leagueId)
    .where('e.start_time', '>=', start)
    .where('e.start_time', '<', end);
  const grade = await whereEventKinds(grades, 'e.kind', kinds).executeTakeFirst();
  return { count: Number(row?.count ?? 0), lastId: Number(row?.last_id ?? 0), lastGradeId: Number(grade?.last_id ?? 0) };
}

/** A change as the import writes it: a row of the table but its id. */
export type WrittenChange = Omit<HistoryRow, 'id'>;

/** A change the import has just written, with the id the database gave it, as `rowsAfter` reads it back. */
export function streamRowOf(id: number, change: WrittenChange, leagueId: number | null): StreamRow {
  return { item: itemOf({ id, ...change }), leagueId, recordedAt: change.recorded_at };
}

function itemOf(row: HistoryRow): HistoryItem {
  return {
    id: Number(row.id),
    odds_id: Number(row.odds_id),
    event_id: Number(row.event_id),
    operator_id: Number(row.operator_id),
    betting_market_id: Number(row.betting_market_id),
    position: row.position,
    changed_at: iso(Number(row.changed_at)),
    price_decimal: { from: numberOrNull(row.price_from), to: Number(row.price_to) },
    line: { from: numberOrNull(row.line_from), to: numberOrNull(row.line_to) },
    status: { from: row.status_from, to: row.status_to },
  };
}
