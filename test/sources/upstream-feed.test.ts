import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import {
  createUpstreamFeed,
  type SourceBatch,
  type SourceImporter,
  type SourceImportOptions,
  type UpstreamFeed,
} from '../../src/modules/sources/index.js';
import { createUpstreamClient } from '../../src/modules/sources/upstream/upstream.client.js';
import { manualClock } from '../../src/platform/clock.js';
import { createLeasesRepository } from '../../src/platform/db/leases.repository.js';
import { DIALECTS, openTestDatabase, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestDatabase } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { count, sample, scrape } from '../helpers/metrics.js';
import { fakeUpstream, ODDS, quota, SCORES } from './fake-upstream.js';

/**
 * The upstream feed against a local server answering as The Odds API v4 documents (the recorded
 * answers of examples/the-odds-api), then refusing, failing, hanging and garbling. The import side
 * is a recording importer: what the feed hands over is what these tests check (the sources'
 * importer is exercised by its own tests).
 */

const KEY = 'f3c9a1d27b6e48d0a5c4e2b1d9f08a37';
const INTERVAL_S = 60;
const TIMEOUT_MS = 300;
const recorded = (name: string): string => readFileSync(new URL(`../../examples/the-odds-api/${name}`, import.meta.url), 'utf8');

/** Keeps every batch the feed hands over. */
function recordingImporter(): SourceImporter & { batches: Array<{ batch: SourceBatch; options: SourceImportOptions | undefined }> } {
  const batches: Array<{ batch: SourceBatch; options: SourceImportOptions | undefined }> = [];
  return {
    batches,
    async importBatch(batch, options) {
      batches.push({ batch, options });
      return { imported: { events: batch.rows.length, odds: batch.rows.reduce((n, r) => n + r.prices.length, 0), results: 0 }, queued: 0, skipped: [] };
    },
  };
}

describe.each(DIALECTS)('the upstream feed (%s)', (dialect) => {
  const upstream = fakeUpstream();
  let base: string;
  let db: TestDatabase;
  let t: Harness;
  let feed: UpstreamFeed;
  const importer = recordingImporter();
  const clock = manualClock(Date.parse('2024-12-20T09:15:00Z'));

  beforeAll(async () => {
    base = await upstream.listen();
    db = await openTestDatabase(dialect);
    const config = loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      UPSTREAM_URL: base,
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_SPORTS: 'soccer_epl',
      UPSTREAM_INTERVAL_S: String(INTERVAL_S),
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    const ctx = createContext({ config, database: db.database, clock });
    const settings = config.upstream;
    if (settings === undefined) throw new Error('UPSTREAM_URL is set');
    // The jitter's factor at its lowest (½), so that each wait is known.
    feed = createUpstreamFeed({ settings, importer, leases: createLeasesRepository(db.database.db), clock, metrics: ctx.metrics.upstream, random: () => 0 });
    t = await harness({ dialect, context: { ...ctx, upstream: feed } });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
    await upstream.close();
  });
  afterEach(() => {
    importer.batches.length = 0;
  });

  const poll = () => feed.poll(t.app.log);

  it('asks for each sport’s odds and scores with the key, regions and markets, and hands the importer every row of the first answers', async () => {
    upstream.answer(ODDS, { status: 200, body: recorded('odds-soccer_epl.json'), headers: quota(480, 20) });
    upstream.answer(SCORES, { status: 200, body: recorded('scores-soccer_epl.json'), headers: quota(478, 22) });
    expect(await poll()).toBe(INTERVAL_S * 1000);
    const [odds, scores] = upstream.requests.slice(-2);
    expect(odds?.pathname).toBe(ODDS);
    expect(Object.fromEntries(odds?.searchParams ?? [])).toEqual({ apiKey: KEY, regions: 'uk,eu', markets: 'h2h,spreads,totals', oddsFormat: 'decimal', dateFormat: 'iso' });
    expect(Object.fromEntries(scores?.searchParams ?? [])).toEqual({ apiKey: KEY, daysFrom: '1', dateFormat: 'iso' });
    expect(importer.batches.map(({ batch, options }) => [batch.source, batch.rows.length, options])).toEqual([
      ['the-odds-api', 5, { skipInvalid: true }],
      ['the-odds-api', 4, { skipInvalid: true }],
    ]);
    const text = await scrape(t);
    expect(count(text, 'upstream_rows_imported_total')).toBe(9);
    expect(sample(text, 'upstream_requests_remaining')).toBe(478);
    expect(sample(text, 'upstream_requests_used')).toBe(22);
    expect(sample(text, 'upstream_last_success_timestamp_seconds')).toBe(clock.now() / 1000);
    expect(sample(text, 'upstream_lease_held')).toBe(1);
    const ready = await t.anonymous.get<{ status: string; upstream: unknown }>('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().upstream).toEqual({ state: 'polling', last_success: new Date(clock.now()).toISOString(), last_error: null, requests_remaining: 478, rows_imported: 9 });
  });

  it('hands over nothing when nothing changed, and only the event whose price moved', async () => {
    clock.advance(INTERVAL_S * 1000);
    await poll();
    expect(importer.batches).toEqual([]);
    const moved = JSON.parse(recorded('odds-soccer_epl.json')) as Array<{ bookmakers: Array<{ markets: Array<{ last_update: string; outcomes: Array<{ price: number }> }> }> }>;
    const market = moved[2]?.bookmakers[1]?.markets[0];
    if (market?.outcomes[0] === undefined) throw new Error('the sample has a third event with two bookmakers');
    market.outcomes[0].price = 1.3;
    market.last_update = '2024-12-20T09:16:02Z';
    upstream.answer(ODDS, { status: 200, body: JSON.stringify(moved), headers: quota(476, 24) });
    clock.advance(INTERVAL_S * 1000);
    await poll();
    expect(importer.batches.map(({ batch }) => batch.rows.map((r) => r.home))).toEqual([['Manchester City']]);
  });

  it('backs off with jitter on a 429 (at least its Retry-After), a 500 and a timeout, keeps going through a malformed body, and recovers', async () => {
    const interval = INTERVAL_S * 1000;
    upstream.answer(ODDS, { status: 429, body: '{"message":"Requests limit reached"}', headers: { 'retry-after': '150', ...quota(0, 500) } });
    expect(await poll()).toBe(150_000);
    upstream.answer(ODDS, { status: 500, body: 'Internal Server Error' });
    // The second failure in a row: 4 intervals, times the jitter's ½.
    expect(await poll()).toBe(2 * interval);
    upstream.answer(ODDS, 'hang');
    expect(await poll()).toBe(4 * interval);
    expect(feed.details()).toMatchObject({ state: 'failing', last_error: { kind: 'timeout' } });
    // A body that is not The Odds API's shape is counted and skipped; the scores still come in.
    upstream.answer(ODDS, { status: 200, body: '{"message":"not a list"}' });
    upstream.answer(SCORES, { status: 200, body: '[{"id": 1', headers: quota(470, 30) });
    expect(await poll()).toBe(interval);
    expect(importer.batches).toEqual([]);
    upstream.answer(ODDS, { status: 200, body: recorded('odds-soccer_epl.json'), headers: quota(469, 31) });
    upstream.answer(SCORES, { status: 200, body: recorded('scores-soccer_epl.json'), headers: quota(468, 32) });
    clock.advance(interval);
    expect(await poll()).toBe(interval);
    expect(feed.details().state).toBe('polling');
    const text = await scrape(t);
    for (const kind of ['rate-limited', 'server', 'timeout', 'malformed']) expect(count(text, 'upstream_errors_total', { kind })).toBeGreaterThanOrEqual(1);
    expect(count(text, 'upstream_errors_total', { kind: 'malformed' })).toBe(2);
    const ready = await t.anonymous.get('/readyz');
    expect(ready.statusCode).toBe(200);
  });

  it('lists the rows it left out and imports the others', async () => {
    const items = JSON.parse(recorded('odds-soccer_epl.json')) as Array<Record<string, unknown>>;
    const broken = { ...items[0], id: 'changed-event', commence_time: 'soon' };
    upstream.answer(ODDS, { status: 200, body: JSON.stringify([...items, broken, { ...items[1], id: 'another-event' }]) });
    clock.advance(INTERVAL_S * 1000);
    await poll();
    expect(importer.batches.map(({ batch }) => batch.rows.map((r) => r.eventKey))).toEqual([['another-event']]);
    expect(t.logs()).toContain('1 invalid item(s) left out, the first at item 6, commence_time');
  });

  it('puts the key in no log line, metric or readiness answer, whatever failed', async () => {
    const everything = t.logs() + (await scrape(t)) + (await t.anonymous.get('/readyz')).body;
    expect(everything).toContain('upstream feed: GET');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(0, 12));
  });

  it("keeps the key out of fetch's own error, which quotes the URL it could not use", async () => {
    const client = createUpstreamClient({ url: 'http://127.0.0.1:99999', apiKey: KEY, timeoutMs: TIMEOUT_MS });
    const answer = await client.get(ODDS, { regions: 'uk' });
    expect(answer).toMatchObject({ ok: false, kind: 'network' });
    expect(!answer.ok && answer.message).toContain('Failed to parse URL');
    expect(JSON.stringify(answer)).not.toContain(KEY);
  });

  it('redacts the key from any message about a request, encoded or not', () => {
    const client = createUpstreamClient({ url: base, apiKey: KEY, timeoutMs: TIMEOUT_MS });
    expect(client.redact(`Failed to parse URL from ${base}${ODDS}?apiKey=${KEY}&regions=uk`)).not.toContain(KEY);
    expect(client.redact(`bad request to ${encodeURIComponent(KEY).replace(/a/g, '%61')}`)).not.toMatch(/f3c9/);
  });

  it('as a background job: starts a round at once, and stopping waits for it and gives the lease up', async () => {
    upstream.answer(ODDS, { status: 200, body: '[]', headers: { 'x-requests-remaining': '12.5', 'x-requests-used': 'many' } });
    upstream.answer(SCORES, { status: 200, body: '[]' });
    const asked = upstream.requests.length;
    feed.start(t.app.log);
    await vi.waitFor(() => expect(upstream.requests.length).toBe(asked + 2));
    await feed.stop();
    // An unreadable quota is not shown: the last readable one stays.
    expect(feed.details().requests_remaining).toBe(468);
    expect(await createLeasesRepository(db.database.db).take('upstream:the-odds-api', 'another node', clock.now(), clock.now() + 1000)).toBe(true);
    await createLeasesRepository(db.database.db).release('upstream:the-odds-api', 'another node');
  });

  it('polls on one node at a time: another waits while the lease is held, and takes it once released or expired', async () => {
    const other = createUpstreamFeed({
      settings: { url: base, apiKey: KEY, sports: ['soccer_epl'], regions: 'uk', markets: 'h2h', intervalMs: INTERVAL_S * 1000, timeoutMs: TIMEOUT_MS },
      importer,
      leases: createLeasesRepository(db.database.db),
      clock,
      metrics: createContext({ config: t.config, database: db.database, clock }).metrics.upstream,
      random: () => 0,
    });
    await poll();
    const asked = upstream.requests.length;
    await other.poll(t.app.log);
    expect(other.details().state).toBe('standby');
    expect(upstream.requests.length).toBe(asked);
    await feed.release();
    await other.poll(t.app.log);
    expect(other.details().state).not.toBe('standby');
    expect(upstream.requests.length).toBe(asked + 2);
    // The first node's next round finds the lease taken; the second dies holding it, and the first takes it back once it expires.
    await poll();
    expect(feed.details().state).toBe('standby');
    clock.advance(10 * INTERVAL_S * 1000);
    await poll();
    expect(feed.details().state).not.toBe('standby');
  });
});
