import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { expectError } from '../helpers/responses.js';
import {
  aboutEntity,
  flowIds,
  impliedBetween,
  inCategories,
  inMarkets,
  ofEvents,
  ofType,
  onSplit,
  pricedBy,
  startingBetween,
  withBet,
} from './expected.js';
import { EVERY_FLOW, FLOWS_URL, flowFilterSuite, MIXED_URL } from './filter-suite.js';


/**
 * The rest of Odditt's flow filters. Every expectation is computed from the fixture
 * with the documented meaning of the filter (expected.ts), and every filter must narrow the list.
 */
describe.each(DIALECTS)('flow filters by bet, odds, operator and start time (%s)', (dialect) => {
  const { harness, post, mixed, facts, expectFilter } = flowFilterSuite(dialect);

  it('betting_market_ids and betting_market_id: the bet\'s market, a parlay through a leg', async () => {
    const points = flowIds(withBet(inMarkets(3)));
    // Parlay 9000 has a leg (8001) on player points.
    expect(points).toContain(9000);
    await expectFilter({ betting_market_ids: [3] }, points);
    await expectFilter({ betting_market_id: 3 }, points);
    await expectFilter({ betting_market_ids: [2], betting_market_id: 4 }, flowIds(withBet(inMarkets(2, 4))));
    expect(await mixed({ betting_market_ids: [99] })).toEqual([]);
  });

  it('betting_market_category_ids and betting_market_category_id: the category of the bet\'s market', async () => {
    await expectFilter({ betting_market_category_ids: [2] }, flowIds(withBet(inCategories(2))));
    await expectFilter({ betting_market_category_id: 1 }, flowIds(withBet(inCategories(1))));
    expect(flowIds(withBet(inCategories(1)))).not.toEqual(flowIds(withBet(inCategories(2))));
  });

  it('betting_market_entity_type', async () => {
    for (const type of ['team', 'player', 'event'] as const) await expectFilter({ betting_market_entity_type: type }, flowIds(withBet(aboutEntity(type))));
    expectError(await post(MIXED_URL, { betting_market_entity_type: 'league' }), 422, 'VALIDATION_ERROR', 'betting_market_entity_type');
  });

  it('split_type over and under', async () => {
    await expectFilter({ split_type: 'over' }, flowIds(withBet(onSplit('over'))));
    await expectFilter({ split_type: 'under' }, flowIds(withBet(onSplit('under'))));
    expectError(await post(MIXED_URL, { split_type: 'both' }), 422, 'VALIDATION_ERROR', 'split_type');
  });

  it('the bet filters hold together on one leg of a parlay', async () => {
    // Parlay 9003: one leg on player points (over), one on the total (under).
    expect(flowIds(withBet(inMarkets(3)))).toContain(9003);
    expect(flowIds(withBet(onSplit('under')))).toContain(9003);
    expect(await mixed({ betting_market_id: 3, split_type: 'under' })).toEqual([]);
    const totalUnder = flowIds(withBet((f) => inMarkets(2)(f) && onSplit('under')(f)));
    expect(totalUnder).toContain(9003);
    await expectFilter({ betting_market_id: 2, split_type: 'under' }, totalUnder);
  });

  it('implied-probability thresholds, fractions from 0 to 1, inclusive, on the value the item shows', async () => {
    await expectFilter({ min_implied_probability_threshold: 0.5 }, flowIds(impliedBetween(0.5, 1)));
    await expectFilter({ max_implied_probability_threshold: 0.4762 }, flowIds(impliedBetween(0, 0.4762)));
    // 1.91 shows 0.5236: a bound of exactly 0.5236 keeps it at both ends.
    await expectFilter({ min_implied_probability_threshold: 0.5236, max_implied_probability_threshold: 0.5236 }, flowIds(impliedBetween(0.5236, 0.5236)));
    // Any bound leaves out the flows without a price; the full range is no filter.
    expect(await mixed({ min_implied_probability_threshold: 0, max_implied_probability_threshold: 1 })).toEqual(EVERY_FLOW);
    await expectFilter({ min_implied_probability_threshold: 0.01 }, flowIds(impliedBetween(0.01, 1)));
  });

  it('thresholds out of range or inverted are 422; a percentage where a fraction belongs is refused', async () => {
    expectError(await post(MIXED_URL, { min_implied_probability_threshold: 1.5 }), 422, 'VALIDATION_ERROR', 'min_implied_probability_threshold');
    expectError(await post(MIXED_URL, { max_implied_probability_threshold: 50 }), 422, 'VALIDATION_ERROR', 'max_implied_probability_threshold');
    expectError(await post(MIXED_URL, { min_implied_probability_threshold: -0.1 }), 422, 'VALIDATION_ERROR', 'min_implied_probability_threshold');
    expectError(
      await post(MIXED_URL, { min_implied_probability_threshold: 0.6, max_implied_probability_threshold: 0.4 }),
      422,
      'VALIDATION_ERROR',
      'min_implied_probability_threshold',
    );
    expectError(await post(MIXED_URL, { min_implied_probability_threshold: '0.5' }), 400, 'BAD_REQUEST');
  });

  it('operator_keys and operator_key, operator ids winning over them', async () => {
    await expectFilter({ operator_keys: ['fanduel'] }, flowIds(pricedBy(2)));
    await expectFilter({ operator_key: 'DraftKings' }, flowIds(pricedBy(1)));
    await expectFilter({ operator_keys: ['betmgm'], operator_key: 'fanduel' }, flowIds(pricedBy(2, 3)));
    await expectFilter({ operator_id: 1, operator_keys: ['fanduel', 'no-such-book'] }, flowIds(pricedBy(1)));
    expectError(await post(MIXED_URL, { operator_keys: ['no-such-book'] }), 404, 'NOT_FOUND');
  });

  describe('starting_soon: events starting in the next 3 hours, from the start of the minute', () => {
    it('follows the clock, and combines with the start dates', async () => {
      // 13:30:20 → [13:30, 16:30): event 5004 at 14:00 and 5006 at 16:00.
      harness().t.clock.set(Date.parse('2030-06-15T13:30:20Z'));
      await expectFilter({ starting_soon: true }, flowIds(startingBetween('2030-06-15T13:30:00Z', '2030-06-15T16:30:00Z')));
      expect(flowIds(startingBetween('2030-06-15T13:30:00Z', '2030-06-15T16:30:00Z'))).toEqual(flowIds(ofEvents(5004, 5006)));
      await expectFilter({ starting_soon: true, event_start_date_to: '2030-06-15T15:00:00Z' }, flowIds(ofEvents(5004)));
      expect(await mixed({ starting_soon: true, event_start_date_from: '2030-06-16' })).toEqual([]);
      // false is no filter.
      expect(await mixed({ starting_soon: false })).toEqual(EVERY_FLOW);

      // Three hours later the window has moved: 16:00 is gone, 18:00 (5001) has come.
      harness().t.clock.set(Date.parse('2030-06-15T16:00:59Z'));
      await expectFilter({ starting_soon: true }, flowIds(ofEvents(5006, 5001)));
      expect(await facts({ starting_soon: true })).toEqual(flowIds(ofEvents(5006, 5001), ofType('fact')));
    });

    it('is a boolean: anything else is refused', async () => {
      expectError(await post(MIXED_URL, { starting_soon: 'yes' }), 400, 'BAD_REQUEST');
    });
  });

  it("Odditt's presentation-only fields are accepted and ignored: the same flows as without them (decision 0205)", async () => {
    const plain = await post(MIXED_URL, { sport_id: 1 });
    expect(plain.statusCode).toBe(200);
    for (const [field, value] of [
      ['use_cartoon_images', true],
      ['include_star_sign_content', false],
    ] as const) {
      for (const url of [MIXED_URL, FLOWS_URL]) {
        const res = await post(url, { sport_id: 1, [field]: value });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual((await post(url, { sport_id: 1 })).json());
      }
      // A wrong type is still refused.
      expectError(await post(MIXED_URL, { sport_id: 1, [field]: 'yes' }), 400, 'BAD_REQUEST');
    }
  });

  it('a filter array over 100 items is 422', async () => {
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expectError(await post(MIXED_URL, { betting_market_ids: many }), 422, 'VALIDATION_ERROR', 'betting_market_ids');
    expectError(await post(MIXED_URL, { operator_keys: many.map((i) => `op-${i}`) }), 422, 'VALIDATION_ERROR', 'operator_keys');
  });
});
