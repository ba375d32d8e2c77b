import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OddsStreamEvent, type PriceChange, SportsDataClient } from '../src/index.js';
import { historyDataset, odds } from '../../../test/history/fixture.js';
import { capturingFetch, type Server, startServer } from './helpers/server.js';

/** The change cursor and the odds stream, against the real app over HTTP. */
describe('api.odds.changes and api.oddsStream', () => {
  let server: Server;
  let api: SportsDataClient;
  let apiKey: string;
  let requests: ReturnType<typeof capturingFetch>['requests'];
  let price = 2;
  /** Moves one odds row's price: one change. */
  const move = async (id: number, eventId: number) => {
    price = Math.round((price + 0.01) * 100) / 100;
    await server.t.import({ odds: [odds(id, eventId, 1, 1, 'home', price)] });
  };
  beforeAll(async () => {
    server = await startServer({ env: { STREAM_HEARTBEAT_MS: '100' } });
    await server.t.import(historyDataset(server.t.clock.now()));
    ({ apiKey } = await server.t.client());
    const capture = capturingFetch();
    requests = capture.requests;
    api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey, fetch: capture.fetch });
  });
  afterAll(async () => server.close());

  const changeRequests = () => requests.filter((r) => new URL(r.url).pathname === '/v1/odds/changes').map((r) => new URL(r.url).searchParams.get('after'));

  it('one call answers a page; iterate follows next_after until a page is empty, and gives every change once, in id order', async () => {
    const first = await api.odds.changes({ after: 0, limit: 3 });
    expect(first.results).toHaveLength(3);
    expect(first.next_after).toBe(first.results.at(-1)?.id);
    requests.length = 0;
    const all: PriceChange[] = [];
    for await (const change of api.odds.changes.iterate({ after: 0, limit: 3 })) all.push(change);
    expect(all).toHaveLength(7);
    expect(all.slice(0, 3)).toEqual(first.results);
    expect(all.map((c) => c.id)).toEqual([...new Set(all.map((c) => c.id))].sort((a, b) => a - b));
    // Pages of 3, 3 and 1, then the empty one that says it is the end.
    expect(changeRequests()).toEqual(['0', String(all[2]?.id), String(all[5]?.id), String(all[6]?.id)]);
    const pages = [];
    for await (const page of api.odds.changes.pages({ after: all[6]?.id ?? 0 })) pages.push(page);
    expect(pages).toEqual([]);
    await move(5, 200);
    const later = [];
    for await (const change of api.odds.changes.iterate({ after: all[6]?.id ?? 0, event_ids: '200' })) later.push(change);
    expect(later.map((c) => c.odds_id)).toEqual([5]);
  });

  it('the stream gives typed events: the price changes after lastEventId with their ids (replayed, then live), heartbeats', async () => {
    const ofEvent100 = (await api.odds.changes({ after: 0, limit: 1000, event_ids: '100' })).results;
    const target = ofEvent100.at(-1);
    const stream = api.oddsStream({ event_ids: [100], types: ['odds'], lastEventId: (target?.id ?? 1) - 1 });
    const events: OddsStreamEvent[] = [];
    let moved = false;
    for await (const event of stream) {
      events.push(event);
      // Replayed first: the change after lastEventId, as the cursor gives it.
      if (event.type === 'odds' && event.id === target?.id && !moved) {
        moved = true;
        await move(1, 100);
      }
      if (events.some((e) => e.type === 'heartbeat') && events.filter((e) => e.type === 'odds').length === 2) break;
    }
    const odds = events.filter((e) => e.type === 'odds');
    expect(odds[0]).toEqual({ type: 'odds', id: target?.id, change: target });
    const [, live] = odds;
    expect(live?.type === 'odds' ? live.change : undefined).toMatchObject({ odds_id: 1, event_id: 100, price_decimal: { to: price } });
  });

  it('reconnects after a lost connection with Last-Event-ID, and nothing is missed or received twice', async () => {
    let cut: (() => void) | undefined;
    const lastEventIds: Array<string | null> = [];
    // A fetch whose stream answers can be cut, as a network would.
    const cuttable: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/v1/stream/odds') || response.body === null) return response;
      lastEventIds.push(new Headers(init?.headers).get('last-event-id'));
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cut = () => {
            controller.error(new Error('connection reset'));
            void reader.cancel();
          };
        },
        async pull(controller) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = new SportsDataClient({ baseUrl: server.baseUrl, apiKey, fetch: cuttable });
    const stream = client.oddsStream({ event_ids: [100] }, { reconnectDelayMs: 50 });
    const next = async (type: OddsStreamEvent['type']) => {
      for (;;) {
        const { value, done } = await stream.next();
        if (done) throw new Error('the stream ended');
        if (value.type === type) return value;
      }
    };
    // Connected once the first heartbeat comes: a change after it is on the stream.
    await next('heartbeat');
    await move(1, 100);
    const first = await next('odds');
    cut?.();
    await move(2, 100);
    await move(1, 100);
    const reconnected = await next('reconnected');
    expect(reconnected).toEqual({ type: 'reconnected', lastEventId: first.type === 'odds' ? first.id : -1 });
    const missed = [await next('odds'), await next('odds')];
    expect(missed.map((e) => (e.type === 'odds' ? e.change.odds_id : 0))).toEqual([2, 1]);
    expect(lastEventIds).toEqual([null, String(first.type === 'odds' ? first.id : '')]);
    const ids = [first, ...missed].map((e) => (e.type === 'odds' ? e.id : 0));
    expect(new Set(ids).size).toBe(3);
    await stream.return(undefined);
  });

  it('an end is yielded, then the stream reconnects; a reconnection refused (the credentials reset) ends the iteration with its 401', async () => {
    const { apiKey: key, clientId } = await server.t.client({ name: 'Reset' });
    const client = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: key });
    const stream = client.oddsStream({}, { reconnectDelayMs: 10 });
    expect((await stream.next()).value).toEqual({ type: 'heartbeat' });
    await server.admin('POST', `/admin/v1/clients/${clientId}/credentials`, {});
    let end = await stream.next();
    while (end.value?.type === 'heartbeat') end = await stream.next();
    expect(end.value).toMatchObject({ type: 'end', reason: 'credentials_revoked' });
    await expect(stream.next()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('a stream the server refuses ends the iteration with its error: a free client gets 403', async () => {
    const { apiKey: free } = await server.t.client({ tier: 'free', name: 'Free' });
    const client = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: free });
    await expect(client.oddsStream().next()).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await expect(client.odds.changes({ after: 0 })).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});
