import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { openStream, type SseEvent } from '../helpers/sse.js';
import { historyDataset, odds } from '../history/fixture.js';

/**
 * The import route's imports made on the import thread (IMPORT_THREAD=true, the serving default;
 * the rest of the suite makes them in the serving thread): the same answers, a read after the
 * answer sees the import, and the streams get its changes and the board events the thread's
 * processors compute, without the serving thread running them.
 */
describe.each(DIALECTS)('the import thread (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  const dir = mkdtempSync(join(tmpdir(), 'import-thread-'));
  beforeAll(async () => {
    // An in-memory SQLite database cannot be opened by a second thread: a file can.
    const databaseUrl = dialect === 'sqlite' ? { databaseUrl: `sqlite:${join(dir, 'thread.db')}` } : {};
    t = await harness({ dialect, env: { IMPORT_THREAD: 'true', STREAM_HEARTBEAT_MS: '200' }, ...databaseUrl });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ({ apiKey } = await t.client());
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/admin/v1/import', headers: adminHeaders, payload: payload as object });
  const price = async (oddsId: number) => {
    const page = await t.as({ apiKey }).page<{ id: number; price_decimal: number }>('/v1/odds/upcoming-odds-by-event', { event_id: 200 });
    return page.results.find((item) => item.id === oddsId)?.price_decimal;
  };

  it('is running, and answers an import as the serving thread would, with a read after the answer seeing it', async () => {
    expect(t.ctx.importThread).toBeDefined();
    const dataset = historyDataset(t.clock.now());
    dataset.odds.push(odds(8, 200, 1, 1, 'away', 2.5), odds(9, 200, 2, 1, 'home', 1.55));
    const first = await post(dataset);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ upserted: { sports: 1, events: dataset.events.length, odds: dataset.odds.length } });
    // Read once (now cached), then moved: the read after the import's answer is the new price, not the cached one.
    expect(await price(5)).toBe(dataset.odds.find((o) => o.id === 5)?.price_decimal);
    const moved = await post({ odds: [odds(5, 200, 1, 1, 'home', 1.61)] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await price(5)).toBe(1.61);
  });

  it('refuses a dataset the same way: a reference to nothing is a 422 naming the field, and nothing is written', async () => {
    const answer = await post({ odds: [odds(5, 200, 1, 1, 'home', 1.7), odds(99, 999, 1, 1, 'home', 2.2)] });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'odds[1].event_id' }] } });
    expect(await price(5)).toBe(1.61);
  });

  it('sends an import\'s change and its board events to the streams, the board events computed by the thread', async () => {
    const stream = await openStream(`${url}/v1/stream/odds?event_ids=200&types=odds,board`, { 'x-api-key': apiKey });
    const answer = await post({ odds: [odds(5, 200, 1, 1, 'home', 1.66)] });
    expect(answer.statusCode, answer.body).toBe(200);
    // Waited for as they come, not for a quiet spell: the thread runs its processors right after its
    // import, while the serving thread's run only on its own imports and on its 5-second timer.
    const received: SseEvent[] = [];
    while (!received.some((e) => e.event === 'board')) received.push(await stream.next(10_000));
    stream.close();
    expect(received.filter((e) => e.event === 'odds').map((e) => JSON.parse(e.data) as unknown)).toEqual([
      expect.objectContaining({ odds_id: 5, price_decimal: { from: 1.61, to: 1.66 } }),
    ]);
    expect(received.filter((e) => e.event === 'board').length).toBeGreaterThan(0);
  });

  it('ends with the app: its background stops the thread', async () => {
    const thread = t.ctx.importThread;
    await thread?.stop();
    // Stopped, it starts again when asked: the next import is made.
    const answer = await post({ odds: [odds(5, 200, 1, 1, 'home', 1.7)] });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await price(5)).toBe(1.7);
  });
});

describe('an import thread that cannot start (sqlite)', () => {
  let t: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'import-thread-missing-'));
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite', env: { IMPORT_THREAD: 'true' }, databaseUrl: `sqlite:${join(dir, 'gone.db')}` });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the import 503 with Retry-After, and the serving thread serves on', async () => {
    // The thread started with the app is stopped; the serving thread keeps its open file, and the
    // import's new thread opens it anew, finds it gone, and ends before it is ready.
    await t.ctx.importThread?.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `gone.db${suffix}`), { force: true });
    const answer = await t.app.inject({ method: 'POST', url: '/admin/v1/import', headers: adminHeaders, payload: historyDataset(t.clock.now()) });
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
