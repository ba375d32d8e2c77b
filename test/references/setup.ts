import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DialectName } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { importDataset } from '../helpers/data.js';
import type { Item, PageBody } from '../helpers/responses.js';
import { type ReferenceDataset, referenceDataset } from '../fixtures/references.js';

export interface ReferencesHarness {
  t: TestApp;
  data: ReferenceDataset;
  apiKey: string;
  /** GET with the client's API key. */
  get(url: string): Promise<LightMyRequestResponse>;
  /** GET that must answer 200; returns the page. */
  page<T = Item>(url: string): Promise<PageBody<T>>;
  /** The ids of every item a filtered list has, walking all its pages. */
  allIds(url: string): Promise<number[]>;
}

/** A test app per dialect with the reference fixture imported and one onboarded client. */
export async function setupReferences(dialect: DialectName): Promise<ReferencesHarness> {
  const t = await buildTestApp({ dialect });
  const data = referenceDataset();
  await importDataset(t, { ...data });
  const { apiKey } = await onboardClient(t);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const page = async <T = Item>(url: string): Promise<PageBody<T>> => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  return {
    t,
    data,
    apiKey,
    get,
    page,
    async allIds(url) {
      const sep = url.includes('?') ? '&' : '?';
      const ids: number[] = [];
      for (let p = 1; ; p++) {
        const body = await page(`${url}${sep}page=${p}&page_size=100`);
        ids.push(...body.results.map((r) => r.id));
        if (p >= body.total_pages) return ids;
      }
    },
  };
}

/** Ids in the stable order of every list. */
export const idsOf = (rows: ReadonlyArray<{ id: number }>): number[] => rows.map((r) => r.id).sort((a, b) => a - b);
