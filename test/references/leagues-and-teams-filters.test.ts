import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import { LEAGUE, referenceDataset } from '../fixtures/references.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { expectError, idsOf } from '../helpers/responses.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');

/** Leagues by country and popularity, teams by the days of their events: the filters Odditt's clients send. */
describe.each(DIALECTS)('leagues by country_id and is_popular, teams by start_date and end_date (%s)', (dialect) => {
  const data = referenceDataset();
  const nba = data.teams.filter((t) => t.league_id === LEAGUE.nba);
  const team = (i: number) => nba[i]?.id ?? -1;
  // Around midnight UTC, so that a day's bounds are what decides.
  const events = [
    { id: 1, start_time: '2026-06-01T23:59:59Z', home: 0, away: 1 },
    { id: 2, start_time: '2026-06-02T00:00:00Z', home: 2, away: 3 },
    { id: 3, start_time: '2026-06-10T18:00:00Z', home: 4, away: 0 },
    { id: 4, start_time: '2026-04-01T18:00:00Z', home: 5, away: 6 },
  ].map((e) => ({ id: e.id, league_id: LEAGUE.nba, start_time: e.start_time, home_team_id: team(e.home), away_team_id: team(e.away) }));
  const h = forSuite(() => reader({ dialect, clock: manualClock(NOW), dataset: { ...data, events } }));
  const teams = (...indexes: number[]) => indexes.map(team).sort((a, b) => a - b);

  it('country_id keeps the leagues of that country; an unknown id is 404', async () => {
    for (const country of data.countries) {
      const expected = idsOf(data.leagues.filter((l) => l.country_key === country.key));
      expect(await h.allIds(`/v1/references/leagues?country_id=${country.id}`), country.key).toEqual(expected);
    }
    const us = data.countries.find((c) => c.key === 'united-states')?.id;
    expect(await h.allIds(`/v1/references/leagues?country_id=${us}&sport_id=1`)).toEqual([LEAGUE.nba, LEAGUE.ncaab]);
    expectError(await h.get('/v1/references/leagues?country_id=999'), 404, 'NOT_FOUND');
  });

  it('is_popular is on every league (false unless imported so) and filters both ways', async () => {
    const popular = idsOf(data.leagues.filter((l) => l.is_popular === true));
    expect(popular.length).toBeGreaterThan(0);
    expect(await h.allIds('/v1/references/leagues?is_popular=true')).toEqual(popular);
    expect(await h.allIds('/v1/references/leagues?is_popular=false')).toEqual(idsOf(data.leagues).filter((id) => !popular.includes(id)));
    const all = await h.page<{ id: number; is_popular: boolean }>('/v1/references/leagues?page_size=100');
    expect(all.results.map((l) => [l.id, l.is_popular])).toEqual(idsOf(data.leagues).map((id) => [id, popular.includes(id)]));
    // A value of the wrong type is 400, as for every boolean parameter.
    expectError(await h.get('/v1/references/leagues?is_popular=maybe'), 400, 'BAD_REQUEST', 'is_popular');
  });

  it('start_date and end_date keep the teams with an event, home or away, on those UTC days', async () => {
    expect(await h.allIds('/v1/references/teams?start_date=2026-06-01&end_date=2026-06-01')).toEqual(teams(0, 1));
    expect(await h.allIds('/v1/references/teams?start_date=2026-06-02&end_date=2026-06-02')).toEqual(teams(2, 3));
    expect(await h.allIds('/v1/references/teams?start_date=2026-06-01&end_date=2026-06-10')).toEqual(teams(0, 1, 2, 3, 4));
    expect(await h.allIds('/v1/references/teams?start_date=2026-06-03&end_date=2026-06-09')).toEqual([]);
    expect(await h.allIds(`/v1/references/teams?start_date=2026-06-10&league_id=${LEAGUE.nba}&search=${encodeURIComponent(nba[4]?.name ?? '')}`)).toEqual(teams(4));
  });

  it('one day given: the other takes the date-range default; neither: no date filter', async () => {
    // end_date alone: the 30 days ending that day (from 2026-05-12), which leaves out the April event.
    expect(await h.allIds('/v1/references/teams?end_date=2026-06-10')).toEqual(teams(0, 1, 2, 3, 4));
    // start_date alone: up to today (2026-06-15).
    expect(await h.allIds('/v1/references/teams?start_date=2026-03-20')).toEqual(teams(0, 1, 2, 3, 4, 5, 6));
    expect(await h.allIds('/v1/references/teams')).toEqual(idsOf(data.teams));
  });

  it('the date-range rule: a backwards or too wide range, an impossible day', async () => {
    expectError(await h.get('/v1/references/teams?start_date=2026-06-10&end_date=2026-06-01'), 422, 'VALIDATION_ERROR', 'end_date');
    expectError(await h.get('/v1/references/teams?start_date=2024-01-01&end_date=2026-06-01'), 422, 'VALIDATION_ERROR', 'end_date');
    expectError(await h.get('/v1/references/teams?start_date=2026-02-30'), 422, 'VALIDATION_ERROR', 'start_date');
    expectError(await h.get('/v1/references/teams?end_date=June'), 422, 'VALIDATION_ERROR', 'end_date');
  });
});
