import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

/** The tooltip of a fact or fun flow: its sentence, hit rate, sample, price, and a parlay's legs. */
describe.each(DIALECTS)('GET /v1/trends/flow-tooltip/{flow_type}/{flow_id} (%s)', (dialect) => {
  let h: Reader;
  beforeAll(async () => {
    h = await reader({ dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.close());

  it('a single: the sentence, hit rate, sample and price of the flow item', async () => {
    // Flow 8001 is a fun single: a player's over 25.5 at 2.1, 1 hit of 10.
    const res = await h.get('/v1/trends/flow-tooltip/fun/8001');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      flow_id: 8001,
      flow_type: 'fun',
      bet_type: 'single',
      sentence: 'Trend 1',
      hit_rate: { hits: 1, total: 10, pct: 10 },
      sample_size: 10,
      odds: { american: 110, decimal: 2.1 },
      implied_probability: 0.4762,
      legs: [],
    });
  });

  it('a parlay: its legs in order, each with its sentence, selection and price', async () => {
    // Parlay 9000 (fact, 3.5) of 8001 and 8008.
    const res = await h.get('/v1/trends/flow-tooltip/fact/9000');
    expect(res.statusCode, res.body).toBe(200);
    const tooltip = res.json<{ bet_type: string; odds: unknown; legs: Array<Record<string, unknown>> }>();
    expect(tooltip).toMatchObject({ bet_type: 'parlay', odds: { american: 250, decimal: 3.5 } });
    expect(tooltip.legs.map((leg) => leg.flow_id)).toEqual([8001, 8008]);
    expect(tooltip.legs[0]).toEqual({
      flow_id: 8001,
      sentence: 'Trend 1',
      event_betting_market_position_id: 8,
      betting_market: 'Player points',
      line: 25.5,
      split: 'over',
      odds: { american: 110, decimal: 2.1 },
    });
  });

  it('404 for a flow of the other type, or none; 422 for a type that is neither fact nor fun', async () => {
    expectError(await h.get('/v1/trends/flow-tooltip/fact/8001'), 404, 'NOT_FOUND');
    expectError(await h.get('/v1/trends/flow-tooltip/fun/424242'), 404, 'NOT_FOUND');
    expectError(await h.get('/v1/trends/flow-tooltip/plain/8002'), 422, 'VALIDATION_ERROR', 'flow_type');
    expectError(await h.get('/v1/trends/flow-tooltip/fact/0'), 422, 'VALIDATION_ERROR', 'flow_id');
  });
});
