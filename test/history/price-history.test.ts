import { describe, expect, it } from 'vitest';
import { purgeOldHistory } from '../../src/modules/history/index.js';
import { adminHeaders, DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { type Change, historyApp, historyDataset } from './fixture.js';

interface Page {
  results: Change[];
  total_count: number;
  total_pages: number;
}

const MINUTE = 60_000;

describe.each(DIALECTS)('the price history (%s)', (dialect) => {
  const h = historyApp(dialect);

  const history = async (body: Record<string, unknown>, apiKey = h.keys.pro) =>
    h.t.app.inject({ method: 'POST', url: '/v1/odds/history-by-event', headers: { 'x-api-key': apiKey }, payload: body });
  const changesOf = async (eventId: number) => {
    const res = await history({ event_id: eventId, page_size: 100 });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>().results;
  };

  it('three imports of one dataset, two price changes between them: each changed row has its opening and exactly two changes, the others only their opening', async () => {
    const first = historyDataset(h.now);
    await importDataset(h.t, first);

    // Second import, a minute later: odds 1 moves in price (no updated_at: the import's time),
    // odds 3 in line, with the feed's own time half a minute back.
    h.t.clock.advance(MINUTE);
    const second = historyDataset(h.now);
    second.odds = second.odds.map((o) =>
      o.id === 1 ? { ...o, price_decimal: 1.85 } : o.id === 3 ? { ...o, line: 222.5, updated_at: new Date(h.now + MINUTE / 2).toISOString() } : o,
    );
    await importDataset(h.t, second);

    // Third import: odds 1 moves again, odds 3 is suspended; then the same dataset once more.
    h.t.clock.advance(MINUTE);
    const third = historyDataset(h.now);
    third.odds = second.odds.map((o) => (o.id === 1 ? { ...o, price_decimal: 1.9 } : o.id === 3 ? { ...o, status: 'suspended' } : o));
    await importDataset(h.t, third);
    h.t.clock.advance(MINUTE);
    await importDataset(h.t, third);

    const changes = await changesOf(100);
    const byOdds = (id: number) => changes.filter((c) => c.odds_id === id);
    // Opening entries count apart: `from` null. Rows 1 and 3 changed twice, 2 and 4 never.
    const counted = (id: number) => ({ openings: byOdds(id).filter((c) => c.price_decimal.from === null).length, changes: byOdds(id).filter((c) => c.price_decimal.from !== null).length });
    expect([1, 2, 3, 4].map(counted)).toEqual([
      { openings: 1, changes: 2 },
      { openings: 1, changes: 0 },
      { openings: 1, changes: 2 },
      { openings: 1, changes: 0 },
    ]);
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(byOdds(1).map(({ changed_at, price_decimal, line, status }) => ({ changed_at, price_decimal, line, status }))).toEqual([
      { changed_at: iso(h.now), price_decimal: { from: null, to: 1.8 }, line: { from: null, to: null }, status: { from: null, to: 'open' } },
      { changed_at: iso(h.now + MINUTE), price_decimal: { from: 1.8, to: 1.85 }, line: { from: null, to: null }, status: { from: 'open', to: 'open' } },
      { changed_at: iso(h.now + 2 * MINUTE), price_decimal: { from: 1.85, to: 1.9 }, line: { from: null, to: null }, status: { from: 'open', to: 'open' } },
    ]);
    expect(byOdds(3).map(({ changed_at, line, status }) => ({ changed_at, line, status }))).toEqual([
      { changed_at: iso(h.now), line: { from: null, to: 221.5 }, status: { from: null, to: 'open' } },
      // The dataset's updated_at, not the import's time.
      { changed_at: iso(h.now + MINUTE / 2), line: { from: 221.5, to: 222.5 }, status: { from: 'open', to: 'open' } },
      { changed_at: iso(h.now + MINUTE / 2), line: { from: 222.5, to: 222.5 }, status: { from: 'open', to: 'suspended' } },
    ]);
    // In time order (changed_at, then id), and the ids grow with every change recorded.
    const order = changes.map((c) => [Date.parse(c.changed_at), c.id] as const);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    expect(new Set(changes.map((c) => c.id)).size).toBe(changes.length);
    expect(changes.every((c) => c.event_id === 100)).toBe(true);
  });

  it('leaves the current odds answering as before: the latest price', async () => {
    const res = await h.t.app.inject({ method: 'POST', url: '/v1/odds/upcoming-odds-by-event', headers: { 'x-api-key': h.keys.free }, payload: { event_id: 100 } });
    expect(res.statusCode).toBe(200);
    const odds = res.json<{ results: Array<{ id: number; price: { decimal: number }; status: string; line: number | null }> }>().results;
    expect(odds.find((o) => o.id === 1)?.price.decimal).toBe(1.9);
    expect(odds.find((o) => o.id === 3)).toMatchObject({ status: 'suspended', line: 222.5 });
  });

  it('filters by operator, betting market and [since, until), and pages', async () => {
    const ids = async (body: Record<string, unknown>) => (await history({ event_id: 100, page_size: 100, ...body })).json<Page>().results.map((c) => c.odds_id);
    expect(new Set(await ids({ operator_ids: [2] }))).toEqual(new Set([3, 4]));
    expect(new Set(await ids({ betting_market_ids: [1] }))).toEqual(new Set([1, 2]));
    const since = new Date(h.now + 1).toISOString();
    const until = new Date(h.now + 2 * MINUTE).toISOString();
    // Odds 1's first move (h.now + 1 min) and odds 3's two (h.now + 30 s); not odds 1's second (at `until`).
    expect(await ids({ since, until })).toEqual([3, 3, 1]);
    const page2 = await history({ event_id: 100, page: 2, page_size: 3 });
    expect(page2.json<Page>()).toMatchObject({ total_count: 8, total_pages: 3 });
    expect(page2.json<Page>().results).toHaveLength(3);
  });

  it('answers 404 for an unknown event, 422 for until before since, 403 naming the tiers for a free client', async () => {
    const unknown = await history({ event_id: 999 });
    expect(unknown.statusCode).toBe(404);
    const backwards = await history({ event_id: 100, since: '2030-01-02T00:00:00Z', until: '2030-01-01T00:00:00Z' });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'until' }] } });
    const free = await history({ event_id: 100 }, h.keys.free);
    expect(free.statusCode).toBe(403);
    expect(free.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: 'the price history is for the pro and enterprise tiers; this client is on the free tier' } });
    expect((await history({ event_id: 100 }, h.keys.enterprise)).statusCode).toBe(200);
    const tooBig = await history({ event_id: 100, page_size: 101 });
    expect(tooBig.statusCode).toBe(422);
  });

  it('records nothing for an import that changes nothing, and the opening of a row first seen later', async () => {
    const before = (await changesOf(200)).length;
    const dataset = historyDataset(h.now);
    dataset.odds = [...dataset.odds.filter((o) => o.event_id === 200), { id: 8, event_id: 200, operator_id: 2, betting_market_id: 2, position: 'over', line: 230.5, price_decimal: 1.95 }];
    await importDataset(h.t, { odds: dataset.odds });
    const after = await changesOf(200);
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ odds_id: 8, price_decimal: { from: null, to: 1.95 }, line: { from: null, to: 230.5 } });
  });

  it('purges changes older than HISTORY_RETENTION_DAYS, and the list follows at once', async () => {
    const all = await changesOf(100);
    // Two years on, only changes newer than 730 days stay: none of these.
    h.t.clock.advance(731 * 24 * 3600_000);
    const fresh = historyDataset(h.now);
    await importDataset(h.t, { odds: fresh.odds.filter((o) => o.id === 2).map((o) => ({ ...o, price_decimal: 2.2 })) });
    const purged = await purgeOldHistory({ db: h.t.database.db, clock: h.t.clock, changes: h.t.ctx.changes, retentionDays: 730 });
    expect(purged).toBeGreaterThanOrEqual(all.length);
    const left = await changesOf(100);
    expect(left.map((c) => ({ odds_id: c.odds_id, price_decimal: c.price_decimal }))).toEqual([{ odds_id: 2, price_decimal: { from: 2.05, to: 2.2 } }]);
  });
});

describe.each(DIALECTS)('event statuses and scores in the import (%s)', (dialect) => {
  const h = historyApp(dialect, async (t, now) => {
    await importDataset(t, historyDataset(now));
  });

  const imported = (events: unknown[]) => h.t.app.inject({ method: 'POST', url: '/admin/v1/import', headers: adminHeaders, payload: { events } });
  const event = { id: 400, league_id: 10, start_time: '2030-01-01T00:00:00Z', home_team_id: 1000, away_team_id: 1001 };

  it('takes a status of the closed set only, and scores of both sides or none', async () => {
    const unknown = await imported([{ ...event, status: 'in_progress' }]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ error: { details: [{ field: 'events[0].status' }] } });
    const half = await imported([{ ...event, status: 'final', home_score: 3 }]);
    expect(half.statusCode).toBe(422);
    expect(half.json()).toMatchObject({ error: { details: [{ field: 'events[0].away_score', rule: 'required' }] } });
    const negative = await imported([{ ...event, home_score: -1, away_score: 0 }]);
    expect(negative.statusCode).toBe(422);
    for (const status of ['scheduled', 'live', 'final', 'postponed', 'cancelled']) {
      expect((await imported([{ ...event, status, home_score: 1, away_score: 0 }])).statusCode, status).toBe(200);
    }
  });
});
