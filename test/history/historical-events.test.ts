import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { historyApp, historyDataset } from './fixture.js';

interface EventsPage {
  results: Array<{ id: number; status: string; home_score: number | null; away_score: number | null; start_time: string }>;
  total_count: number;
}

const DAY = 24 * 3600_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(DIALECTS)('GET /v1/historical/events (%s)', (dialect) => {
  const h = historyApp(dialect, async (t, now) => {
    const dataset = historyDataset(now);
    // And one 40 days ago (outside the default 30 days), one a year and a half ago.
    dataset.events.push(
      { id: 400, league_id: 10, start_time: new Date(now - 40 * DAY).toISOString(), status: 'final', home_team_id: 1000, away_team_id: 1001, home_score: 99, away_score: 101 },
      { id: 500, league_id: 11, start_time: new Date(now - 540 * DAY).toISOString(), status: 'cancelled', home_team_id: 1100, away_team_id: 1101 },
    );
    await importDataset(t, dataset);
  });

  const list = async (query: Record<string, string | number>, apiKey = h.keys.free) =>
    h.t.app.inject({ method: 'GET', url: '/v1/historical/events', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), headers: { 'x-api-key': apiKey } });
  const ids = async (query: Record<string, string | number>) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EventsPage>().results.map((e) => e.id);
  };

  it('lists the events that have started in the last 30 days by default, by start time, with status and score, to every tier', async () => {
    const res = await list({});
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<EventsPage>();
    // 200 starts tomorrow, 400 was 40 days ago.
    expect(page.results.map((e) => e.id)).toEqual([100, 300]);
    expect(page.results[0]).toMatchObject({ status: 'final', home_score: 112, away_score: 104 });
    expect(page.results[1]).toMatchObject({ status: 'live', home_score: 40, away_score: 38 });
  });

  it("names each event's price-history files for every tier; the files keep their own tier rule", async () => {
    const res = await list({});
    expect(res.statusCode, res.body).toBe(200);
    const events = res.json<{ results: Array<{ id: number; json_url: string; csv_url: string }> }>().results;
    expect(events.map((e) => [e.id, e.json_url, e.csv_url])).toEqual([
      [100, '/v1/historical/odds/100.json', '/v1/historical/odds/100.csv'],
      [300, '/v1/historical/odds/300.json', '/v1/historical/odds/300.csv'],
    ]);
    const [first] = events;
    if (first === undefined) throw new Error('no event');
    for (const url of [first.json_url, first.csv_url]) {
      expect((await h.as.free.get(url)).statusCode, url).toBe(403);
      const pro = await h.as.pro.get(url);
      expect(pro.statusCode, url).toBe(200);
      expect(pro.headers['content-type'], url).toMatch(url.endsWith('.csv') ? /^text\/csv/ : /^application\/json/);
    }
  });

  it("takes Odditt's schema_version: v1 is the default; another is 422 naming the versions there are", async () => {
    expect(await ids({ schema_version: 'v1' })).toEqual(await ids({}));
    const res = await list({ schema_version: 'v2' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('v1') });
    const file = await h.t.app.inject({ method: 'GET', url: '/v1/historical/odds/100.json?schema_version=v2', headers: { 'x-api-key': h.keys.pro } });
    expect(file.statusCode, file.body).toBe(422);
    const fileV1 = await h.t.app.inject({ method: 'GET', url: '/v1/historical/odds/100.json?schema_version=v1', headers: { 'x-api-key': h.keys.pro } });
    expect(fileV1.statusCode, fileV1.body).toBe(200);
  });

  it('takes a range of UTC days, and filters by sport, league and team', async () => {
    expect(await ids({ start_date: day(h.now - 60 * DAY), end_date: day(h.now) })).toEqual([400, 100, 300]);
    expect(await ids({ start_date: day(h.now - 40 * DAY), end_date: day(h.now - 40 * DAY) })).toEqual([400]);
    expect(await ids({ start_date: day(h.now - 60 * DAY), league_id: 11 })).toEqual([300]);
    expect(await ids({ start_date: day(h.now - 60 * DAY), team_id: 1001 })).toEqual([400, 100]);
    expect(await ids({ sport_id: 1 })).toEqual([100, 300]);
    // Without start_date the range is the 30 days ending at end_date, both included: 40 days back is the 31st.
    expect(await ids({ end_date: day(h.now - 11 * DAY) })).toEqual([400]);
    expect(await ids({ end_date: day(h.now - 10 * DAY) })).toEqual([]);
    // An event of a future day has not started: even a range reaching into it leaves it out.
    expect(await ids({ start_date: day(h.now), end_date: day(h.now + 2 * DAY) })).toEqual(expect.not.arrayContaining([200]));
  });

  it('shows an event once it has started, at the next minute', async () => {
    const later = h.t.clock.now() + 2 * DAY;
    h.t.clock.set(later);
    try {
      expect(await ids({})).toEqual([100, 300, 200]);
    } finally {
      h.t.clock.set(h.now);
    }
  });

  it('answers 404 for an unknown sport, league or team, 422 for a range that ends before it starts or spans over 366 days', async () => {
    for (const query of [{ sport_id: 9 }, { league_id: 99 }, { team_id: 9999 }] as Array<Record<string, number>>) expect((await list(query)).statusCode, JSON.stringify(query)).toBe(404);
    const backwards = await list({ start_date: '2030-01-02', end_date: '2030-01-01' });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json()).toMatchObject({ error: { details: [{ field: 'end_date' }] } });
    const wide = await list({ start_date: '2029-01-01', end_date: '2030-01-02' });
    expect(wide.statusCode).toBe(422);
    expect(wide.json()).toMatchObject({ error: { details: [{ field: 'end_date', rule: 'maximum' }] } });
    const widest = await list({ start_date: '2029-01-01', end_date: '2030-01-01' });
    expect(widest.statusCode).toBe(200);
    expect((await list({ start_date: '2030-02-30' })).statusCode).toBe(422);
    expect((await list({ start_date: 'yesterday' })).statusCode).toBe(422);
  });
});
