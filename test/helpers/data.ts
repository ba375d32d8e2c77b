import { expect } from 'vitest';
import { adminHeaders, type TestApp } from './app.js';

/** Loads a dataset (the import format, docs/operations.md#loading-data) through POST /admin/v1/import. */
export async function importDataset(t: TestApp, dataset: Record<string, unknown[]>): Promise<Record<string, number>> {
  const res = await t.app.inject({ method: 'POST', url: '/admin/v1/import', headers: adminHeaders, payload: dataset });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { upserted: Record<string, number> }).upserted;
}
