import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** An item of a list: every list item has an integer id. */
export interface Item {
  id: number;
  [field: string]: unknown;
}

/** The paginated list shape (docs/api.md#lists-and-pagination), as a test reads it. */
export interface PageBody<T = Item> {
  results: Array<T & { id: number }>;
  total_count: number;
  page: number;
  page_size: number;
  total_pages: number;
}

/** Every item of a list, page after page, as `page(n)` reads page n. */
export async function allPages<T>(page: (n: number) => Promise<PageBody<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let n = 1; ; n++) {
    const body = await page(n);
    items.push(...body.results);
    if (n >= body.total_pages) return items;
  }
}

/** A field that `details` must name: by name alone, or with the rule it broke. */
export type ExpectedDetail = string | { field: string; rule?: string };

/**
 * Asserts an error response in the error shape (docs/api.md#errors) — this status and code, JSON, a
 * message and a request id — and, when given, that `details` names each expected field.
 * Returns the `error` object for further checks.
 */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  details?: ExpectedDetail | readonly ExpectedDetail[],
): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const { error } = res.json<{ error: Record<string, unknown> }>();
  expect(error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
  if (details !== undefined) {
    const expected = (Array.isArray(details) ? details : [details]).map((d: ExpectedDetail) => (typeof d === 'string' ? { field: d } : d));
    expect(error.details).toEqual(expect.arrayContaining(expected.map((d) => expect.objectContaining(d))));
  }
  return error;
}

/** Ids in the stable order of every list. */
export const idsOf = (rows: ReadonlyArray<{ id: number }>): number[] => rows.map((r) => r.id).sort((a, b) => a - b);
