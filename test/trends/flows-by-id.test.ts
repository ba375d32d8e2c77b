import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { FLOWS } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { expectError } from '../helpers/responses.js';

const URL = '/v1/trends/flows-by-id';

interface ByIdPage {
  results: Array<{ id: number; flow_type: string; legs: Array<{ id: number }> }>;
  total_count: number;
  page: number;
  page_size: number;
  total_pages: number;
  missing_ids: number[];
}

/** Flows by id keep the order asked and report the ids that name no flow. */
describe.each(DIALECTS)('POST /v1/trends/flows-by-id (%s)', (dialect) => {
  let h: Reader;
  const byId = async (body: Record<string, unknown>): Promise<ByIdPage> => {
    const res = await h.post(URL, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toMatch(/^"/);
    return res.json<ByIdPage>();
  };

  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.t.close());

  it('answers one page of the flows asked, in the order asked, each as the flow lists show it', async () => {
    const asked = [9003, 8005, 8000, 8059];
    const page = await byId({ flow_ids: asked });
    expect(page.results.map((f) => f.id)).toEqual(asked);
    expect(page).toMatchObject({ total_count: 4, page: 1, page_size: 4, total_pages: 1, missing_ids: [] });
    // The same items as the flow lists: a parlay with its legs.
    expect(page.results[0]?.legs.map((leg) => leg.id)).toEqual([8014, 8021]);
    const listed = await h.page('/v1/trends/mixed-flows', { event_ids: [5000], page_size: 25 });
    expect(listed.results.find((f) => f.id === 9003)).toEqual(page.results[0]);
  });

  it('reports unknown ids in missing_ids, in the order asked; a repeated id counts once', async () => {
    const page = await byId({ flow_ids: [424242, 8010, 1, 8010, 8002, 99] });
    expect(page.results.map((f) => f.id)).toEqual([8010, 8002]);
    expect(page).toMatchObject({ total_count: 2, page_size: 5, total_pages: 1, missing_ids: [424242, 1, 99] });
  });

  it('none found: an empty page, every id missing', async () => {
    expect(await byId({ flow_ids: [1, 2] })).toEqual({ results: [], total_count: 0, page: 1, page_size: 2, total_pages: 0, missing_ids: [1, 2] });
  });

  it('flow_type: a flow of another type is reported missing', async () => {
    const asked = FLOWS.slice(0, 9).map((f) => f.id);
    const page = await byId({ flow_type: 'fun', flow_ids: asked });
    const fun = FLOWS.filter((f) => asked.includes(f.id) && f.flow_type === 'fun').map((f) => f.id);
    expect(fun.length).toBeGreaterThan(0);
    expect(page.results.map((f) => f.id)).toEqual(fun);
    expect(page.missing_ids).toEqual(asked.filter((id) => !fun.includes(id)));
  });

  it('100 ids are allowed; 101, none, a bad id or an unknown field are refused (4xx, never 500)', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 8000 + i);
    const page = await byId({ flow_ids: hundred });
    expect(page.results.map((f) => f.id)).toEqual(hundred.filter((id) => id < 8060));
    expect(page.missing_ids).toEqual(hundred.filter((id) => id >= 8060));
    expectError(await h.post(URL, { flow_ids: [...hundred, 8100] }), 422, 'VALIDATION_ERROR', { field: 'flow_ids', rule: 'maxItems' });
    expectError(await h.post(URL, { flow_ids: [] }), 422, 'VALIDATION_ERROR', 'flow_ids');
    expectError(await h.post(URL, {}), 422, 'VALIDATION_ERROR', { field: 'flow_ids', rule: 'required' });
    expectError(await h.post(URL, { flow_ids: [0] }), 422, 'VALIDATION_ERROR');
    expectError(await h.post(URL, { flow_ids: ['8000'] }), 400, 'BAD_REQUEST');
    expectError(await h.post(URL, { flow_ids: [8000], flow_type: 'facts' }), 422, 'VALIDATION_ERROR', 'flow_type');
    expectError(await h.post(URL, { flow_ids: [8000], page: 1 }), 422, 'VALIDATION_ERROR', { field: 'page', rule: 'additionalProperties' });
    expectError(await h.post(URL, { flow_ids: [8000], include_deeplinks: true }), 422, 'VALIDATION_ERROR', 'include_deeplinks');
  });
});
