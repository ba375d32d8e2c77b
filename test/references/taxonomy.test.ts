import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { expectError, type PageBody } from '../helpers/responses.js';
import { smallDataset } from '../import/fixture.js';

/**
 * The flow tag taxonomy (tag dimensions, the tag-type search, a tag type's children), the tags on
 * flow items with the tag_type_ids filter, and the subnational regions: imported, then listed.
 * The small dataset has Situation (Venue › Home › the value "Last 10 Games") and Bet (Over);
 * this file adds Angle, whose tags apply to fun flows only.
 */
const ANGLE = {
  tag_dimensions: [{ id: 3, key: 'angle', name: 'Angle' }],
  tag_types: [
    { id: 30, key: 'weekday', name: 'Weekday', dimension_id: 3, flow_types: ['fun'] },
    { id: 31, key: 'monday', name: 'Monday', dimension_id: 3, parent_id: 30, is_value: true, flow_types: ['fun'] },
  ],
};

const SITUATION = { id: 1, key: 'situation', name: 'Situation' };
const VENUE = {
  id: 10,
  key: 'venue',
  name: 'Venue',
  dimension: SITUATION,
  parent_id: null,
  tag_level: 1,
  terminal: false,
  is_value: false,
  has_children: true,
  flow_types: ['fact', 'fun', 'plain'],
  breadcrumbs: [],
  known_values: [],
};
const HOME = {
  ...VENUE,
  id: 11,
  key: 'home',
  name: 'Home',
  parent_id: 10,
  tag_level: 2,
  terminal: true,
  has_children: false,
  breadcrumbs: [{ id: 10, key: 'venue', name: 'Venue' }],
  known_values: [{ id: 12, key: 'last-10', name: 'Last 10 Games' }],
};

describe.each(DIALECTS)('flow tag taxonomy and subnational regions (%s)', (dialect) => {
  let t: Harness;
  let apiKey: string;
  const get = (url: string): Promise<LightMyRequestResponse> => t.as({ apiKey }).get(url);
  const post = (url: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> => t.as({ apiKey }).post(url, payload);
  const page = async <T = { id: number }>(url: string): Promise<PageBody<T>> => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const ids = async (url: string) => (await page(url)).results.map((r) => r.id);

  beforeAll(async () => {
    t = await harness({ dialect });
    await t.import({ ...smallDataset() });
    await t.import(ANGLE);
    ({ apiKey } = await t.client());
  });
  afterAll(async () => t.close());

  describe('GET /v1/references/tag-dimensions', () => {
    it('lists the dimensions in our page shape, with the flow types their tags apply to', async () => {
      expect(await page('/v1/references/tag-dimensions')).toEqual({
        results: [
          { ...SITUATION, flow_types: ['fact', 'fun', 'plain'] },
          { id: 2, key: 'bet', name: 'Bet', flow_types: ['fact', 'fun', 'plain'] },
          { id: 3, key: 'angle', name: 'Angle', flow_types: ['fun'] },
        ],
        total_count: 3,
        page: 1,
        page_size: 20,
        total_pages: 1,
      });
    });

    it('flow_type takes ours and Odditt\'s values, and refuses others', async () => {
      expect(await ids('/v1/references/tag-dimensions?flow_type=fact')).toEqual([1, 2]);
      expect(await ids('/v1/references/tag-dimensions?flow_type=fact_flow')).toEqual([1, 2]);
      expect(await ids('/v1/references/tag-dimensions?flow_type=fun_flow_parlay')).toEqual([1, 2, 3]);
      expect(await ids('/v1/references/tag-dimensions?flow_type=plain_flow_parlay')).toEqual([1, 2]);
      expectError(await get('/v1/references/tag-dimensions?flow_type=facts'), 422, 'VALIDATION_ERROR', 'flow_type');
    });
  });

  describe('GET /v1/references/tag-types/search', () => {
    it('shows a tag type with its dimension, level, breadcrumbs and known values', async () => {
      expect((await page('/v1/references/tag-types/search?search=home')).results).toEqual([HOME]);
      expect((await page('/v1/references/tag-types/search?search=venue')).results).toEqual([VENUE]);
    });

    it('search matches the start of the name or key by default; contains and exact on request', async () => {
      expect(await ids('/v1/references/tag-types/search?search=HO')).toEqual([11]);
      expect(await ids('/v1/references/tag-types/search?search=ome')).toEqual([]);
      expect(await ids('/v1/references/tag-types/search?search=ome&search_mode=contains')).toEqual([11]);
      expect(await ids('/v1/references/tag-types/search?search=hom&search_mode=exact')).toEqual([]);
      expect(await ids('/v1/references/tag-types/search?search=Home&search_mode=exact')).toEqual([11]);
      expectError(await get('/v1/references/tag-types/search?search=h&search_mode=fuzzy'), 422, 'VALIDATION_ERROR', 'search_mode');
    });

    it('lists no values (their parent\'s known_values holds them)', async () => {
      expect(await ids('/v1/references/tag-types/search')).toEqual([10, 11, 20, 30]);
      expect(await ids('/v1/references/tag-types/search?search=last&search_mode=contains')).toEqual([]);
    });

    it('filters by dimension key, flow type, terminal_only and tag_level', async () => {
      expect(await ids('/v1/references/tag-types/search?dimension=situation')).toEqual([10, 11]);
      expect(await ids('/v1/references/tag-types/search?dimension=nowhere')).toEqual([]);
      expect(await ids('/v1/references/tag-types/search?flow_type=fact_flow')).toEqual([10, 11, 20]);
      expect(await ids('/v1/references/tag-types/search?flow_type=fun')).toEqual([10, 11, 20, 30]);
      // Venue groups Home: not terminal. Weekday has only values: terminal.
      expect(await ids('/v1/references/tag-types/search?terminal_only=true')).toEqual([11, 20, 30]);
      expect(await ids('/v1/references/tag-types/search?tag_level=2')).toEqual([11]);
      expect(await page('/v1/references/tag-types/search?page=2&page_size=3')).toMatchObject({ total_count: 4, page: 2, total_pages: 2 });
    });
  });

  describe('GET /v1/references/tag-types/{tag_type_id}/children', () => {
    it('answers the parent and a page of its children', async () => {
      expect(await page('/v1/references/tag-types/10/children')).toEqual({ parent: VENUE, results: [HOME], total_count: 1, page: 1, page_size: 20, total_pages: 1 });
    });

    it('omits values unless include_values, and filters by flow type', async () => {
      expect(await ids('/v1/references/tag-types/11/children')).toEqual([]);
      const values = await page<{ id: number; is_value: boolean; tag_level: number }>('/v1/references/tag-types/11/children?include_values=true');
      expect(values.results).toEqual([expect.objectContaining({ id: 12, is_value: true, tag_level: 3, flow_types: ['fact'] })]);
      expect(await ids('/v1/references/tag-types/11/children?include_values=true&flow_type=fun_flow')).toEqual([]);
      expect(await ids('/v1/references/tag-types/30/children?include_values=true&flow_type=fun_flow')).toEqual([31]);
    });

    it('an unknown tag type is 404; an id that is no integer 400', async () => {
      expectError(await get('/v1/references/tag-types/999/children'), 404, 'NOT_FOUND');
      expectError(await get('/v1/references/tag-types/abc/children'), 400, 'BAD_REQUEST', 'tag_type_id');
    });
  });

  describe('tags on flows', () => {
    it('a flow item carries its tags, and a parlay\'s leg its own', async () => {
      const body = (await post('/v1/trends/flows-by-id', { flow_ids: [1, 5] })).json<{ results: Array<{ id: number; tags: unknown[]; legs: Array<{ id: number; tags: unknown[] }> }> }>();
      const byId = new Map(body.results.map((f) => [f.id, f]));
      expect(byId.get(1)?.tags).toEqual([
        { id: 11, key: 'home', name: 'Home' },
        { id: 20, key: 'over', name: 'Over' },
      ]);
      expect(byId.get(5)?.tags).toEqual([]);
      expect(byId.get(5)?.legs.find((leg) => leg.id === 1)?.tags).toHaveLength(2);
    });

    it('tag_type_ids keeps the flows tagged with one of them or a descendant', async () => {
      const flowIds = async (body: Record<string, unknown>) => {
        const res = await post('/v1/trends/mixed-flows', body);
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ results: Array<{ id: number }> }>().results.map((f) => f.id);
      };
      expect(await flowIds({ tag_type_ids: [11] })).toEqual([1]);
      expect(await flowIds({ tag_type_ids: [10] })).toEqual([1]);
      expect(await flowIds({ tag_type_ids: [20, 30] })).toEqual([1]);
      expect(await flowIds({ tag_type_ids: [30] })).toEqual([]);
      expect(await flowIds({ tag_type_ids: [999] })).toEqual([]);
      expect(await flowIds({ tag_type_ids: [10], flow_type: 'fun' })).toEqual([]);
    });
  });

  describe('GET /v1/references/subnational-regions', () => {
    it('lists the regions of one country, searchable by name, key or code', async () => {
      expect(await page('/v1/references/subnational-regions?country_id=1')).toEqual({
        results: [{ id: 1, key: 'new-jersey', name: 'New Jersey', code: 'NJ', country_id: 1 }],
        total_count: 1,
        page: 1,
        page_size: 20,
        total_pages: 1,
      });
      expect(await ids('/v1/references/subnational-regions?country_id=2&search=cat')).toEqual([2]);
      expect(await ids('/v1/references/subnational-regions?country_id=1&search=nj')).toEqual([1]);
      expect(await ids('/v1/references/subnational-regions?country_id=1&search=cat')).toEqual([]);
    });

    it('country_id is required (422) and must name a country (404)', async () => {
      expectError(await get('/v1/references/subnational-regions'), 422, 'VALIDATION_ERROR', 'country_id');
      expectError(await get('/v1/references/subnational-regions?country_id=99'), 404, 'NOT_FOUND');
    });
  });
});

/** Flow 1 of the small dataset: tagged Home and Over. */
function flowOne() {
  const flow = smallDataset().flows.find((f) => f.id === 1);
  if (flow === undefined) throw new Error('the small dataset has flow 1');
  return flow;
}

describe.each(DIALECTS)('importing the taxonomy and regions, all or nothing (%s)', (dialect) => {
  let t: Harness;
  const importing = (dataset: Record<string, unknown>) => t.admin.post('/admin/v1/import', dataset);
  const count = async (table: 'tag_types' | 'flow_tags' | 'subnational_regions') => (await t.ctx.database.db.selectFrom(table).selectAll().execute()).length;

  beforeAll(async () => {
    t = await harness({ dialect });
    await t.import({ ...smallDataset() });
  });
  afterAll(async () => t.close());

  const refused = async (dataset: Record<string, unknown>, field: string, rule: string) => {
    const before = [await count('tag_types'), await count('flow_tags'), await count('subnational_regions')];
    expectError(await importing(dataset), 422, 'VALIDATION_ERROR', { field, rule });
    expect([await count('tag_types'), await count('flow_tags'), await count('subnational_regions')]).toEqual(before);
  };
  const tagType = (id: number, extra: Record<string, unknown> = {}) => ({ id, key: `t${id}`, name: `T${id}`, dimension_id: 1, ...extra });

  it('refuses references to nothing: a dimension, a parent, a flow\'s tag, a region\'s country', async () => {
    await refused({ tag_types: [tagType(40, { dimension_id: 9 })] }, 'tag_types[0].dimension_id', 'reference');
    await refused({ tag_types: [tagType(40, { parent_id: 99 })] }, 'tag_types[0].parent_id', 'reference');
    const flow = flowOne();
    await refused({ flows: [{ ...flow, tag_type_ids: [99] }] }, 'flows[0].tag_type_ids[0]', 'reference');
    await refused({ subnational_regions: [{ id: 9, key: 'x', name: 'X', code: 'X', country_id: 99 }] }, 'subnational_regions[0].country_id', 'reference');
  });

  it('keeps the taxonomy a forest: no cycle (also through stored rows), a child in its parent\'s dimension', async () => {
    await refused({ tag_types: [tagType(40, { parent_id: 41 }), tagType(41, { parent_id: 40 })] }, 'tag_types[0].parent_id', 'acyclic');
    // Venue (10) moved under its own child Home (11), which is stored.
    await refused({ tag_types: [tagType(10, { parent_id: 11 })] }, 'tag_types[0].parent_id', 'acyclic');
    await refused({ tag_types: [tagType(40, { parent_id: 20 })] }, 'tag_types[0].dimension_id', 'same_dimension');
  });

  it('a re-imported flow keeps exactly the tags it carries now', async () => {
    const flow = flowOne();
    expect(await count('flow_tags')).toBe(2);
    await t.import({ flows: [{ ...flow, tag_type_ids: [20] }] });
    expect(await count('flow_tags')).toBe(1);
    await t.import({ flows: [{ ...flow, tag_type_ids: undefined }] });
    expect(await count('flow_tags')).toBe(0);
  });
});
