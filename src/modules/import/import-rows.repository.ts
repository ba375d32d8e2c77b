import { CompiledQuery, type Transaction } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { DialectName } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';

/**
 * The import's bulk statements, their SQL written here rather than built by Kysely: building and
 * compiling a query tree of 500 rows × 15 columns cost the import more than the database's own work
 * for it. Values always go as parameters.
 */

type Row = Record<string, unknown>;

/** The import's transaction and the ceiling of bind parameters per statement on its engine. */
export interface RowStatements {
  trx: Transaction<Schema>;
  dialect: DialectName;
  maxParams: number;
}

/** A quoted identifier (tables and columns are our own names; quoted as Kysely would). */
const quoted = (name: string) => `"${name}"`;

/**
 * Rows per statement. On SQLite a statement is prepared once per SQL text and kept (sqlite-file.ts),
 * so the rows go in blocks of powers of two: a batch of any size is a few statements out of at
 * most a dozen texts per table, each prepared once, where a text per batch size would prepare a new
 * one for nearly every batch. (PostgreSQL takes rows as one JSON parameter instead: insertJsonRows.)
 */
function* blockSizes(s: RowStatements, rows: number, columns: number): Generator<number> {
  const most = Math.floor(s.maxParams / columns);
  const largest = 2 ** Math.floor(Math.log2(most));
  let left = rows;
  for (; left >= largest; left -= largest) yield largest;
  for (let size = largest / 2; size >= 1; size /= 2) {
    if (left >= size) {
      yield size;
      left -= size;
    }
  }
}

/**
 * Inserts `items` as rows of `columns` (undefined is null), followed by `tail` (an ON CONFLICT
 * clause, a RETURNING clause, or nothing); the answer is the rows the statements returned. Each
 * block's rows are built as it is written, so a million items never exist twice in memory.
 */
export async function insertRows<I>(
  s: RowStatements,
  table: string,
  columns: readonly string[],
  items: readonly I[],
  toRow: (item: I) => Row,
  tail = '',
): Promise<Row[]> {
  if (s.dialect === 'postgres') return insertJsonRows(s, table, columns, items, toRow, tail);
  const returned: Row[] = [];
  const head = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values `;
  let start = 0;
  for (const size of blockSizes(s, items.length, columns.length)) {
    const parameters: unknown[] = new Array<unknown>(size * columns.length);
    let p = 0;
    for (let i = start; i < start + size; i += 1) {
      const row = toRow(items[i] as I);
      for (const column of columns) parameters[p++] = row[column] ?? null;
    }
    start += size;
    for (const row of (await s.trx.executeQuery<Row>(CompiledQuery.raw(head + valuesOf(size, columns.length) + tail, parameters))).rows) returned.push(row);
  }
  return returned;
}

/** Rows per statement on PostgreSQL: one JSON parameter of at most this many rows. */
const JSON_ROWS = 5_000;

/**
 * On PostgreSQL the rows go as one JSON parameter, read with the table's own row type: one short
 * statement, planned once, where a statement of thousands of bind parameters cost the server more
 * to parse and plan than to write the rows (a 500-row odds upsert: 13–17 ms against 7–11 ms, and
 * less of the client's CPU).
 */
async function insertJsonRows<I>(s: RowStatements, table: string, columns: readonly string[], items: readonly I[], toRow: (item: I) => Row, tail: string): Promise<Row[]> {
  const list = columns.map(quoted).join(', ');
  const text = `insert into ${quoted(table)} (${list}) select ${list} from json_populate_recordset(null::${quoted(table)}, $1::json)${tail}`;
  const returned: Row[] = [];
  for (const chunk of chunksOf(items, JSON_ROWS)) {
    // A field left undefined is left out of the JSON, which the row type reads as null.
    for (const row of (await s.trx.executeQuery<Row>(CompiledQuery.raw(text, [JSON.stringify(chunk.map(toRow))]))).rows) returned.push(row);
  }
  return returned;
}

/**
 * Sets `columns` of the stored rows of `table` named by each row's id, the other columns left as
 * they are: `update … from` the rows as a VALUES list (SQLite) or one JSON parameter (PostgreSQL).
 * A feed's price move changes its row's quote alone, and an update of those columns costs the
 * engine less than an insert that conflicts and rewrites every column (decision 0337).
 */
export async function updateRows(s: RowStatements, table: string, columns: readonly string[], types: readonly string[], rows: readonly Row[]): Promise<void> {
  if (s.dialect === 'postgres') {
    const set = columns.map((c) => `${quoted(c)} = v.${quoted(c)}`).join(', ');
    const typed = ['id bigint', ...columns.map((c, i) => `${quoted(c)} ${types[i] ?? 'text'}`)].join(', ');
    for (const chunk of chunksOf(rows, JSON_ROWS)) {
      const text = `update ${quoted(table)} set ${set} from json_to_recordset($1::json) as v(${typed}) where ${quoted(table)}."id" = v."id"`;
      await s.trx.executeQuery(CompiledQuery.raw(text, [JSON.stringify(chunk)]));
    }
    return;
  }
  const width = columns.length + 1;
  const byPosition = columns.map((c, i) => `${quoted(c)} = v.column${i + 2}`).join(', ');
  let start = 0;
  for (const size of blockSizes(s, rows.length, width)) {
    const parameters: unknown[] = [];
    for (const row of rows.slice(start, start + size)) parameters.push(row.id, ...columns.map((c) => row[c] ?? null));
    start += size;
    // VALUES names its columns column1 (the id), column2, …: inline, as a CTE naming them cost SQLite more.
    const text = `update ${quoted(table)} set ${byPosition} from (values ${valuesOf(size, width)}) as v where ${quoted(table)}."id" = v.column1`;
    await s.trx.executeQuery(CompiledQuery.raw(text, parameters));
  }
}

/** `on conflict (id) do update` every column but the id. */
export function updateOnConflict(columns: readonly string[]): string {
  const updated = columns.filter((c) => c !== 'id').map((c) => `${quoted(c)} = excluded.${quoted(c)}`);
  return ` on conflict ("id") do update set ${updated.join(', ')}`;
}

/** The `?` placeholders of `rows` rows of `columns` (SQLite). */
function valuesOf(rows: number, columns: number): string {
  const tuple = `(${new Array<string>(columns).fill('?').join(', ')})`;
  return new Array<string>(rows).fill(tuple).join(', ');
}

/**
 * The rows of `table` whose id is one of `ids`, with `columns`. The ids go as one parameter (a JSON
 * array on SQLite, an array on PostgreSQL), so the statement's text is the same for any number of
 * them: prepared once on SQLite, whatever the batch.
 */
export async function rowsWithIds<R>(s: RowStatements, table: string, ids: readonly number[], columns: readonly string[]): Promise<R[]> {
  if (ids.length === 0) return [];
  const list = ['id', ...columns].map(quoted).join(', ');
  const query =
    s.dialect === 'sqlite'
      ? CompiledQuery.raw(`select ${list} from ${quoted(table)} where "id" in (select value from json_each(?))`, [JSON.stringify(ids)])
      : CompiledQuery.raw(`select ${list} from ${quoted(table)} where "id" = any($1::bigint[])`, [ids]);
  return (await s.trx.executeQuery<R>(query)).rows;
}

/**
 * The odds rows on any of `selectionIds`, with `columns`: a seek of the selections' primary key,
 * then of the odds' event index (odds have no index of their selection), the ids as one parameter.
 */
export async function oddsOnSelections<R>(s: RowStatements, selectionIds: readonly number[], columns: readonly string[]): Promise<R[]> {
  if (selectionIds.length === 0) return [];
  const list = ['id', 'selection_id', ...columns].map(quoted).join(', ');
  const query =
    s.dialect === 'sqlite'
      ? CompiledQuery.raw(
          `select ${list} from "odds" where "event_id" in (select "event_id" from "selections" where "id" in (select value from json_each(?))) and "selection_id" in (select value from json_each(?))`,
          [JSON.stringify(selectionIds), JSON.stringify(selectionIds)],
        )
      : CompiledQuery.raw(`select ${list} from "odds" where "event_id" in (select "event_id" from "selections" where "id" = any($1::bigint[])) and "selection_id" = any($1::bigint[])`, [
          selectionIds,
        ]);
  return (await s.trx.executeQuery<R>(query)).rows;
}
