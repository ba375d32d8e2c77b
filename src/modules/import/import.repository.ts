import { CompiledQuery, type Kysely, sql, type Transaction } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { DialectName } from '../../platform/db/database.js';
import { lockDataWrites } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';
import { DATASET_ARRAYS } from './import.schemas.js';

/** The sports-data tables the import writes, in dependency order. */
export const DATA_TABLES = [...DATASET_ARRAYS, 'flow_legs', 'flow_tags', 'odds_history', 'event_period_scores', 'player_event_statistics', 'odds_grades'] as const;
export type DataTable = (typeof DATA_TABLES)[number];

type Row = Record<string, unknown>;
// The writes below are generic over the table; the typed rows are built by the service.
type LooseDb = Kysely<Record<string, Row>>;

/**
 * Bind parameters per statement, below each engine's ceiling (SQLite 32766, PostgreSQL
 * 65535): a multi-row insert is cut into chunks that stay under it.
 */
const MAX_PARAMS: Record<DialectName, number> = { sqlite: 32_000, postgres: 65_000 };

export function createImportRepository(trx: Transaction<Schema>, dialect: DialectName) {
  const db = trx as unknown as LooseDb;
  const maxParams = MAX_PARAMS[dialect];

  return {
    /**
     * `insert … on conflict (id) do update` every column, in multi-row chunks. Rows are built
     * one chunk at a time so that a million items never exist twice in memory.
     */
    async upsert<I>(table: DataTable, columns: readonly string[], items: readonly I[], toRow: (item: I) => Row): Promise<void> {
      const updated = columns.filter((c) => c !== 'id');
      for (const chunk of chunksOf(items, Math.floor(maxParams / columns.length))) {
        await db
          .insertInto(table)
          .values(chunk.map(toRow))
          .onConflict((oc) => oc.column('id').doUpdateSet((eb) => Object.fromEntries(updated.map((c) => [c, eb.ref(`excluded.${c}`)]))))
          .execute();
      }
    },

    async insert(table: DataTable, columns: number, rows: readonly Row[]): Promise<void> {
      for (const chunk of chunksOf(rows, Math.floor(maxParams / columns))) {
        await db.insertInto(table).values([...chunk]).execute();
      }
    },

    /**
     * A plain multi-row INSERT of many rows, its SQL written here rather than built by Kysely: a
     * query tree of 32,000 values per statement cost more than the database's own work (the price
     * history of a million odds rows took 3× the import). Values go as parameters, as always.
     */
    async insertMany(table: DataTable, columns: readonly string[], rows: readonly Row[]): Promise<void> {
      const perStatement = Math.floor(maxParams / columns.length);
      for (const chunk of chunksOf(rows, perStatement)) {
        const parameters: unknown[] = [];
        const tuples: string[] = [];
        for (const row of chunk) {
          const marks = columns.map((column) => {
            parameters.push(row[column] ?? null);
            return dialect === 'postgres' ? `$${parameters.length}` : '?';
          });
          tuples.push(`(${marks.join(',')})`);
        }
        await trx.executeQuery(CompiledQuery.raw(`insert into ${table} (${columns.join(',')}) values ${tuples.join(',')}`, parameters));
      }
    },

    /** The rows among `ids` that the table already holds, with the asked columns. */
    async existing<C extends string>(table: DataTable, ids: Iterable<number>, columns: readonly C[]): Promise<Array<Record<C | 'id', number | string | null>>> {
      const found: Array<Record<C | 'id', number | string | null>> = [];
      for (const chunk of chunksOf([...ids], maxParams)) {
        const rows = await db
          .selectFrom(table)
          .select(['id', ...columns])
          .where('id', 'in', [...chunk])
          .execute();
        for (const row of rows as unknown as Array<Record<C | 'id', number | string | null>>) found.push(row);
      }
      return found;
    },

    /** The rows of a keyed table whose key is one of `keys` (compared without regard to case). */
    async withKeys(table: 'betting_market_categories', keys: Iterable<string>): Promise<Array<{ id: number; key: string }>> {
      const wanted = [...new Set([...keys].map((key) => key.toLowerCase()))];
      const found: Array<{ id: number; key: string }> = [];
      for (const chunk of chunksOf(wanted, maxParams)) {
        const rows = await trx.selectFrom(table).select(['id', 'key']).where(sql<string>`lower(key)`, 'in', [...chunk]).execute();
        for (const row of rows) found.push({ id: Number(row.id), key: row.key });
      }
      return found;
    },

    /** A stored vocabulary of each sport, its player statistics or its event periods (small: tens of rows). */
    async keysBySport(table: 'player_statistics' | 'event_periods'): Promise<Array<{ sport_id: number; key: string }>> {
      const rows = await trx.selectFrom(table).select(['sport_id', 'key']).execute();
      return rows.map((r) => ({ sport_id: Number(r.sport_id), key: r.key }));
    },

    /** Replaces what the dataset's events carry of their results: their period scores, or their players' statistics. */
    async deleteOfEvents(table: 'event_period_scores' | 'player_event_statistics', eventIds: readonly number[]): Promise<void> {
      for (const chunk of chunksOf(eventIds, maxParams)) await trx.deleteFrom(table).where('event_id', 'in', [...chunk]).execute();
    },

    /** Drops the legs or the tags of these flows, before the ones they carry now are inserted. */
    async deleteOfFlows(table: 'flow_legs' | 'flow_tags', flowIds: readonly number[]): Promise<void> {
      for (const chunk of chunksOf(flowIds, maxParams)) {
        await trx.deleteFrom(table).where('flow_id', 'in', [...chunk]).execute();
      }
    },

    /** Every stored tag type's place in the tree: a dataset's tag types are checked against the whole taxonomy. */
    async tagTree(): Promise<Array<{ id: number; dimension_id: number; parent_id: number | null }>> {
      const rows = await trx.selectFrom('tag_types').select(['id', 'dimension_id', 'parent_id']).execute();
      return rows.map((r) => ({ id: Number(r.id), dimension_id: Number(r.dimension_id), parent_id: r.parent_id === null ? null : Number(r.parent_id) }));
    },

    /** Imports run one at a time, and one at a time with gradings (lockDataWrites). */
    lockForImport: () => lockDataWrites(trx),

    async isEmptyTable(table: DataTable): Promise<boolean> {
      return (await db.selectFrom(table).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst()) === undefined;
    },

    /**
     * The opening entry of every odds row stored, at its updated_at: after an import into an empty
     * odds table every row is the dataset's own and new (import.history.ts).
     */
    async recordOpenings(): Promise<void> {
      await sql`
        insert into odds_history (odds_id, event_id, operator_id, betting_market_id, position, changed_at, price_to, line_to, status_to)
        select id, event_id, operator_id, betting_market_id, position, updated_at, price_decimal, line, status from odds order by id`.execute(trx);
    },

    /** True when no sport is stored: the database holds no sports data. */
    async isEmpty(): Promise<boolean> {
      return (await db.selectFrom('sports').select('id').limit(1).executeTakeFirst()) === undefined;
    },

    /** Every row of every sports-data table (the demo's --force replace). Clients stay. */
    async deleteAllData(): Promise<void> {
      for (const table of [...DATA_TABLES].reverse()) await db.deleteFrom(table).execute();
      // Their events are gone: the replacing dataset marks its own.
      await trx.deleteFrom('grading_due').execute();
    },

    /**
     * Derived columns of rows the dataset did not carry: events of leagues that moved to
     * another sport, and flows of events whose league or sport changed. Set-based, so a
     * league move touching 100,000 flows is a few statements.
     */
    async refreshDerived(movedLeagueIds: readonly number[], movedEventIds: readonly number[]): Promise<void> {
      for (const chunk of chunksOf(movedLeagueIds, maxParams)) {
        const leagueIds = [...chunk];
        await trx
          .updateTable('events')
          .set((eb) => ({ sport_id: eb.selectFrom('leagues').select('leagues.sport_id').whereRef('leagues.id', '=', 'events.league_id') }))
          .where('league_id', 'in', leagueIds)
          .execute();
        await refreshFlows((eb) => eb('event_id', 'in', eb.selectFrom('events').select('events.id').where('events.league_id', 'in', leagueIds)));
      }
      for (const chunk of chunksOf(movedEventIds, maxParams)) {
        const eventIds = [...chunk];
        await refreshFlows((eb) => eb('event_id', 'in', eventIds));
      }
    },
  };

  type FlowFilter = Parameters<ReturnType<typeof trx.updateTable<'flows'>>['where']>[0];
  async function refreshFlows(filter: FlowFilter): Promise<void> {
    await trx
      .updateTable('flows')
      .set((eb) => ({
        league_id: eb.selectFrom('events').select('events.league_id').whereRef('events.id', '=', 'flows.event_id'),
        sport_id: eb.selectFrom('events').select('events.sport_id').whereRef('events.id', '=', 'flows.event_id'),
      }))
      .where(filter)
      .execute();
  }
}

export type ImportRepository = ReturnType<typeof createImportRepository>;
