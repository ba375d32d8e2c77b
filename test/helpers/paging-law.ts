import { expect } from 'vitest';
import type { Caller } from './harness.js';
import { expectError } from './responses.js';

/**
 * The paging law on one request: pages of `pageSize` cover `expected` exactly, in order, with
 * no duplicate; the order is stable; a page past the end is empty with the right total;
 * defaults are page 1 and page_size 20; bad paging is 422 naming the field, a non-integer
 * 400 or 422, a wrong JSON type 400.
 */
export async function expectPagingLaw(
  h: Caller,
  url: string,
  filters: Record<string, unknown>,
  expected: number[],
  pageSize: number,
  maxPageSize: number,
): Promise<void> {
  const total = expected.length;
  const pages = Math.ceil(total / pageSize);
  const seen: number[] = [];
  for (let p = 1; p <= pages; p++) {
    const res = await h.page(url, { ...filters, page: p, page_size: pageSize });
    expect(res).toMatchObject({ total_count: total, page: p, page_size: pageSize, total_pages: pages });
    expect(res.results.length).toBe(p < pages ? pageSize : total - pageSize * (pages - 1));
    seen.push(...res.results.map((r) => r.id));
  }
  expect(seen).toEqual(expected);
  expect(new Set(seen).size).toBe(seen.length);

  // Stable: the same request again lists the same ids in the same order.
  const again = await h.page(url, { ...filters, page: 1, page_size: pageSize });
  expect(again.results.map((r) => r.id)).toEqual(expected.slice(0, pageSize));

  const past = await h.page(url, { ...filters, page: pages + 1, page_size: pageSize });
  expect(past).toEqual({ results: [], total_count: total, page: pages + 1, page_size: pageSize, total_pages: pages });
  const farPast = await h.page(url, { ...filters, page: 1_000_000, page_size: pageSize });
  expect(farPast.results).toEqual([]);
  expect(farPast.total_count).toBe(total);

  const defaults = await h.page(url, filters);
  expect(defaults).toMatchObject({ page: 1, page_size: 20, total_count: total, total_pages: Math.ceil(total / 20) });
  expect(defaults.results.map((r) => r.id)).toEqual(expected.slice(0, 20));

  expectError(await h.post(url, { ...filters, page: 0 }), 422, 'VALIDATION_ERROR', 'page');
  expectError(await h.post(url, { ...filters, page_size: 0 }), 422, 'VALIDATION_ERROR', 'page_size');
  expectError(await h.post(url, { ...filters, page_size: maxPageSize + 1 }), 422, 'VALIDATION_ERROR', 'page_size');
  const max = await h.page(url, { ...filters, page_size: maxPageSize });
  expect(max.results.length).toBe(Math.min(total, maxPageSize));
  for (const bad of [1.5, '2', null, true]) {
    const res = await h.post(url, { ...filters, page: bad });
    expect([400, 422], res.body).toContain(res.statusCode);
  }
  expectError(await h.post(url, { ...filters, page_size: 'ten' }), 400, 'BAD_REQUEST');
  expectError(await h.post(url, [filters]), 400, 'BAD_REQUEST');
}
