import { type Kysely, sql, type Transaction, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import { lockDataWrites } from '../../platform/db/locked-transaction.js';
import type { OddsOutrightsTable, Schema, SelectionsTable } from '../../platform/db/schema.js';
import { DATASET_ARRAYS } from './import.schemas.js';
import { chunksOf } from '../../platform/chunks.js';
import { insertRows, oddsOnSelections, rowsWithIds, updateOnConflict, updateRows } from './import-rows.repository.js';

/** What updateQuotes sets, with each column's PostgreSQL type. */
const QUOTE_COLUMNS = ['price_decimal', 'line', 'status', 'updated_at'];
const QUOTE_TYPES = ['double precision', 'double precision', 'text', 'bigint'];

/** The sports-data tables the import writes, in dependency order. */
export const DATA_TABLES = [...DATASET_ARRAYS, 'odds_outrights', 'flow_legs', 'flow_tags', 'odds_history', 'event_period_scores', 'player_event_statistics', 'odds_grades', 'signals'] as const;
export type DataTable = (typeof DATA_TABLES)[number];

type Row = Record<string, unknown>;

/** A stored odds row's new quote and the time it holds from. */
export type QuoteUpdate = {
  id: number;
  price_decimal: number;
  line: number | null;
  status: string;
  updated_at: number;
};

/** A stored selection as its key names it (the line itself left out: its line_key stands for it). */
export type StoredSelection = Omit<SelectionsTable, 'line'>;

/** The import's reads and writes, all in its one transaction. */
export interface ImportRepository {
  /** Inserts or updates, by id, every column of the items (in multi-row chunks). */
  upsert<I>(table: DataTable, columns: readonly string[], items: readonly I[], toRow: (item: I) => Row): Promise<void>;
  /** Sets the quote (price, line, status) and updated_at of stored odds rows, by id, their other columns left as they are. */
  updateQuotes(rows: readonly QuoteUpdate[]): Promise<void>;
  /** Inserts rows of these columns (in multi-row chunks). */
  insert(table: DataTable, columns: readonly string[], rows: readonly Row[]): Promise<void>;
  /** Inserts price changes (rows of CHANGE_COLUMNS); the answer is the id each odds row's change was given. */
  insertChanges(columns: readonly string[], rows: readonly Row[]): Promise<Map<number, number>>;
  /** The newest price change's id (0 when there is none). */
  lastChangeId(): Promise<number>;
  /** The rows among `ids` that the table already holds, with the asked columns. */
  existing<C extends string>(table: DataTable, ids: Iterable<number>, columns: readonly C[]): Promise<Array<Record<C | 'id', number | string | null>>>;
  /** The stored odds rows on these selections, with the asked columns and their selection. */
  oddsOnSelections<C extends string>(selectionIds: Iterable<number>, columns: readonly C[]): Promise<Array<Record<C | 'id' | 'selection_id', number | string | null>>>;
  /** The start time (epoch ms) of each of these events that is stored. */
  startTimes(eventIds: readonly number[]): Promise<Map<number, number>>;
  /** The rows of a keyed table whose key is one of `keys` (compared without regard to case). */
  withKeys(table: 'betting_market_categories', keys: Iterable<string>): Promise<Array<{ id: number; key: string }>>;
  /** A stored vocabulary of each sport, its player statistics or its event periods (small: tens of rows). */
  keysBySport(table: 'player_statistics' | 'event_periods'): Promise<Array<{ sport_id: number; key: string }>>;
  /** Replaces what the dataset's events carry of their results: their period scores, or their players' statistics. */
  deleteOfEvents(table: 'event_period_scores' | 'player_event_statistics', eventIds: readonly number[]): Promise<void>;
  /** Records `now` as the end of those of these events that are final and had no end yet: the instant each first became final. */
  markEnded(eventIds: readonly number[], now: number): Promise<void>;
  /** Drops the legs or the tags of these flows, before the ones they carry now are inserted. */
  deleteOfFlows(table: 'flow_legs' | 'flow_tags', flowIds: readonly number[]): Promise<void>;
  /** Every stored tag type's place in the tree: a dataset's tag types are checked against the whole taxonomy. */
  tagTree(): Promise<Array<{ id: number; dimension_id: number; parent_id: number | null }>>;
  /** Imports run one at a time, and one at a time with gradings (lockDataWrites). */
  lockForImport(): Promise<void>;
  /** True when the table holds no row. */
  isEmptyTable(table: DataTable): Promise<boolean>;
  /** Records the opening price history entry of every odds row stored, recorded at `now`. */
  recordOpenings(now: number): Promise<void>;
  /** True when no sport is stored: the database holds no sports data. */
  isEmpty(): Promise<boolean>;
  /** Every row of every sports-data table (the demo's --force replace). Clients stay. */
  deleteAllData(): Promise<void>;
  /** Refreshes the derived columns of stored rows that moved with a league or an event. */
  refreshDerived(movedLeagueIds: readonly number[], movedEventIds: readonly number[]): Promise<void>;
  /** The stored selections of these events. */
  selectionsOfEvents(eventIds: readonly number[]): Promise<Array<StoredSelection & { id: number }>>;
  /** The ids among `ids` that stored selections have already. */
  takenSelectionIds(ids: readonly number[]): Promise<number[]>;
  /** The largest stored selection id, 0 when there is none. */
  maxSelectionId(): Promise<number>;
  /** Inserts new selections. */
  insertSelections(rows: readonly SelectionsTable[]): Promise<void>;
  /** What the stored odds rows among `oddsIds` say of a competition's participant (docs/data.md#competitions). */
  outrightsOf(oddsIds: readonly number[]): Promise<OddsOutrightsTable[]>;
  /** Replaces what these odds rows say of a participant by `rows` (a row of them that names none keeps nothing). */
  replaceOutrights(oddsIds: readonly number[], rows: readonly OddsOutrightsTable[]): Promise<void>;
}

// The writes below are generic over the table; the typed rows are built by the service.
type LooseDb = Kysely<Record<string, Row>>;

/**
 * Bind parameters per statement, below each engine's ceiling (SQLite 32766, PostgreSQL
 * 65535): a multi-row insert is cut into chunks that stay under it.
 */
const MAX_PARAMS: Record<DialectName, number> = { sqlite: 32_000, postgres: 65_000 };

/** Selections per statement: far below either engine's bind-parameter ceiling. */
const SELECTION_CHUNK = 1_000;

/** The import's transaction, as its statements use it. */
interface Statements {
  trx: Transaction<Schema>;
  /** The same transaction, typed loosely for the writes that are generic over the table. */
  db: LooseDb;
  dialect: DialectName;
  maxParams: number;
}

export function createImportRepository(trx: Transaction<Schema>, dialect: DialectName): ImportRepository {
  const s: Statements = { trx, db: trx as unknown as LooseDb, dialect, maxParams: MAX_PARAMS[dialect] };
  return {
    upsert: async (table, columns, items, toRow) => void (await insertRows(s, table, columns, items, toRow, updateOnConflict(columns))),
    insert: async (table, columns, rows) => void (await insertRows(s, table, columns, rows, (row) => row)),
    updateQuotes: (rows) => updateRows(s, 'odds', QUOTE_COLUMNS, QUOTE_TYPES, rows),
    async insertChanges(columns, rows) {
      const returned = await insertRows(s, 'odds_history', columns, rows, (row) => row, ' returning "id", "odds_id"');
      return new Map(returned.map((row) => [Number(row.odds_id), Number(row.id)]));
    },
    async lastChangeId() {
      const row = await trx.selectFrom('odds_history').select((eb) => eb.fn.max<number | null>('id').as('last')).executeTakeFirst();
      return Number(row?.last ?? 0);
    },
    existing: (table, ids, columns) => existing(s, table, ids, columns),
    async oddsOnSelections(selectionIds, columns) {
      const found: Array<Record<(typeof columns)[number] | 'id' | 'selection_id', number | string | null>> = [];
      for (const chunk of chunksOf([...selectionIds], s.maxParams)) found.push(...(await oddsOnSelections<(typeof found)[number]>(s, chunk, columns)));
      return found;
    },
    withKeys: (table, keys) => withKeys(s, table, keys),
    async startTimes(eventIds) {
      const rows = await existing(s, 'events', eventIds, ['start_time']);
      return new Map(rows.map((row) => [Number(row.id), Number(row.start_time)]));
    },
    async keysBySport(table) {
      const rows = await trx.selectFrom(table).select(['sport_id', 'key']).execute();
      return rows.map((r) => ({ sport_id: Number(r.sport_id), key: r.key }));
    },
    async deleteOfEvents(table, eventIds) {
      for (const chunk of chunksOf(eventIds, s.maxParams)) await trx.deleteFrom(table).where('event_id', 'in', [...chunk]).execute();
    },
    async markEnded(eventIds, now) {
      for (const chunk of chunksOf(eventIds, s.maxParams)) {
        await trx.updateTable('events').set({ ended_at: now }).where('id', 'in', [...chunk]).where('status', '=', 'final').where('ended_at', 'is', null).execute();
      }
    },
    async deleteOfFlows(table, flowIds) {
      for (const chunk of chunksOf(flowIds, s.maxParams)) {
        await trx.deleteFrom(table).where('flow_id', 'in', [...chunk]).execute();
      }
    },
    async tagTree() {
      const rows = await trx.selectFrom('tag_types').select(['id', 'dimension_id', 'parent_id']).execute();
      return rows.map((r) => ({ id: Number(r.id), dimension_id: Number(r.dimension_id), parent_id: r.parent_id === null ? null : Number(r.parent_id) }));
    },
    lockForImport: () => lockDataWrites(trx),
    async isEmptyTable(table) {
      return (await s.db.selectFrom(table).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst()) === undefined;
    },
    recordOpenings: (now) => recordOpenings(trx, now),
    isEmpty: () => hasNoSportsData(trx),
    async deleteAllData() {
      for (const table of [...DATA_TABLES].reverse()) await s.db.deleteFrom(table).execute();
      // Their events are gone: the replacing dataset marks its own.
      await trx.deleteFrom('grading_due').execute();
    },
    refreshDerived: (movedLeagueIds, movedEventIds) => refreshDerived(s, movedLeagueIds, movedEventIds),
    selectionsOfEvents: (eventIds) => selectionsOfEvents(trx, eventIds),
    takenSelectionIds: (ids) => takenSelectionIds(trx, ids),
    async maxSelectionId() {
      const max = await trx.selectFrom('selections').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
      return Number(max?.max ?? 0);
    },
    async insertSelections(rows) {
      for (const chunk of chunksOf(rows, SELECTION_CHUNK)) await trx.insertInto('selections').values(chunk).execute();
    },
    async outrightsOf(oddsIds) {
      const found: OddsOutrightsTable[] = [];
      for (const chunk of chunksOf(oddsIds, SELECTION_CHUNK)) found.push(...(await trx.selectFrom('odds_outrights').selectAll().where('odds_id', 'in', [...chunk]).execute()));
      return found;
    },
    async replaceOutrights(oddsIds, rows) {
      for (const chunk of chunksOf(oddsIds, SELECTION_CHUNK)) await trx.deleteFrom('odds_outrights').where('odds_id', 'in', [...chunk]).execute();
      for (const chunk of chunksOf(rows, SELECTION_CHUNK)) await trx.insertInto('odds_outrights').values([...chunk]).execute();
    },
  };
}

/** True when no sport is stored: the database holds no sports data (read in the import's transaction, or outside any). */
export async function hasNoSportsData(db: Kysely<Schema>): Promise<boolean> {
  return (await db.selectFrom('sports').select('id').limit(1).executeTakeFirst()) === undefined;
}

async function existing<C extends string>(
  s: Statements,
  table: DataTable,
  ids: Iterable<number>,
  columns: readonly C[],
): Promise<Array<Record<C | 'id', number | string | null>>> {
  const found: Array<Record<C | 'id', number | string | null>> = [];
  for (const chunk of chunksOf([...ids], s.maxParams)) {
    for (const row of await rowsWithIds<Record<C | 'id', number | string | null>>(s, table, chunk, columns)) found.push(row);
  }
  return found;
}

async function withKeys(s: Statements, table: 'betting_market_categories', keys: Iterable<string>): Promise<Array<{ id: number; key: string }>> {
  const wanted = [...new Set([...keys].map((key) => key.toLowerCase()))];
  const found: Array<{ id: number; key: string }> = [];
  for (const chunk of chunksOf(wanted, s.maxParams)) {
    const rows = await s.trx.selectFrom(table).select(['id', 'key']).where(sql<string>`lower(key)`, 'in', [...chunk]).execute();
    for (const row of rows) found.push({ id: Number(row.id), key: row.key });
  }
  return found;
}

/**
 * The opening entry of every odds row stored, at its updated_at: after an import into an empty
 * odds table every row is the dataset's own and new (import.history.ts).
 */
async function recordOpenings(trx: Transaction<Schema>, now: number): Promise<void> {
  await sql`
    insert into odds_history (odds_id, event_id, operator_id, betting_market_id, position, changed_at, price_to, line_to, status_to, recorded_at)
    select id, event_id, operator_id, betting_market_id, position, updated_at, price_decimal, line, status, cast(${now} as bigint) from odds order by id`.execute(trx);
}

/**
 * Derived columns of rows the dataset did not carry: events of leagues that moved to
 * another sport, and flows of events whose league or sport changed. Set-based, so a
 * league move touching 100,000 flows is a few statements.
 */
async function refreshDerived(s: Statements, movedLeagueIds: readonly number[], movedEventIds: readonly number[]): Promise<void> {
  const { trx } = s;
  for (const chunk of chunksOf(movedLeagueIds, s.maxParams)) {
    const leagueIds = [...chunk];
    await trx
      .updateTable('events')
      .set((eb) => ({ sport_id: eb.selectFrom('leagues').select('leagues.sport_id').whereRef('leagues.id', '=', 'events.league_id') }))
      .where('league_id', 'in', leagueIds)
      .execute();
    await refreshFlows(trx, (eb) => eb('event_id', 'in', eb.selectFrom('events').select('events.id').where('events.league_id', 'in', leagueIds)));
  }
  for (const chunk of chunksOf(movedEventIds, s.maxParams)) {
    const eventIds = [...chunk];
    await refreshFlows(trx, (eb) => eb('event_id', 'in', eventIds));
  }
}

type FlowFilter = Parameters<UpdateQueryBuilder<Schema, 'flows', 'flows', UpdateResult>['where']>[0];
async function refreshFlows(trx: Transaction<Schema>, filter: FlowFilter): Promise<void> {
  await trx
    .updateTable('flows')
    .set((eb) => ({
      league_id: eb.selectFrom('events').select('events.league_id').whereRef('events.id', '=', 'flows.event_id'),
      sport_id: eb.selectFrom('events').select('events.sport_id').whereRef('events.id', '=', 'flows.event_id'),
    }))
    .where(filter)
    .execute();
}

async function selectionsOfEvents(trx: Transaction<Schema>, eventIds: readonly number[]): Promise<Array<StoredSelection & { id: number }>> {
  const found: Array<StoredSelection & { id: number }> = [];
  for (const chunk of chunksOf(eventIds, SELECTION_CHUNK)) {
    const rows = await trx
      .selectFrom('selections')
      .select(['id', 'event_id', 'betting_market_id', 'period', 'position', 'line_key', 'player'])
      .where('event_id', 'in', chunk)
      .execute();
    for (const r of rows) found.push({ ...r, id: Number(r.id), event_id: Number(r.event_id), betting_market_id: Number(r.betting_market_id) });
  }
  return found;
}

async function takenSelectionIds(trx: Transaction<Schema>, ids: readonly number[]): Promise<number[]> {
  const taken: number[] = [];
  for (const chunk of chunksOf(ids, SELECTION_CHUNK)) {
    const rows = await trx.selectFrom('selections').select('id').where('id', 'in', chunk).execute();
    for (const row of rows) taken.push(Number(row.id));
  }
  return taken;
}
