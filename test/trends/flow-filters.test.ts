import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { expectError } from '../helpers/responses.js';
import {
  flowIds,
  hitRateBetween,
  inLeagues,
  inSports,
  ofBetType,
  ofEvents,
  ofLikelihood,
  ofType,
  pricedBy,
  startingBetween,
  withPlayers,
  withTeams,
} from './expected.js';
import { EVERY_FLOW, FLOWS_URL, flowFilterSuite, MIXED_URL } from './filter-suite.js';

describe.each(DIALECTS)('flows filters (%s)', (dialect) => {
  const { post, mixed, facts, expectFilter } = flowFilterSuite(dialect);

  describe('sport', () => {
    it('sport_ids, the singular sport_id, both merged, and sport_key', async () => {
      await expectFilter({ sport_ids: [2] }, flowIds(inSports(2)));
      await expectFilter({ sport_id: 2 }, flowIds(inSports(2)));
      await expectFilter({ sport_key: 'soccer' }, flowIds(inSports(2)));
      expect(await mixed({ sport_ids: [2], sport_id: 1 })).toEqual(EVERY_FLOW);
    });
    it('an id wins over a key; an unknown key is 404', async () => {
      await expectFilter({ sport_ids: [1], sport_key: 'soccer' }, flowIds(inSports(1)));
      expectError(await post(MIXED_URL, { sport_key: 'curling' }), 404, 'NOT_FOUND');
    });
  });

  describe('league', () => {
    it('league_ids, league_id, plain and qualified league_key', async () => {
      await expectFilter({ league_ids: [20, 21] }, flowIds(inLeagues(20, 21)));
      await expectFilter({ league_id: 21 }, flowIds(inLeagues(21)));
      await expectFilter({ league_key: 'nba' }, flowIds(inLeagues(10)));
      await expectFilter({ league_key: 'united-states.nba' }, flowIds(inLeagues(10)));
      await expectFilter({ league_key: 'england.premier-league' }, flowIds(inLeagues(20)));
    });
    it('an ambiguous key is 409, unless an id is given; an unknown key is 404', async () => {
      expectError(await post(MIXED_URL, { league_key: 'premier-league' }), 409, 'AMBIGUOUS_LOOKUP');
      await expectFilter({ league_id: 21, league_key: 'premier-league' }, flowIds(inLeagues(21)));
      expectError(await post(FLOWS_URL, { league_key: 'no-such-league' }), 404, 'NOT_FOUND');
    });
  });

  it('event_ids and event_id', async () => {
    await expectFilter({ event_ids: [5000, 5004] }, flowIds(ofEvents(5000, 5004)));
    await expectFilter({ event_id: 5001 }, flowIds(ofEvents(5001)));
    await expectFilter({ event_id: 5001, event_ids: [5003] }, flowIds(ofEvents(5001, 5003)));
  });

  describe('team (the event it plays, or the focus team)', () => {
    it('team_ids, team_id and team_key, plain and qualified', async () => {
      await expectFilter({ team_ids: [100] }, flowIds(withTeams(100)));
      await expectFilter({ team_id: 202 }, flowIds(withTeams(202)));
      await expectFilter({ team_ids: [100, 210] }, flowIds(withTeams(100, 210)));
      await expectFilter({ team_key: 'lakers' }, flowIds(withTeams(100)));
      await expectFilter({ team_key: 'nba.lakers' }, flowIds(withTeams(100)));
      await expectFilter({ team_key: 'premier-league.united' }, flowIds(withTeams(202)));
    });
    it('id over key, 409 for an ambiguous key, 404 for an unknown one', async () => {
      await expectFilter({ team_id: 210, team_key: 'united' }, flowIds(withTeams(210)));
      expectError(await post(MIXED_URL, { team_key: 'united' }), 409, 'AMBIGUOUS_LOOKUP');
      expectError(await post(MIXED_URL, { team_key: 'nba.united' }), 404, 'NOT_FOUND');
    });
  });

  describe('player (the focus player; a parlay through its legs)', () => {
    it('player_ids, player_id and player_key', async () => {
      const tatum = flowIds(withPlayers(1001));
      // Parlay 9003 has a leg focused on Tatum.
      expect(tatum).toContain(9003);
      await expectFilter({ player_ids: [1001] }, tatum);
      await expectFilter({ player_id: 1001 }, tatum);
      await expectFilter({ player_key: 'jayson-tatum' }, tatum);
      await expectFilter({ player_ids: [1000, 1002] }, flowIds(withPlayers(1000, 1002)));
    });
    it('a qualified key settles an ambiguous one; id over key', async () => {
      expectError(await post(MIXED_URL, { player_key: 'smith' }), 409, 'AMBIGUOUS_LOOKUP');
      await expectFilter({ player_key: 'knicks.smith' }, flowIds(withPlayers(1003)));
      await expectFilter({ player_id: 1004, player_key: 'smith' }, flowIds(withPlayers(1004)));
    });
  });

  it('operator_ids and operator_id (events the operator prices)', async () => {
    await expectFilter({ operator_ids: [1] }, flowIds(pricedBy(1)));
    await expectFilter({ operator_id: 2 }, flowIds(pricedBy(2)));
    expect(flowIds(pricedBy(2))).not.toEqual(flowIds(pricedBy(1)));
    expect(await mixed({ operator_ids: [99] })).toEqual([]);
  });

  it('bet_type single, parlay, and Odditt\'s "singles"', async () => {
    await expectFilter({ bet_type: 'parlay' }, flowIds(ofBetType('parlay')));
    await expectFilter({ bet_type: 'single' }, flowIds(ofBetType('single')));
    await expectFilter({ bet_type: 'singles' }, flowIds(ofBetType('single')));
    expect(await facts({ bet_type: 'parlay' })).toEqual(flowIds(ofType('fact'), ofBetType('parlay')));
    expectError(await post(MIXED_URL, { bet_type: 'teaser' }), 422, 'VALIDATION_ERROR', 'bet_type');
  });

  it('likelihood_type', async () => {
    await expectFilter({ likelihood_type: 'possible' }, flowIds(ofLikelihood('possible')));
    expect(await facts({ likelihood_type: 'longshot' })).toEqual(flowIds(ofType('fact'), ofLikelihood('longshot')));
    expectError(await post(MIXED_URL, { likelihood_type: 'sure' }), 422, 'VALIDATION_ERROR', 'likelihood_type');
  });

  it('hit-rate thresholds, inclusive, in percent', async () => {
    await expectFilter({ min_hit_rate_threshold: 70 }, flowIds(hitRateBetween(70, 100)));
    await expectFilter({ max_hit_rate_threshold: 30 }, flowIds(hitRateBetween(0, 30)));
    await expectFilter({ min_hit_rate_threshold: 30, max_hit_rate_threshold: 60.5 }, flowIds(hitRateBetween(30, 60.5)));
    expect(await mixed({ min_hit_rate_threshold: 0, max_hit_rate_threshold: 100 })).toEqual(EVERY_FLOW);
    expectError(await post(MIXED_URL, { min_hit_rate_threshold: 101 }), 422, 'VALIDATION_ERROR', 'min_hit_rate_threshold');
    expectError(await post(MIXED_URL, { max_hit_rate_threshold: -1 }), 422, 'VALIDATION_ERROR', 'max_hit_rate_threshold');
    expectError(await post(MIXED_URL, { min_hit_rate_threshold: 60, max_hit_rate_threshold: 40 }), 422, 'VALIDATION_ERROR', 'min_hit_rate_threshold');
    expectError(await post(MIXED_URL, { min_hit_rate_threshold: '50' }), 400, 'BAD_REQUEST');
  });

  describe('event start date range', () => {
    it('dates cover whole UTC days', async () => {
      const day = flowIds(startingBetween('2030-06-15T00:00:00Z', '2030-06-16T00:00:00Z'));
      await expectFilter({ event_start_date_from: '2030-06-15', event_start_date_to: '2030-06-15' }, day);
      await expectFilter({ event_start_date_from: '2030-06-16' }, flowIds(startingBetween('2030-06-16T00:00:00Z', '2100-01-01T00:00:00Z')));
      await expectFilter({ event_start_date_to: '2030-06-15' }, flowIds(startingBetween('2000-01-01T00:00:00Z', '2030-06-16T00:00:00Z')));
    });
    it('date-times are instants, both ends inclusive', async () => {
      // 5004 at 14:00, 5006 at 16:00, 5001 at 18:00 (the upper end itself).
      const expected = flowIds(ofEvents(5004, 5006, 5001));
      await expectFilter({ event_start_date_from: '2030-06-15T10:00:00Z', event_start_date_to: '2030-06-15T18:00:00Z' }, expected);
      await expectFilter({ event_start_date_from: '2030-06-15T12:00:00+02:00', event_start_date_to: '2030-06-15T14:00:00-04:00' }, expected);
    });
    it("a date-time without an offset, as Odditt's Python client sends a naive one, is UTC", async () => {
      const expected = flowIds(ofEvents(5004, 5006, 5001));
      await expectFilter({ event_start_date_from: '2030-06-15T10:00:00', event_start_date_to: '2030-06-15T18:00:00' }, expected);
      await expectFilter({ event_start_date_from: '2030-06-15T10:00:00.000000', event_start_date_to: '2030-06-15T18:00' }, expected);
      expectError(await post(MIXED_URL, { event_start_date_from: '2030-06-15T25:00:00' }), 422, 'VALIDATION_ERROR', 'event_start_date_from');
    });
    it('a malformed or inverted range is 422', async () => {
      expectError(await post(MIXED_URL, { event_start_date_from: '2030-13-01' }), 422, 'VALIDATION_ERROR', 'event_start_date_from');
      expectError(await post(MIXED_URL, { event_start_date_to: 'tomorrow' }), 422, 'VALIDATION_ERROR', 'event_start_date_to');
      expectError(
        await post(MIXED_URL, { event_start_date_from: '2030-06-16', event_start_date_to: '2030-06-15' }),
        422,
        'VALIDATION_ERROR',
        'event_start_date_from',
      );
    });
  });

  it('filters combine (two filters on flows)', async () => {
    const expected = flowIds(ofType('fact'), inLeagues(10), hitRateBetween(50, 100));
    expect(expected.length).toBeGreaterThan(0);
    expect(await facts({ league_key: 'nba', min_hit_rate_threshold: 50 })).toEqual(expected);
    expect(await facts({ league_id: 10, min_hit_rate_threshold: 50 })).toEqual(expected);
  });

  it('an empty array is no filter; unknown fields are refused', async () => {
    expect(await mixed({ team_ids: [], sport_ids: [] })).toEqual(EVERY_FLOW);
    expectError(await post(MIXED_URL, { sports_ids: [1] }), 422, 'VALIDATION_ERROR', 'sports_ids');
    expectError(await post(MIXED_URL, { team_ids: '100' }), 400, 'BAD_REQUEST');
  });
});
