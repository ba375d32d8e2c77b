/**
 * A nullable numeric column as a row brings it: PostgreSQL's bigint and numeric columns come as
 * strings, SQLite's as numbers; null (or a column the row does not have) stays null.
 */
export function numberOrNull(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}
