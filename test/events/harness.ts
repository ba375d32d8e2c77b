import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DialectName } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { importDataset } from '../helpers/data.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { expectError, type Item, type PageBody } from '../helpers/responses.js';

/** The shared setup of the events, odds and trends suites: an app, the fixture, a client. */
export interface DataHarness {
  t: TestApp;
  post(url: string, body: unknown): Promise<LightMyRequestResponse>;
  /** GET with the client's API key. */
  get(url: string): Promise<LightMyRequestResponse>;
  /** POST expecting 200; the parsed page. */
  page<T = Item>(url: string, body: unknown): Promise<PageBody<T>>;
  /** Every id a request lists, following pages (largest allowed page size). */
  allIds(url: string, body: Record<string, unknown>, pageSize: number): Promise<number[]>;
}

/** `databaseUrl`: an existing (empty, e.g. file) database instead of a fresh one. */
export async function setupData(dialect: DialectName, databaseUrl?: string): Promise<DataHarness> {
  const t = await buildTestApp({ dialect, ...(databaseUrl === undefined ? {} : { databaseUrl }) });
  await importDataset(t, eventsFlowsDataset);
  const { apiKey } = await onboardClient(t);
  const post = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const page = async <T = Item>(url: string, body: unknown): Promise<PageBody<T>> => {
    const res = await post(url, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PageBody<T>;
  };
  const allIds = async (url: string, body: Record<string, unknown>, pageSize: number): Promise<number[]> => {
    const ids: number[] = [];
    for (let p = 1; ; p++) {
      const res = await page(url, { ...body, page: p, page_size: pageSize });
      ids.push(...res.results.map((r) => r.id));
      if (p >= res.total_pages) return ids;
    }
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  return { t, post, get, page, allIds };
}

/**
 * The paging law on one request: pages of `pageSize` cover `expected` exactly, in order, with
 * no duplicate; the order is stable; a page past the end is empty with the right total;
 * defaults are page 1 and page_size 20; bad paging is 422 naming the field, a non-integer
 * 400 or 422, a wrong JSON type 400.
 */
export async function expectPagingLaw(
  h: DataHarness,
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
