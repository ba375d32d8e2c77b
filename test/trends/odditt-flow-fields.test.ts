import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { eventById, eventsFlowsDataset, FLOWS } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { flowIds, ofBetType, onSplit, withBet } from './expected.js';

const MIXED_URL = '/v1/trends/mixed-flows';
const FLOWS_URL = '/v1/trends/flows';
const BY_ID_URL = '/v1/trends/flows-by-id';

interface Flow {
  id: number;
  flow_type: string;
  bet_type: string;
  focus_entity: { type: string; id: number };
  event: { home_team: { id: number }; away_team: { id: number } };
  odds: { american: number; decimal: number } | null;
  price?: number | string | null;
  legs: Flow[];
}

/**
 * The fields and values Odditt's client sends to the flow endpoints, accepted: its values are
 * input aliases of ours (the answers keep ours), its filters filter, its formats add `price`.
 */
describe.each(DIALECTS)("Odditt's flow fields (%s)", (dialect) => {
  let h: Reader;
  const every = async (body: Record<string, unknown>): Promise<Flow[]> => {
    const flows: Flow[] = [];
    for (let page = 1; ; page++) {
      const res = await h.page<Flow>(MIXED_URL, { ...body, page, page_size: 25 });
      flows.push(...res.results);
      if (page >= res.total_pages) return flows;
    }
  };
  const ids = (flows: Flow[]) => flows.map((f) => f.id);

  beforeAll(async () => {
    h = await reader({ dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.close());

  it('split_type overs/unders and bet_type same_game_parlay are read as ours', async () => {
    expect(ids(await every({ split_type: 'overs' }))).toEqual(flowIds(withBet(onSplit('over'))));
    expect(ids(await every({ split_type: 'unders' }))).toEqual(flowIds(withBet(onSplit('under'))));
    expect(ids(await every({ bet_type: 'same_game_parlay' }))).toEqual(flowIds(ofBetType('parlay')));
    expect((await every({ bet_type: 'same_game_parlay' })).every((f) => f.bet_type === 'parlay')).toBe(true);
  });

  it('focus_entity_type_id 1, 2, 3 is a team, a player, the event; team_split home/away the focus team\'s side', async () => {
    const byFocus = (type: string) => FLOWS.filter((f) => f.focus_entity_type === type).map((f) => f.id).sort((a, b) => a - b);
    expect(ids(await every({ focus_entity_type_id: 1 }))).toEqual(byFocus('team'));
    expect(ids(await every({ focus_entity_type_id: 2 }))).toEqual(byFocus('player'));
    expect(ids(await every({ focus_entity_type_id: 3 }))).toEqual(byFocus('event'));
    const side = (which: 'home' | 'away') =>
      FLOWS.filter((f) => f.focus_entity_type === 'team' && f.focus_entity_id === eventById(f.event_id)[which === 'home' ? 'home_team_id' : 'away_team_id'])
        .map((f) => f.id)
        .sort((a, b) => a - b);
    expect(side('home').length).toBeGreaterThan(0);
    expect(ids(await every({ team_split: 'home' }))).toEqual(side('home'));
    expect(ids(await every({ team_split: 'away' }))).toEqual(side('away'));
    expectError(await h.post(MIXED_URL, { focus_entity_type_id: 4 }), 422, 'VALIDATION_ERROR', 'focus_entity_type_id');
  });

  it('odds_format adds price beside odds on flows and legs; product_mode sets its default; none: no price', async () => {
    const parlay = async (body: Record<string, unknown>) => (await h.page<Flow>(FLOWS_URL, { ...body, bet_type: 'parlay', flow_type: 'fact', page_size: 25 })).results[0];
    const plain = await parlay({});
    expect(plain).not.toHaveProperty('price');
    expect(plain?.legs[0]).not.toHaveProperty('price');
    const american = await parlay({ odds_format: 'american' });
    expect(american).toMatchObject({ id: 9000, odds: { american: 250, decimal: 3.5 }, price: 250 });
    expect(american?.legs.map((leg) => leg.price)).toEqual(american?.legs.map((leg) => leg.odds?.american ?? null));
    expect((await parlay({ product_mode: 'dfs' }))?.price).toBe(3.5);
    expect((await parlay({ product_mode: 'prediction_market' }))?.price).toBe(28.57);
    expect((await parlay({ product_mode: 'prediction_market', odds_format: 'fractional' }))?.price).toBe('5/2');
    // Odditt's formats asked by name, on the mixed list too: multiplier is the decimal payout, percent 100/d.
    expect((await parlay({ odds_format: 'multiplier' }))?.price).toBe(3.5);
    expect((await parlay({ odds_format: 'percent' }))?.price).toBe(28.57);
    const mixed = (await every({ odds_format: 'percent' })).find((f) => f.id === 9000);
    expect(mixed?.price).toBe(28.57);
    // A flow without a price has price null.
    const unpriced = (await every({ odds_format: 'decimal' })).find((f) => f.odds === null);
    expect(unpriced?.price).toBeNull();
  });

  it("flows-by-id takes Odditt's flow_type values and fact_flow_type; answers keep our flow_type", async () => {
    const byId = async (body: Record<string, unknown>) => h.page<Flow>(BY_ID_URL, { flow_ids: [9000, 9001, 8000, 8001], ...body });
    expect(ids((await byId({ flow_type: 'fact_flow' })).results)).toEqual([9000, 8000]);
    expect((await byId({ flow_type: 'fact_flow' })).results.map((f) => f.flow_type)).toEqual(['fact', 'fact']);
    expect(ids((await byId({ flow_type: 'fun_flow' })).results)).toEqual([9001, 8001]);
    expect(ids((await byId({ flow_type: 'fact_flow_parlay' })).results)).toEqual([9000]);
    expect(ids((await byId({ flow_type: 'fun_flow_parlay' })).results)).toEqual([9001]);
    expect(ids((await byId({ flow_type: 'plain_flow_parlay' })).results)).toEqual([]);
    expect(ids((await byId({ fact_flow_type: 'base' })).results)).toEqual([9000, 9001, 8000, 8001]);
    const expanded = await byId({ fact_flow_type: 'expanded' });
    expect(expanded.results).toEqual([]);
    expect((expanded as unknown as { missing_ids: number[] }).missing_ids).toEqual([9000, 9001, 8000, 8001]);
    expectError(await h.post(BY_ID_URL, { flow_ids: [1], flow_type: 'facts' }), 422, 'VALIDATION_ERROR', 'flow_type');
  });

  it('flows-by-id takes the presentation field Odditt\'s client sends there (use_cartoon_images) and ignores it', async () => {
    const plain = await h.page<Flow>(BY_ID_URL, { flow_ids: [9000, 8000] });
    for (const cartoons of [true, false]) {
      expect(await h.page<Flow>(BY_ID_URL, { flow_ids: [9000, 8000], flow_type: 'fact_flow', use_cartoon_images: cartoons })).toEqual(plain);
    }
  });
});
