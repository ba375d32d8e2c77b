import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { EVENTS } from '../fixtures/events-flows.js';
import { expectError } from '../helpers/responses.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectPagingLaw } from '../helpers/paging-law.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';

const URL = '/v1/events/upcoming-events';

/** Fixture events starting in [from, to), ordered by start time then id. */
function eventsBetween(from: string, to: string, leagues?: number[]): number[] {
  const [start, end] = [Date.parse(from), Date.parse(to)];
  return EVENTS.filter((e) => Date.parse(e.start_time) >= start && Date.parse(e.start_time) < end)
    .filter((e) => !leagues || leagues.includes(e.league_id))
    .sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time) || a.id - b.id)
    .map((e) => e.id);
}

describe.each(DIALECTS)('POST /v1/events/upcoming-events (%s)', (dialect) => {
  let h: Reader;
  const ids = async (body: Record<string, unknown>) => (await h.page(URL, { page_size: 100, ...body })).results.map((r) => r.id);

  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.t.close());

  it('lists an event in the documented shape', async () => {
    const page = await h.page(URL, { event_date: '2030-06-15', league_id: 10 });
    expect(page.results[0]).toEqual({
      id: 5000,
      sport_id: 1,
      league_id: 10,
      league_key: 'nba',
      start_time: '2030-06-15T02:00:00.000Z',
      status: 'scheduled',
      home_team: { id: 100, key: 'lakers', name: 'Los Angeles Lakers' },
      away_team: { id: 101, key: 'celtics', name: 'Boston Celtics' },
      home_score: null,
      away_score: null,
    });
  });

  it('follows the paging law (25 events on 2030-06-20, by start time then id)', async () => {
    const expected = eventsBetween('2030-06-20T00:00:00Z', '2030-06-21T00:00:00Z');
    expect(expected.length).toBe(25);
    // 5123 and 5124 start together, first of the day: the id breaks the tie.
    expect(expected.slice(0, 3)).toEqual([5123, 5124, 5100]);
    await expectPagingLaw(h, URL, { event_date: '2030-06-20' }, expected, 10, 100);
  });

  describe('the day is read in the time zone', () => {
    it('an event at 02:00Z on day D is on D in UTC and on D−1 in America/New_York', async () => {
      expect(await ids({ event_date: '2030-06-15' })).toEqual([5000, 5003, 5004, 5006, 5001]);
      expect(await ids({ event_date: '2030-06-15', timezone: 'UTC' })).toEqual([5000, 5003, 5004, 5006, 5001]);
      expect(await ids({ event_date: '2030-06-15', timezone: 'America/New_York' })).toEqual([5003, 5004, 5006, 5001, 5002]);
      expect(await ids({ event_date: '2030-06-14', timezone: 'America/New_York' })).toEqual([5000]);
      expect(await ids({ event_date: '2030-06-14' })).toEqual([]);
    });

    it('a 23-hour day across the DST change keeps its own events only', async () => {
      // New York, 2030-03-10: [05:00Z, 04:00Z next day). A fixed −5 h would take 5009, a fixed −4 h 5007.
      expect(await ids({ event_date: '2030-03-10', timezone: 'America/New_York' })).toEqual([5010, 5008]);
      expect(await ids({ event_date: '2030-03-09', timezone: 'America/New_York' })).toEqual([5007]);
      expect(await ids({ event_date: '2030-03-11', timezone: 'America/New_York' })).toEqual([5009]);
      expect(await ids({ event_date: '2030-03-10' })).toEqual([5007, 5010]);
    });

    it('event_date defaults to today in the time zone, from the clock', async () => {
      h.t.clock.set(Date.parse('2030-06-15T02:30:00Z'));
      expect(await ids({})).toEqual([5000, 5003, 5004, 5006, 5001]);
      expect(await ids({ timezone: 'America/New_York' })).toEqual([5000]);
      h.t.clock.set(Date.parse('2030-06-20T12:00:00Z'));
      expect((await h.page(URL, {})).total_count).toBe(25);
      h.t.clock.set(Date.now());
    });

    it('an unknown time zone is 422 naming timezone', async () => {
      expectError(await h.post(URL, { event_date: '2030-06-15', timezone: 'Mars/Olympus_Mons' }), 422, 'VALIDATION_ERROR', 'timezone');
      expectError(await h.post(URL, { timezone: '' }), 422, 'VALIDATION_ERROR', 'timezone');
      expectError(await h.post(URL, { timezone: 5 }), 400, 'BAD_REQUEST');
    });

    it('a malformed event_date is 422 naming event_date', async () => {
      for (const bad of ['2030-6-15', '15/06/2030', '2030-02-30', '2030-06-15T00:00:00Z']) {
        expectError(await h.post(URL, { event_date: bad }), 422, 'VALIDATION_ERROR', 'event_date');
      }
    });
  });

  describe('filters', () => {
    const day = { event_date: '2030-06-15' };

    it('sport_id and sport_key', async () => {
      expect(await ids({ ...day, sport_id: 1 })).toEqual([5000, 5003, 5001]);
      expect(await ids({ ...day, sport_key: 'soccer' })).toEqual([5004, 5006]);
    });

    it('an unknown sport_id or league_id is 404, like an unknown key', async () => {
      expectError(await h.post(URL, { ...day, sport_id: 999 }), 404, 'NOT_FOUND');
      expectError(await h.post(URL, { ...day, league_id: 999 }), 404, 'NOT_FOUND');
    });

    it('league_id, plain and qualified league_key', async () => {
      expect(await ids({ ...day, league_id: 10 })).toEqual([5000, 5001]);
      expect(await ids({ ...day, league_key: 'nba' })).toEqual([5000, 5001]);
      expect(await ids({ ...day, league_key: 'united-states.nba' })).toEqual([5000, 5001]);
      expect(await ids({ ...day, league_key: 'ukraine.premier-league' })).toEqual([5006]);
      expect(await ids({ ...day, sport_key: 'basketball', league_key: 'nbl' })).toEqual([5003]);
    });

    it('an id wins over a key', async () => {
      expect(await ids({ ...day, league_id: 11, league_key: 'nba' })).toEqual([5003]);
      // Even over a key that would be unknown or ambiguous.
      expect(await ids({ ...day, league_id: 20, league_key: 'premier-league' })).toEqual([5004]);
      expect(await ids({ ...day, sport_id: 2, sport_key: 'no-such-sport' })).toEqual([5004, 5006]);
    });

    it('an unknown key is 404, an ambiguous one 409', async () => {
      expectError(await h.post(URL, { ...day, league_key: 'no-such-league' }), 404, 'NOT_FOUND');
      expectError(await h.post(URL, { ...day, sport_key: 'curling' }), 404, 'NOT_FOUND');
      expectError(await h.post(URL, { ...day, league_key: 'premier-league' }), 409, 'AMBIGUOUS_LOOKUP');
    });

    it('unknown fields are refused, not ignored', async () => {
      expectError(await h.post(URL, { ...day, leage_id: 10 }), 422, 'VALIDATION_ERROR', 'leage_id');
    });
  });

  it('requires credentials', async () => {
    const res = await h.t.app.inject({ method: 'POST', url: URL, payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
