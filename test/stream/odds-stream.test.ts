import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { eventually } from '../helpers/node-process.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { type Change, clientsOfEachTier, historyDataset, odds } from '../history/fixture.js';

/** A test app listening on a port of its own: streams need a real socket. */
async function listening(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<{ t: Harness; url: string }> {
  const t = await harness({ dialect, env: { STREAM_HEARTBEAT_MS: '200', ...env } });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  await t.import(historyDataset(t.clock.now()));
  return { t, url };
}

const changeOf = (data: string) => JSON.parse(data) as Change;

describe.each(DIALECTS)('GET /v1/stream/odds (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let keys: Awaited<ReturnType<typeof clientsOfEachTier>>;
  let price = 2;
  beforeAll(async () => {
    ({ t, url } = await listening(dialect));
    keys = await clientsOfEachTier(t);
  });
  afterAll(async () => t.close());

  const stream = (query: string, headers: Record<string, string> = {}, apiKey = keys.pro) => openStream(`${url}/v1/stream/odds${query}`, { 'x-api-key': apiKey, ...headers });
  /** Moves one odds row's price: one change, streamed to whoever follows its event. */
  const move = async (id: number, eventId: number) => {
    price += 0.01;
    await t.import({ odds: [odds(id, eventId, 1, 1, 'home', Math.round(price * 100) / 100)] });
  };

  it('streams the changes of the events asked for as imports commit them: event odds, id = history id, data = one history item', async () => {
    // A client that takes compressed answers still gets each event as it happens, uncompressed.
    const s = await stream('?event_ids=100', { 'accept-encoding': 'br, gzip' });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('cache-control')).toBe('no-store');
    expect(s.headers.get('content-encoding')).toBeNull();
    await move(5, 200);
    await move(1, 100);
    const event = await s.next();
    expect(event.event).toBe('odds');
    const change = changeOf(event.data);
    expect(event.id).toBe(String(change.id));
    expect(change).toMatchObject({ odds_id: 1, event_id: 100, price_decimal: { from: 1.8 } });
    // The same item the history list shows.
    const listed = await t.as({ apiKey: keys.pro }).post<{ results: Change[] }>('/v1/odds/history-by-event', { event_id: 100, page_size: 100 });
    expect(listed.json().results.find((c) => c.id === change.id)).toEqual(change);
    // Heartbeats keep the connection busy (every 200 ms here).
    expect(await eventually(async () => s.comments.includes('heartbeat'), 2000)).toBe(true);
    s.close();
  });

  it('follows leagues: league_ids streams the changes of every event of those leagues', async () => {
    const s = await stream('?league_ids=11');
    await move(1, 100);
    await move(7, 300);
    expect(changeOf((await s.next()).data)).toMatchObject({ odds_id: 7, event_id: 300 });
    s.close();
  });

  it('after a reconnection with Last-Event-ID, sends exactly the changes missed, then the new ones', async () => {
    const first = await stream('?event_ids=100,200');
    await move(1, 100);
    const seen = changeOf((await first.next()).data);
    first.close();
    await first.ended;
    // Missed while away: two changes of followed events and one of another league.
    await move(2, 100);
    await move(7, 300);
    await move(5, 200);
    const again = await stream('?event_ids=100,200', { 'last-event-id': String(seen.id) });
    const missed = [changeOf((await again.next()).data), changeOf((await again.next()).data)];
    expect(missed.map((c) => c.odds_id)).toEqual([2, 5]);
    expect(missed.every((c) => c.id > seen.id)).toBe(true);
    await move(6, 200);
    expect(changeOf((await again.next()).data).odds_id).toBe(6);
    // Nothing else: no repeat of what was sent.
    await expect(again.next(500)).rejects.toThrow(/no event/);
    expect(again.events).toHaveLength(3);
    again.close();
  });

  it('caps open streams per client: a pro client’s sixth is 429 with Retry-After; closing one frees a place; enterprise gets more', async () => {
    // A client of its own: the streams the other tests closed may not have reached the server yet.
    const { apiKey } = await t.client({ tier: 'pro', name: 'Five streams' });
    const mine = (query: string) => stream(query, {}, apiKey);
    const open = await Promise.all(Array.from({ length: 5 }, () => mine('?event_ids=100')));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await mine('?event_ids=100');
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('10');
    expect(JSON.parse(sixth.error)).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/at most 5 odds streams/) } });
    open[0]?.close();
    let again = await mine('?event_ids=100');
    // The server learns of the closed connection a moment later (later still on a busy machine).
    for (const deadline = Date.now() + 20_000; again.status === 429 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await mine('?event_ids=100');
    }
    expect(again.status).toBe(200);
    const enterprise = await Promise.all(Array.from({ length: 6 }, () => stream('', {}, keys.enterprise)));
    expect(enterprise.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const s of [...open, again, ...enterprise]) s.close();
  });

  it('Last-Event-ID above the newest change is a 422 naming the header (rule maximum), not a stream that stays silent; after a purge the ids issued still count', async () => {
    const s = await stream('?event_ids=100');
    await move(1, 100);
    const newest = Number((await s.next()).id);
    s.close();
    for (const ahead of [newest + 1, newest + 1000]) {
      const res = await stream('', { 'last-event-id': String(ahead) });
      expect(res.status, String(ahead)).toBe(422);
      const { error } = JSON.parse(res.error) as { error: { code: string; message: string; details: Array<{ field: string; rule: string }> } };
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.message).toBe(`last-event-id must be at most ${newest}, the id of the newest change`);
      expect(error.details).toEqual([{ field: 'last-event-id', rule: 'maximum' }]);
    }
    const current = await stream('', { 'last-event-id': String(newest) });
    expect(current.status).toBe(200);
    current.close();
    // Every change purged (retention): the newest id issued is still the bound, not 0.
    await t.ctx.database.db.deleteFrom('odds_history').execute();
    const afterPurge = await stream('', { 'last-event-id': String(newest) });
    expect(afterPurge.status).toBe(200);
    afterPurge.close();
    expect((await stream('', { 'last-event-id': String(newest + 1) })).status).toBe(422);
    // The next change gets the next id: a client that resumes from the one before it receives it.
    const resumed = await stream('?event_ids=100', { 'last-event-id': String(newest) });
    await move(1, 100);
    expect(Number((await resumed.next()).id)).toBeGreaterThan(newest);
    resumed.close();
  });

  it('refuses a free client (403), ids that are not a list of ids (422), unknown events and leagues (404)', async () => {
    const free = await stream('?event_ids=100', {}, keys.free);
    expect(free.status).toBe(403);
    expect(JSON.parse(free.error)).toMatchObject({ error: { code: 'FORBIDDEN', message: 'the odds stream is for the pro and enterprise tiers; this client is on the free tier' } });
    for (const query of ['?event_ids=1,a', '?event_ids=', '?event_ids=0', '?league_ids=1,,2', '?event_ids=99999999999999999', `?event_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`]) {
      expect((await stream(query)).status, query).toBe(422);
    }
    expect((await stream('', { 'last-event-id': 'abc' })).status, 'Last-Event-ID is an integer').toBe(400);
    expect((await stream('?event_ids=100,999')).status).toBe(404);
    expect((await stream('?league_ids=99')).status).toBe(404);
    expect((await openStream(`${url}/v1/stream/odds`, {})).status).toBe(401);
    // HEAD would open a stream nobody reads: the path answers GET only.
    const head = await fetch(`${url}/v1/stream/odds`, { method: 'HEAD', headers: { 'x-api-key': keys.pro } });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
  });

  it('ends a stream with a final event when its client is disabled', async () => {
    const { clientId, apiKey } = await t.client({ tier: 'pro', name: 'To be disabled' });
    const s = await stream('?event_ids=100', {}, apiKey);
    expect(s.status).toBe(200);
    const res = await t.admin.patch(`/admin/v1/clients/${clientId}`, { disabled: true });
    expect(res.statusCode).toBe(200);
    const end = await s.next();
    expect(end.event).toBe('end');
    expect(JSON.parse(end.data)).toMatchObject({ reason: 'client_disabled' });
    await s.ended;
  });
});

describe.each(DIALECTS)('the end of a stream (%s)', (dialect) => {
  it('a stream opened with an access token ends with a final event when the token expires', async () => {
    const { t, url } = await listening(dialect, { ACCESS_TOKEN_TTL: '1' });
    try {
      const { access_token: token } = await t.login(await t.client({ tier: 'enterprise' }));
      const s = await openStream(`${url}/v1/stream/odds?event_ids=100`, { authorization: `Bearer ${token}` });
      expect(s.status).toBe(200);
      const end = await s.next(5000);
      expect(end.event).toBe('end');
      expect(JSON.parse(end.data)).toEqual({ reason: 'token_expired', message: expect.stringMatching(/refresh it and reconnect with Last-Event-ID/) });
      await s.ended;
    } finally {
      await t.close();
    }
  });

  it('every stream ends with a final event when the app closes, with a short retry, and the close does not wait for them', async () => {
    const { t, url } = await listening(dialect);
    const { apiKey } = await t.client({ tier: 'pro' });
    const streams: SseStream[] = await Promise.all([1, 2].map(() => openStream(`${url}/v1/stream/odds`, { 'x-api-key': apiKey })));
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(3000);
    for (const s of streams) {
      const end = await s.next();
      expect(JSON.parse(end.data)).toMatchObject({ reason: 'server_shutdown' });
      await s.ended;
      // 2 s after a lost connection; after a shutdown, soon (another node answers), spread over a second.
      expect(s.retries[0]).toBe(2000);
      expect(s.retries[1]).toBeGreaterThanOrEqual(250);
      expect(s.retries[1]).toBeLessThan(1250);
    }
  });
});
