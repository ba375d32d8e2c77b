import { describe, expect, it } from 'vitest';
import { purgeOldHistory } from '../../src/modules/history/index.js';
import { DIALECTS } from '../helpers/app.js';
import type { ErrorBody } from '../helpers/harness.js';
import { type Change, historyApp, historyDataset, odds } from '../history/fixture.js';

interface ChangesPage {
  results: Change[];
  next_after: number;
}

const DAY = 24 * 3600_000;

describe.each(DIALECTS)('GET /v1/odds/changes (%s)', (dialect) => {
  const h = historyApp(dialect, async (t, now) => {
    await t.import(historyDataset(now));
  });
  const changes = async (query: string) => {
    const res = await h.as.pro.get<ChangesPage>(`/v1/odds/changes?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every change after `after`, following next_after a page of `limit` at a time. */
  const readAll = async (query: string, after: number, limit: number) => {
    const all: Change[] = [];
    for (let cursor = after; ; ) {
      const page = await changes(`after=${cursor}&limit=${limit}${query}`);
      expect(page.results.length).toBeLessThanOrEqual(limit);
      all.push(...page.results);
      if (page.results.length === 0) {
        expect(page.next_after).toBe(cursor);
        return all;
      }
      expect(page.next_after).toBe(page.results.at(-1)?.id);
      cursor = page.next_after;
    }
  };
  const refused = async (query: string, status: number) => {
    const res = await h.as.pro.get(`/v1/odds/changes?${query}`);
    expect(res.statusCode, `${query}: ${res.body}`).toBe(status);
    return res.json<ErrorBody>().error;
  };

  it('answers the changes after an id in id order, each as the history lists it, and next_after the last id; paging reads them all once', async () => {
    const all = await readAll('', 0, 1000);
    expect(all.length).toBe(7);
    expect(all.map((c) => c.id)).toEqual([...all.map((c) => c.id)].sort((a, b) => a - b));
    const listed = (await h.as.pro.post<{ results: Change[] }>('/v1/odds/history-by-event', { event_id: 100, page_size: 100 })).json().results;
    for (const change of listed) expect(all.find((c) => c.id === change.id)).toEqual(change);
    expect(await readAll('', 0, 2)).toEqual(all);
    const [, second] = all;
    expect(await readAll('', second?.id ?? 0, 3)).toEqual(all.slice(2));
    // At the end: nothing, and next_after stays.
    const last = all.at(-1)?.id ?? 0;
    expect(await changes(`after=${last}`)).toEqual({ results: [], next_after: last });
  });

  it('filters as the stream does: event_ids, league_ids, either of both; an unknown event or league is 404', async () => {
    const all = await readAll('', 0, 1000);
    expect((await readAll('&event_ids=200', 0, 1)).map((c) => c.odds_id)).toEqual(all.filter((c) => c.event_id === 200).map((c) => c.odds_id));
    expect((await readAll('&league_ids=11', 0, 1)).map((c) => c.event_id)).toEqual([300]);
    expect((await readAll('&event_ids=200&league_ids=11', 0, 2)).map((c) => c.event_id)).toEqual([200, 200, 300]);
    expect((await refused('after=0&event_ids=999', 404)).message).toBe('no event with id 999 (event_ids)');
    expect((await refused('after=0&league_ids=999', 404)).code).toBe('NOT_FOUND');
  });

  it('records a status change as a change of its own: suspended with the price unchanged, and closed through a price update', async () => {
    const before = (await readAll('', 0, 1000)).at(-1)?.id ?? 0;
    await h.t.import({ odds: [{ ...odds(6, 200, 2, 1, 'away', 2.6), status: 'suspended' }] });
    await h.t.import({ price_updates: [{ odds_id: 6, price_decimal: 2.6, status: 'closed' }] });
    const after = await readAll('&event_ids=200', before, 1);
    expect(after.map((c) => ({ odds_id: c.odds_id, price: c.price_decimal, status: c.status }))).toEqual([
      { odds_id: 6, price: { from: 2.6, to: 2.6 }, status: { from: 'open', to: 'suspended' } },
      { odds_id: 6, price: { from: 2.6, to: 2.6 }, status: { from: 'suspended', to: 'closed' } },
    ]);
    // The same again is no change.
    await h.t.import({ price_updates: [{ odds_id: 6, price_decimal: 2.6, status: 'closed' }] });
    expect(await readAll('', after.at(-1)?.id ?? 0, 10)).toEqual([]);
  });

  it('is for pro and enterprise: a free client gets 403, no credential 401; enterprise reads', async () => {
    const free = await h.as.free.get('/v1/odds/changes?after=0');
    expect(free.statusCode).toBe(403);
    expect(free.json<ErrorBody>().error.message).toMatch(/price history/);
    expect((await h.as.enterprise.get('/v1/odds/changes?after=0')).statusCode).toBe(200);
    expect((await h.t.anonymous.get('/v1/odds/changes?after=0')).statusCode).toBe(401);
  });

  it('bounds its input: after 0 or more (none is 0); limit 1 to 1000; ids and limits as numbers; no other parameter', async () => {
    expect(await changes('limit=3')).toEqual(await changes('after=0&limit=3'));
    expect((await refused('after=-1', 422)).details).toEqual([{ field: 'after', rule: 'minimum' }]);
    expect((await refused('after=0&limit=0', 422)).details).toEqual([{ field: 'limit', rule: 'minimum' }]);
    expect((await refused('after=0&limit=1001', 422)).details).toEqual([{ field: 'limit', rule: 'maximum' }]);
    expect((await refused('after=abc', 400)).code).toBe('BAD_REQUEST');
    expect((await refused('after=0&limit=1.5', 400)).code).toBe('BAD_REQUEST');
    expect((await refused('after=0&event_ids=a,b', 422)).details?.[0]?.field).toBe('event_ids');
    expect((await refused('after=0&types=odds', 422)).code).toBe('VALIDATION_ERROR');
    expect((await changes('after=0&limit=1000')).results.length).toBeGreaterThan(0);
    expect((await changes('after=0&limit=1')).results).toHaveLength(1);
    // Above the newest id issued: no change has it yet, and a client there would wait for nothing.
    const issued = (await readAll('', 0, 1000)).at(-1)?.id ?? 0;
    const ahead = await refused(`after=${issued + 1}`, 422);
    expect(ahead).toMatchObject({ message: `after must be at most ${issued}, the id of the newest change`, details: [{ field: 'after', rule: 'maximum' }] });
  });

  it('an after the retention has purged past is 422 naming the oldest change kept, never a silent gap; from the purge mark on it reads on', async () => {
    const { t } = h;
    const old = await readAll('', 0, 1000);
    const firstOld = old[0]?.id ?? 0;
    // A database purged by an earlier version keeps no mark: everything below the oldest change kept counts as purged.
    const [, second, third] = old;
    await t.database.db.deleteFrom('odds_history').where('id', '<=', second?.id ?? 0).execute();
    expect((await refused(`after=${firstOld}`, 422)).message).toContain(`the changes up to id ${second?.id}, and the oldest change kept is id ${third?.id}`);
    expect((await readAll('', second?.id ?? 0, 100)).map((c) => c.id)).toEqual(old.slice(2).map((c) => c.id));
    // Two years on, one change recorded then, and the purge deletes every change recorded before the retention.
    t.clock.advance(731 * DAY);
    await t.import({ odds: [odds(7, 300, 1, 1, 'home', 1.75)] });
    const purged = await purgeOldHistory({ db: t.database.db, clock: t.clock, changes: t.ctx.changes, retentionDays: 730 });
    expect(purged).toBe(old.length - 2);
    const lastPurged = old.at(-1)?.id ?? 0;
    const kept = await readAll('', 0, 1000);
    expect(kept).toHaveLength(1);
    const oldest = kept[0]?.id ?? 0;
    for (const after of [firstOld, lastPurged - 1]) {
      const error = await refused(`after=${after}`, 422);
      expect(error.details).toEqual([{ field: 'after', rule: 'minimum' }]);
      expect(error.message).toContain(`after ${after} is older than the oldest change kept`);
      expect(error.message).toContain(`the oldest change kept is id ${oldest}`);
      expect(error.message).toContain(`the changes up to id ${lastPurged}`);
    }
    expect((await readAll('', lastPurged, 1)).map((c) => c.id)).toEqual([oldest]);
    // 0 is the start of what is kept, as Last-Event-ID: 0 is on the stream.
    expect(kept.map((c) => c.id)).toEqual([oldest]);
  });
});
