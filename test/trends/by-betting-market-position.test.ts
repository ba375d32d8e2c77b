import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { eventsFlowsDataset, ODDS } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

const URL = '/v1/trends/by-betting-market-position';

interface Flow {
  id: number;
  event_betting_market_position_id: number | null;
  odds: { american: number; decimal: number } | null;
  price?: number | string | null;
  legs: Flow[];
}
interface OddsItem {
  id: number;
  position: string;
  line: number | null;
  betting_market: { id: number };
  event_betting_market_position_id: number | null;
}
interface FlowsPage {
  results: Flow[];
  total_count: number;
  page: number;
  page_size: number;
  total_pages: number;
}

/**
 * Selections with their own id: the odds rows that price a selection and the flows that bet on it
 * share one `event_betting_market_position_id`, kept across imports; the flows on selections by id.
 */
describe.each(DIALECTS)('selections with their own id (%s)', (dialect) => {
  let h: Reader;
  let event5001: OddsItem[];
  const selectionOf = (position: string, market: number) => {
    const id = event5001.find((o) => o.position === position && o.betting_market.id === market)?.event_betting_market_position_id;
    if (typeof id !== 'number') throw new Error(`no selection for ${position}`);
    return id;
  };
  const oddsOf = async (eventId: number): Promise<OddsItem[]> => (await h.page<OddsItem>('/v1/odds/upcoming-odds-by-event', { event_id: eventId, page_size: 100 })).results;
  const flowsOn = async (body: Record<string, unknown>): Promise<FlowsPage> => {
    const res = await h.post(URL, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FlowsPage>();
  };
  const flowById = async (id: number): Promise<Flow> => {
    const page = await h.page<Flow>('/v1/trends/flows-by-id', { flow_ids: [id] });
    const flow = page.results[0];
    if (!flow) throw new Error(`no flow ${id}`);
    return flow;
  };

  beforeAll(async () => {
    h = await reader({ dialect, dataset: eventsFlowsDataset });
    // A single on the home side of event 5001's moneyline (by position), and a parlay of it with an under.
    await importDataset(h.t, {
      flows: [
        { id: 8900, flow_type: 'fact', event_id: 5001, focus_entity_type: 'team', focus_entity_id: 102, betting_market_id: 1, position: 'home', description: 'Home', hits: 6, total: 10, likelihood: 'likely', price_decimal: 2.25 },
        { id: 8901, flow_type: 'fun', event_id: 5001, focus_entity_type: 'event', description: 'Both', hits: 3, total: 10, likelihood: 'longshot', price_decimal: 4, leg_ids: [8022, 8900] },
      ],
    });
    event5001 = await oddsOf(5001);
  });
  afterAll(async () => h.close());

  it('odds rows of one selection share its id; other selections have others', async () => {
    expect(event5001).toHaveLength(ODDS.filter((o) => o.event_id === 5001).length);
    const byKey = new Map<string, Set<number | null>>();
    for (const o of event5001) {
      const key = `${o.betting_market.id}|${o.position}|${o.line}`;
      byKey.set(key, new Set([...(byKey.get(key) ?? []), o.event_betting_market_position_id]));
    }
    expect(byKey.size).toBe(4);
    const ids = [...byKey.values()].map((set) => [...set]);
    for (const one of ids) expect(one).toHaveLength(1);
    expect(new Set(ids.flat()).size).toBe(4);
    expect(ids.flat().every((id) => typeof id === 'number' && id > 0)).toBe(true);
  });

  it('flows carry the id of the selection they bet on: by position, or by their over/under side; null without one', async () => {
    const under = selectionOf('under', 2);
    expect((await flowById(8022)).event_betting_market_position_id).toBe(under);
    expect((await flowById(8050)).event_betting_market_position_id).toBe(under);
    expect((await flowById(8900)).event_betting_market_position_id).toBe(selectionOf('home', 1));
    // A moneyline flow that names no position, and a parlay (its legs name theirs).
    expect((await flowById(8008)).event_betting_market_position_id).toBeNull();
    const parlay = await flowById(8901);
    expect(parlay.event_betting_market_position_id).toBeNull();
    expect(parlay.legs.map((leg) => leg.event_betting_market_position_id)).toEqual([under, selectionOf('home', 1)]);
  });

  it('answers the singles on the selections and the parlays with a leg on one, by id; a repeated or unknown id matches nothing more', async () => {
    const under = selectionOf('under', 2);
    const page = await flowsOn({ event_betting_market_position_ids: [under, under, 999_999] });
    expect(page.results.map((f) => f.id)).toEqual([8022, 8050, 8901]);
    expect(page).toMatchObject({ total_count: 3, page: 1, page_size: 500, total_pages: 1 });
    expect((await flowsOn({ event_betting_market_position_ids: [selectionOf('home', 1)] })).results.map((f) => f.id)).toEqual([8900, 8901]);
    expect(await flowsOn({ event_betting_market_position_ids: [999_999] })).toEqual({ results: [], total_count: 0, page: 1, page_size: 500, total_pages: 0 });
    // The items are the flow lists' items.
    expect(page.results[0]).toEqual(await flowById(8022));
    expect(page.results[0]).not.toHaveProperty('price');
  });

  it('odds_format adds `price` to each flow and leg beside `odds`; product_mode sets its default', async () => {
    const ids = { event_betting_market_position_ids: [selectionOf('home', 1)] };
    const american = await flowsOn({ ...ids, odds_format: 'american' });
    const single = american.results[0];
    expect(single).toMatchObject({ id: 8900, odds: { american: 125, decimal: 2.25 }, price: 125 });
    expect(american.results[1]?.legs[1]).toMatchObject({ id: 8900, price: 125 });
    expect((await flowsOn({ ...ids, product_mode: 'dfs' })).results[0]?.price).toBe(2.25);
    expect((await flowsOn({ ...ids, product_mode: 'prediction_market' })).results[0]?.price).toBe(44.44);
    expect((await flowsOn({ ...ids, product_mode: 'sportsbook' })).results[0]?.price).toBe(125);
    expect((await flowsOn({ ...ids, product_mode: 'dfs', odds_format: 'fractional' })).results[0]?.price).toBe('5/4');
    expect((await flowsOn({ ...ids, use_cartoon_images: true })).results.map((f) => f.id)).toEqual([8900, 8901]);
  });

  it('refuses no id, more than 100, a bad id, an unknown field or format (4xx, never 500)', async () => {
    expectError(await h.post(URL, {}), 422, 'VALIDATION_ERROR', { field: 'event_betting_market_position_ids', rule: 'required' });
    expectError(await h.post(URL, { event_betting_market_position_ids: [] }), 422, 'VALIDATION_ERROR', 'event_betting_market_position_ids');
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expectError(await h.post(URL, { event_betting_market_position_ids: many }), 422, 'VALIDATION_ERROR', { field: 'event_betting_market_position_ids', rule: 'maxItems' });
    expectError(await h.post(URL, { event_betting_market_position_ids: [0] }), 422, 'VALIDATION_ERROR');
    expectError(await h.post(URL, { event_betting_market_position_ids: [1], odds_format: 'hongkong' }), 422, 'VALIDATION_ERROR', 'odds_format');
    expectError(await h.post(URL, { event_betting_market_position_ids: [1], page: 2 }), 422, 'VALIDATION_ERROR', { field: 'page', rule: 'additionalProperties' });
  });

  it('ids are kept across imports: a new line gets a new id, the feed id names a new selection, a taken feed id is refused', async () => {
    const before = new Map(event5001.map((o) => [o.id, o.event_betting_market_position_id]));
    const base = ODDS.find((o) => o.id === 7001);
    if (!base) throw new Error('fixture: no odds 7001');
    // Odds 7001 moves to a new line: a new selection; re-imported with a feed id for its old one, that one keeps its id.
    await importDataset(h.t, {
      odds: [
        { ...base, line: 211.5, price_decimal: 1.95 },
        { ...base, id: 7900, event_betting_market_position_id: 777_001 },
        { ...base, id: 7901, line: 212.5, event_betting_market_position_id: 777_002 },
      ],
    });
    const after = await oddsOf(5001);
    const idOf = (oddsId: number) => after.find((o) => o.id === oddsId)?.event_betting_market_position_id;
    const moved = idOf(7001);
    // A new selection without a feed id takes the next id after the largest, the feed's of the same import included.
    expect(moved).toBe(777_003);
    expect([...before.values()]).not.toContain(moved);
    expect(idOf(7900)).toBe(before.get(7001));
    expect(idOf(7901)).toBe(777_002);
    for (const [oddsId, id] of before) if (oddsId !== 7001) expect(idOf(oddsId)).toBe(id);
    await importDataset(h.t, { odds: [{ ...base, id: 7902, line: 213.5 }] });
    expect((await oddsOf(5001)).find((o) => o.id === 7902)?.event_betting_market_position_id).toBe(777_004);

    const taken = await h.t.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: adminHeaders,
      payload: { odds: [{ ...base, id: 7903, line: 214.5, event_betting_market_position_id: 777_002 }] },
    });
    expectError(taken, 422, 'VALIDATION_ERROR', { field: 'odds[0].event_betting_market_position_id', rule: 'unique' });
    expect((await oddsOf(5001)).some((o) => o.id === 7903)).toBe(false);
  });
});
