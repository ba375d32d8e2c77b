import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { FLOWS } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectPagingLaw } from '../helpers/paging-law.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { expectError, type Item } from '../helpers/responses.js';
import { flowIds, inLeagues, ofType } from './expected.js';

const FLOWS_URL = '/v1/trends/flows';
const MIXED_URL = '/v1/trends/mixed-flows';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface FlowBody extends Item {
  flow_type: string;
  bet_type: string;
  legs: FlowBody[];
}

describe.each(DIALECTS)('POST /v1/trends/flows and /v1/trends/mixed-flows (%s)', (dialect) => {
  let h: Reader;
  const all = (url: string, body: Record<string, unknown> = {}) => h.allIds(url, body, 25);
  const flows = async (url: string, body: Record<string, unknown>) => (await h.page<FlowBody>(url, { page_size: 25, ...body })).results;

  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.t.close());

  it('renders a single flow in the documented shape', async () => {
    const [flow] = await flows(MIXED_URL, { event_id: 5001, player_id: 1004, bet_type: 'single' });
    expect(flow).toEqual({
      id: 8001,
      flow_type: 'fun',
      bet_type: 'single',
      sport_id: 1,
      league_id: 10,
      event: {
        id: 5001,
        start_time: '2030-06-15T18:00:00.000Z',
        home_team: { id: 102, key: 'knicks', name: 'New York Knicks' },
        away_team: { id: 103, key: 'bulls', name: 'Chicago Bulls' },
      },
      focus_entity: { type: 'player', id: 1004, name: 'Jake Smith' },
      betting_market: { id: 3, key: 'player-points', name: 'Player points' },
      // The fixture's odds open selections 1 to 7; this over is the first a flow opens.
      event_betting_market_position_id: 8,
      line: 25.5,
      split: 'over',
      description: 'Trend 1',
      hit_rate: { hits: 1, total: 10, pct: 10 },
      likelihood: 'likely',
      implied_probability: 0.4762,
      tags: [],
      odds: { american: 110, decimal: 2.1 },
      fact_flow_type: 'base',
      source: 'imported',
      disagrees: false,
      legs: [],
      updated_at: expect.stringMatching(ISO_UTC),
    });
  });

  it('renders nulls where a flow has no market or price, and an event focus by name', async () => {
    const byId = new Map((await flows(MIXED_URL, { event_id: 5004 })).map((f) => [f.id, f]));
    expect(byId.get(8018)).toMatchObject({
      focus_entity: { type: 'event', id: 5004, name: 'Arsenal vs Chelsea' },
      betting_market: null,
      line: null,
      split: null,
      odds: { american: -200, decimal: 1.5 },
    });
    // 8004: no price.
    expect(byId.get(8004)).toMatchObject({ implied_probability: null, odds: null, focus_entity: { type: 'team', id: 200, name: 'Arsenal' } });
  });

  it('a parlay carries its legs as flow items, which are also listed on their own', async () => {
    const parlays = await flows(MIXED_URL, { bet_type: 'parlay' });
    expect(parlays.map((p) => p.id)).toEqual([9000, 9001, 9002, 9003]);
    const parlay = parlays.find((p) => p.id === 9002);
    expect(parlay).toMatchObject({
      bet_type: 'parlay',
      flow_type: 'plain',
      focus_entity: { type: 'event', id: 5004, name: 'Arsenal vs Chelsea' },
      betting_market: null,
      odds: { american: 500, decimal: 6 },
    });
    expect(parlay?.legs.map((l) => l.id)).toEqual([8004, 8011, 8018]);
    const singles = new Map((await flows(MIXED_URL, { event_id: 5004, bet_type: 'single' })).map((f) => [f.id, f]));
    for (const leg of parlay?.legs ?? []) {
      expect(leg.bet_type).toBe('single');
      expect(leg.legs).toEqual([]);
      expect(leg).toEqual(singles.get(leg.id));
    }
  });

  it('mixed-flows returns every flow type, singles and parlays, for its sport_id and league_id', async () => {
    const results = await flows(MIXED_URL, { sport_id: 1, league_id: 10 });
    const expected = flowIds(inLeagues(10));
    expect(await all(MIXED_URL, { sport_id: 1, league_id: 10 })).toEqual(expected);
    const page = await h.page<FlowBody>(MIXED_URL, { sport_id: 1, league_id: 10, page_size: 25 });
    expect(page.total_count).toBe(expected.length);
    const everything = await Promise.all([1, 2].map((p) => h.page<FlowBody>(MIXED_URL, { sport_id: 1, league_id: 10, page: p, page_size: 25 })));
    const listed = everything.flatMap((p) => p.results);
    expect(new Set(listed.map((f) => f.flow_type))).toEqual(new Set(['fact', 'fun', 'plain']));
    expect(new Set(listed.map((f) => f.bet_type))).toEqual(new Set(['single', 'parlay']));
    expect(results.every((f) => f.sport_id === 1 && f.league_id === 10)).toBe(true);
  });

  it('flows returns only the flow_type asked, fact by default', async () => {
    expect(await all(FLOWS_URL)).toEqual(flowIds(ofType('fact')));
    for (const type of ['fact', 'fun', 'plain'] as const) {
      const ids = await all(FLOWS_URL, { flow_type: type });
      expect(ids).toEqual(flowIds(ofType(type)));
      expect(ids.length).toBeGreaterThan(0);
    }
    const fun = await flows(FLOWS_URL, { flow_type: 'fun', league_id: 10 });
    expect(fun.every((f) => f.flow_type === 'fun')).toBe(true);
    expectError(await h.post(FLOWS_URL, { flow_type: 'rumour' }), 422, 'VALIDATION_ERROR', 'flow_type');
  });

  it('mixed-flows narrows to one type when flow_type is given', async () => {
    expect(await all(MIXED_URL, { flow_type: 'plain' })).toEqual(flowIds(ofType('plain')));
  });

  it('flows follows the paging law (22 fact flows, by id)', async () => {
    const expected = flowIds(ofType('fact'));
    expect(expected.length).toBe(22);
    await expectPagingLaw(h, FLOWS_URL, {}, expected, 10, 25);
  });

  it('mixed-flows follows the paging law (64 flows, by id)', async () => {
    const expected = flowIds();
    expect(expected.length).toBe(FLOWS.length);
    await expectPagingLaw(h, MIXED_URL, {}, expected, 25, 25);
    await expectPagingLaw(h, MIXED_URL, { league_key: 'nba' }, flowIds(inLeagues(10)), 7, 25);
  });

  it('equivalent requests get the same answer, and an import is seen at once', async () => {
    const a = await h.post(MIXED_URL, { sport_ids: [2, 1], bet_type: 'singles', min_hit_rate_threshold: 0 });
    const b = await h.post(MIXED_URL, { sport_id: 1, sport_ids: [2, 2], bet_type: 'single', page: 1, page_size: 20 });
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);

    const before = await h.page(MIXED_URL, { league_id: 21 });
    await importDataset(h.t, {
      flows: [{ id: 8500, flow_type: 'fun', event_id: 5006, focus_entity_type: 'event', description: 'Late trend', hits: 2, total: 4, likelihood: 'possible' }],
    });
    const after = await h.page(MIXED_URL, { league_id: 21 });
    expect(after.total_count).toBe(before.total_count + 1);
    expect(after.results.map((f) => f.id)).toContain(8500);
  });

  it('a hit rate is rounded to 2 decimals a half away from zero, on its exact value: 201 of 20,000 is 1.01 %', async () => {
    // 201 × 100 / 20,000 is 1.005 exactly; floating point makes 1.005 × 100 100.49999999999999.
    await importDataset(h.t, {
      flows: [{ id: 8501, flow_type: 'fun', event_id: 5006, focus_entity_type: 'event', description: 'Rare trend', hits: 201, total: 20_000, likelihood: 'longshot' }],
    });
    const [flow] = await h.page<Item & { hit_rate: unknown }>('/v1/trends/flows-by-id', { flow_ids: [8501] }).then((p) => p.results);
    expect(flow?.hit_rate).toEqual({ hits: 201, total: 20_000, pct: 1.01 });
  });
});
