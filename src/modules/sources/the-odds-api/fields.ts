import type { RowProblem } from '../source-batch.js';

/** A JSON object of an answer, read field by field. */
export type Item = Record<string, unknown>;

export function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where one item's problems are collected: its row, and each problem's field path. */
export interface ItemProblems {
  readonly row: number;
  readonly list: RowProblem[];
  add(column: string, message: string): undefined;
}

export function itemProblems(row: number): ItemProblems {
  const list: RowProblem[] = [];
  return {
    row,
    list,
    add(column, message) {
      list.push({ row, column, message });
      return undefined;
    },
  };
}

/** A non-empty string field, else a problem. */
export function text(item: Item, field: string, path: string, problems: ItemProblems): string | undefined {
  const value = item[field];
  if (typeof value === 'string' && value.trim() !== '') return value;
  return problems.add(path, value === undefined ? 'is missing' : 'must be a non-empty string');
}

/** An ISO 8601 instant (The Odds API answers `2021-09-10T00:20:00Z`), as UTC ISO, else a problem. */
export function instant(item: Item, field: string, path: string, problems: ItemProblems): string | undefined {
  const value = item[field];
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return problems.add(path, value === undefined ? 'is missing' : 'must be an ISO 8601 date-time');
}

/** An optional instant: undefined when absent or null, a problem when present and unreadable. */
export function optionalInstant(item: Item, field: string, path: string, problems: ItemProblems): string | undefined {
  const value = item[field];
  return value === undefined || value === null ? undefined : instant(item, field, path, problems);
}

/** An array field, else a problem. */
export function list(item: Item, field: string, path: string, problems: ItemProblems): unknown[] | undefined {
  const value = item[field];
  if (Array.isArray(value)) return value;
  return problems.add(path, value === undefined ? 'is missing' : 'must be an array');
}
