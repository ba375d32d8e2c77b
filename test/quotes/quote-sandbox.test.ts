import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';


/** The sandbox reads no database: one dialect is enough. */
describe('POST /v1/trends/flows/quote-sandbox', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite' });
  });
  afterAll(async () => t.close());

  const leg = (id: number, decimal?: number) => ({
    event_betting_market_position_id: id,
    position: 'home',
    ...(decimal === undefined ? {} : { prices: [{ operator: { id: 1, key: 'k', name: 'K' }, decimal }] }),
  });
  const sandbox = (payload: object): Promise<LightMyRequestResponse> => t.anonymous.post('/v1/trends/flows/quote-sandbox', payload);

  const single = (flowId: number) => ({ flow_id: flowId, flow_type: 'fact', country: 'US', event_betting_market_position_maps: [leg(11, 2.5)] });

  it('prices a single without a credential, from the leg\'s own price, the same every time', async () => {
    const res = await sandbox(single(1));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      flow_id: 1,
      button_payload: 'FD-MOCK-1-11-12172CBA6EA2',
      decimal_odds_value: 2.5,
      american_odds_value: '+150',
      fractional_odds_value: '3/2',
      odds_implied_probability: 0.4,
      payout_multiplier: 2.5,
    });
    expect(body).not.toHaveProperty('is_combinable');
    expect((await sandbox(single(1))).json()).toEqual(body);
  });

  it('fails some legs: their fields null, with a failure reason', async () => {
    // Flow 3 is one the seeded generator fails.
    const body = (await sandbox(single(3))).json();
    expect(body).toMatchObject({ button_payload: null, decimal_odds_value: null, american_odds_value: null, payout_multiplier: null });
    expect(body.event_betting_market_position_maps[0]).toMatchObject({ event_betting_market_position_id: 11, failure_reason: 'SELECTION_UNAVAILABLE' });
  });

  it('prices a parlay with is_combinable and parlay_failure_reason, and fails about 15% of legs and parlays', async () => {
    let failedLegs = 0;
    let legs = 0;
    let refused = 0;
    let rolled = 0;
    const runs = 400;
    for (let flow = 1; flow <= runs; flow++) {
      const res = await sandbox({ flow_id: flow, flow_type: 'fact_flow_parlay', country: 'US', region: 'NJ', event_betting_market_position_maps: [leg(flow * 2), leg(flow * 2 + 1)] });
      const body = res.json();
      expect(typeof body.is_combinable).toBe('boolean');
      legs += 2;
      failedLegs += body.event_betting_market_position_maps.filter((l: { button_payload: string | null }) => l.button_payload === null).length;
      if (body.is_combinable) {
        expect(body.parlay_failure_reason).toBeNull();
        expect(body.button_payload).toMatch(/^FD-MOCK-/);
        expect(typeof body.american_odds_value).toBe('string');
      } else {
        expect(['LEG_UNAVAILABLE', 'LEGS_NOT_COMBINABLE']).toContain(body.parlay_failure_reason);
        expect(body.button_payload).toBeNull();
        if (body.parlay_failure_reason === 'LEGS_NOT_COMBINABLE') refused++;
      }
      if (body.parlay_failure_reason !== 'LEG_UNAVAILABLE') rolled++;
    }
    expect(failedLegs / legs).toBeGreaterThan(0.1);
    expect(failedLegs / legs).toBeLessThan(0.2);
    // Only a parlay whose legs all priced gets the roll of its own.
    expect(refused / rolled).toBeGreaterThan(0.1);
    expect(refused / rolled).toBeLessThan(0.2);
  });

  it('refuses a payload without legs', async () => {
    expect((await sandbox({ flow_id: 1, flow_type: 'fact', country: 'US', event_betting_market_position_maps: [] })).statusCode).toBe(422);
  });
});
