import { CompiledQuery, type Transaction } from 'kysely';
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
 * one for nearly every batch. On PostgreSQL the server parses every statement anyway: one statement
 * per chunk, as large as the parameter ceiling allows.
 */
export function* blockSizes(s: RowStatements, rows: number, columns: number): Generator<number> {
  const most = Math.floor(s.maxParams / columns);
  if (s.dialect === 'postgres') {
    for (let left = rows; left > 0; left -= most) yield Math.min(left, most);
    return;
  }
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
 * clause, or nothing). Each block's rows are built as it is written, so a million items never
 * exist twice in memory.
 */
export async function insertRows<I>(
  s: RowStatements,
  table: string,
  columns: readonly string[],
  items: readonly I[],
  toRow: (item: I) => Row,
  tail = '',
): Promise<void> {
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
    await s.trx.executeQuery(CompiledQuery.raw(head + valuesOf(s.dialect, size, columns.length) + tail, parameters));
  }
}

/** `on conflict (id) do update` every column but the id. */
export function updateOnConflict(columns: readonly string[]): string {
  const updated = columns.filter((c) => c !== 'id').map((c) => `${quoted(c)} = excluded.${quoted(c)}`);
  return ` on conflict ("id") do update set ${updated.join(', ')}`;
}

function valuesOf(dialect: DialectName, rows: number, columns: number): string {
  if (dialect === 'sqlite') {
    const tuple = `(${new Array<string>(columns).fill('?').join(', ')})`;
    return new Array<string>(rows).fill(tuple).join(', ');
  }
  const tuples: string[] = [];
  for (let r = 0, n = 1; r < rows; r += 1) {
    const marks: string[] = [];
    for (let c = 0; c < columns; c += 1) marks.push(`$${n++}`);
    tuples.push(`(${marks.join(', ')})`);
  }
  return tuples.join(', ');
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
