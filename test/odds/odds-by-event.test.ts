import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { ODDS } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectPagingLaw } from '../helpers/paging-law.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { expectError } from '../helpers/responses.js';

const URL = '/v1/odds/upcoming-odds-by-event';

/** Fixture odds ids of event 5001, by id, optionally narrowed. */
function oddsOf(eventId: number, keep: (o: (typeof ODDS)[number]) => boolean = () => true): number[] {
  return ODDS.filter((o) => o.event_id === eventId && keep(o))
    .map((o) => o.id)
    .sort((a, b) => a - b);
}

describe.each(DIALECTS)('POST /v1/odds/upcoming-odds-by-event (%s)', (dialect) => {
  let h: Reader;
  const ids = async (body: Record<string, unknown>) => h.allIds(URL, body, 100);

  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.t.close());

  it('lists odds in the documented shape, with every price format', async () => {
    const page = await h.page(URL, { event_id: 5001, page_size: 6 });
    expect(page.results[0]).toEqual({
      id: 7000,
      event_id: 5001,
      operator: { id: 1, key: 'draftkings', name: 'DraftKings' },
      betting_market: { id: 1, key: 'moneyline', name: 'Moneyline' },
      event_betting_market_position_id: 1,
      position: 'home',
      line: null,
      price: { american: -110, decimal: 1.91, implied_probability: 0.5236 },
      price_decimal: 1.91,
      status: 'open',
      updated_at: '2030-06-14T12:00:00.000Z',
      player_id: null,
      event_period_id: null,
      is_main: true,
      is_live: false,
    });
    expect(page.results[1]).toMatchObject({ line: 210.5, betting_market: { key: 'total-points' } });
    // 1.91, 2.1, 1.5, 3.25, 2.0, 1.8: both branches of the American formula and the boundary d = 2.
    expect(page.results.map((r) => r.price)).toEqual([
      { american: -110, decimal: 1.91, implied_probability: 0.5236 },
      { american: 110, decimal: 2.1, implied_probability: 0.4762 },
      { american: -200, decimal: 1.5, implied_probability: 0.6667 },
      { american: 225, decimal: 3.25, implied_probability: 0.3077 },
      { american: 100, decimal: 2, implied_probability: 0.5 },
      { american: -125, decimal: 1.8, implied_probability: 0.5556 },
    ]);
  });

  it('follows the paging law (47 odds on event 5001, by id)', async () => {
    const expected = oddsOf(5001);
    expect(expected.length).toBe(47);
    await expectPagingLaw(h, URL, { event_id: 5001 }, expected, 20, 100);
  });

  it('event_id is required (422) and an unknown event is 404', async () => {
    expectError(await h.post(URL, {}), 422, 'VALIDATION_ERROR', 'event_id');
    expectError(await h.post(URL, { page: 1 }), 422, 'VALIDATION_ERROR', 'event_id');
    expectError(await h.post(URL, { event_id: 424242 }), 404, 'NOT_FOUND');
    expectError(await h.post(URL, { event_id: '5001' }), 400, 'BAD_REQUEST');
  });

  it('an event without odds is an empty list, not a 404', async () => {
    expect(await h.page(URL, { event_id: 5000 })).toEqual({ results: [], total_count: 0, page: 1, page_size: 20, total_pages: 0 });
  });

  describe('filters', () => {
    it('operator_ids', async () => {
      expect(await ids({ event_id: 5001, operator_ids: [2] })).toEqual(oddsOf(5001, (o) => o.operator_id === 2));
      expect(await ids({ event_id: 5001, operator_ids: [3, 1] })).toEqual(oddsOf(5001, (o) => o.operator_id !== 2));
      expect(await ids({ event_id: 5001, operator_ids: [99] })).toEqual([]);
    });

    it('operator_keys, and operator_ids winning over them', async () => {
      expect(await ids({ event_id: 5001, operator_keys: ['fanduel'] })).toEqual(oddsOf(5001, (o) => o.operator_id === 2));
      expect(await ids({ event_id: 5001, operator_keys: ['BetMGM', 'draftkings'] })).toEqual(oddsOf(5001, (o) => o.operator_id !== 2));
      expect(await ids({ event_id: 5001, operator_ids: [1], operator_keys: ['fanduel'] })).toEqual(oddsOf(5001, (o) => o.operator_id === 1));
      expectError(await h.post(URL, { event_id: 5001, operator_keys: ['no-such-book'] }), 404, 'NOT_FOUND');
    });

    it('betting_market_ids, combined with operators', async () => {
      expect(await ids({ event_id: 5001, betting_market_ids: [2] })).toEqual(oddsOf(5001, (o) => o.betting_market_id === 2));
      const both = await ids({ event_id: 5001, betting_market_ids: [1], operator_ids: [1] });
      expect(both).toEqual(oddsOf(5001, (o) => o.betting_market_id === 1 && o.operator_id === 1));
      expect(both.length).toBe(8);
    });

    it('the event is the event asked', async () => {
      expect(await ids({ event_id: 5004 })).toEqual([7200, 7201, 7202]);
      expect(await ids({ event_id: 5004, operator_ids: [2] })).toEqual([7201]);
    });

    it('a wrongly typed filter is 400', async () => {
      expectError(await h.post(URL, { event_id: 5001, operator_ids: 2 }), 400, 'BAD_REQUEST');
      expectError(await h.post(URL, { event_id: 5001, operator_ids: ['x'] }), 400, 'BAD_REQUEST');
    });
  });
});
