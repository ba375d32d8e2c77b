import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { sample } from './football-data-expected.js';
import { type OddsApiEvent, recorded } from './the-odds-api-expected.js';

/**
 * One round of the Premier League from two sources: football-data's E0-2024-round.csv and The
 * Odds API's answer for the same ten matches, its clubs named its own way ("Manchester United",
 * "Nottingham Forest"). Loaded one after the other, in either order, they make one event per
 * match, one team per club and one operator per book, counted through the API: a name no rule
 * matches waits until an alias is given, and then lands on the same event.
 */

const CSV = sample('E0-2024-round.csv');
const ANSWER = JSON.parse(recorded('odds-soccer_epl-2024-08-16.json')) as OddsApiEvent[];
/** The Odds API's name of each club football-data names otherwise. */
const NAMES: Readonly<Record<string, string>> = {
  'Man United': 'Manchester United',
  "Nott'm Forest": 'Nottingham Forest',
  Wolves: 'Wolverhampton Wanderers',
  Brighton: 'Brighton and Hove Albion',
  Ipswich: 'Ipswich Town',
  Leicester: 'Leicester City',
  Tottenham: 'Tottenham Hotspur',
  Newcastle: 'Newcastle United',
  'West Ham': 'West Ham United',
  'Man City': 'Manchester City',
};
const BOOKS = [
  ['PS', 'pinnacle'],
  ['WH', 'williamhill'],
  ['B365', 'bet365'],
] as const;

describe.each(DIALECTS)('one round from football-data and The Odds API (%s)', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness({ dialect });
  });
  afterEach(async () => t.close());

  const footballData = async () => {
    const res = await t.admin.raw('POST', '/admin/v1/import/football-data', CSV, 'text/csv');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ imported: { events: number }; queued: number }>();
  };
  const theOddsApi = async () => {
    const res = await t.admin.request({ method: 'POST', url: '/admin/v1/import/the-odds-api', payload: JSON.stringify(ANSWER), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ imported: { events: number }; queued: number }>();
  };
  const idOf = async (source: string, entityType: string, externalId: string) => {
    const found = await t.admin.ok<{ data: Array<{ entity_id: number }> }>(`/admin/v1/mapping/external-ids?source=${source}&entity_type=${entityType}&external_id=${encodeURIComponent(externalId)}`);
    expect(found.data, `${source} ${entityType} ${externalId}`).toHaveLength(1);
    return found.data[0]?.entity_id ?? 0;
  };
  /** Events, teams and operators, counted through the public API. */
  const counts = async () => {
    const api = t.as({ apiKey: (await t.client()).apiKey });
    const events = await api.page('/v1/historical/events?start_date=2024-08-16&end_date=2024-08-19&page_size=100');
    const teams = await api.page('/v1/references/teams?page_size=100');
    const operators = await api.page<{ id: number; key: string }>('/v1/references/operators?page_size=100');
    return { events: events.results.length, teams: teams.results.length, operators: operators.results.map((o) => o.key).sort() };
  };
  /** Every match has both sources' keys on one event, every club both names on one team, every book both codes on one operator. */
  const proveOne = async () => {
    for (const e of ANSWER) {
      const fdHome = Object.entries(NAMES).find(([, n]) => n === e.home_team)?.[0] ?? e.home_team;
      const fdAway = Object.entries(NAMES).find(([, n]) => n === e.away_team)?.[0] ?? e.away_team;
      const ukDay = new Date(Date.parse(e.commence_time) + 3_600_000).toISOString().slice(0, 10);
      expect(await idOf('the-odds-api', 'event', e.id), `${fdHome}-${fdAway}`).toBe(await idOf('football-data', 'event', `E0/${ukDay}/${fdHome}/${fdAway}`));
      expect(await idOf('the-odds-api', 'team', e.home_team)).toBe(await idOf('football-data', 'team', fdHome));
      expect(await idOf('the-odds-api', 'team', e.away_team)).toBe(await idOf('football-data', 'team', fdAway));
    }
    for (const [code, key] of BOOKS) expect(await idOf('the-odds-api', 'operator', key), key).toBe(await idOf('football-data', 'operator', code));
  };

  /** Binds each waiting name to the club football-data calls otherwise; the rows land as the last name of each is bound. */
  const resolveQueue = async (source: 'the-odds-api' | 'football-data') => {
    const unmatched = await t.admin.ok<{ data: Array<{ name: string; entity_type: string; rows: number }> }>(`/admin/v1/mapping/unmatched?source=${source}`);
    const waiting = unmatched.data.map((u) => u.name).sort();
    const other = source === 'the-odds-api' ? 'football-data' : 'the-odds-api';
    const theirs = (name: string) => (source === 'the-odds-api' ? Object.entries(NAMES).find(([, n]) => n === name)?.[0] : NAMES[name]) ?? '';
    for (const name of waiting) {
      const res = await t.admin.post('/admin/v1/mapping/aliases', { source, name, entity_type: 'team', entity_id: await idOf(other, 'team', theirs(name)) });
      expect(res.statusCode, res.body).toBe(200);
    }
    return waiting;
  };

  it('football-data first: the same-named clubs match by rule, each other name waits, and its aliases land every row on the event football-data made', async () => {
    expect(await footballData()).toMatchObject({ imported: { events: 10 }, queued: 0 });
    const before = await counts();
    expect(before).toMatchObject({ events: 10, teams: 20 });
    const second = await theOddsApi();
    // Brentford–Crystal Palace is named alike by both; every other match has a club named otherwise.
    expect(second).toMatchObject({ imported: { events: 1 }, queued: 9 });
    expect(await counts()).toEqual(before);
    expect(await resolveQueue('the-odds-api')).toEqual(Object.values(NAMES).sort());
    expect((await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/unmatched')).data).toEqual([]);
    expect(await counts()).toEqual(before);
    await proveOne();
    // Loaded again, both land where they are: nothing waits, nothing is made.
    expect(await theOddsApi()).toMatchObject({ imported: { events: 10 }, queued: 0 });
    expect(await footballData()).toMatchObject({ imported: { events: 10 }, queued: 0 });
    expect(await counts()).toEqual(before);
  });

  it('The Odds API first: football-data’s other names wait, and their aliases land every row on the event The Odds API made', async () => {
    expect(await theOddsApi()).toMatchObject({ imported: { events: 10 }, queued: 0 });
    const first = await counts();
    expect(first).toMatchObject({ events: 10, teams: 20, operators: ['bet365', 'pinnacle', 'williamhill'] });
    const second = await footballData();
    expect(second).toMatchObject({ imported: { events: 1 }, queued: 9 });
    expect(await counts()).toMatchObject({ events: 10, teams: 20 });
    expect(await resolveQueue('football-data')).toEqual(Object.keys(NAMES).sort());
    expect((await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/unmatched')).data).toEqual([]);
    expect(await counts()).toMatchObject({ events: 10, teams: 20 });
    await proveOne();
  });
});
