import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import type { UpstreamFeed } from '../../src/modules/sources/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS, openTestDatabase, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestDatabase } from '../helpers/app.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';
import { count, sample, scrape } from '../helpers/metrics.js';
import { fakeUpstream, ODDS, quota, SCORES } from './fake-upstream.js';
import { type OddsApiEvent, type OddsApiScore, recorded } from './the-odds-api-expected.js';
import { entityOf } from './the-odds-api-proof.js';

/**
 * The upstream feed as the app wires it (UPSTREAM_URL in the config, the sources' importer behind
 * it) against a local server answering in The Odds API v4's shape: the recorded answers, then a
 * 429, a 500, a timeout and a malformed body. What it imports is read through the public API;
 * rounds are run by the feed's own `poll`, on a manual clock. Every line the run logs is kept, and
 * none holds the key, though the upstream's refusals quote it.
 */

const KEY = '7d41c0e9b2a84f6e9c35d18a0b6f2e47';
const INTERVAL_MS = 60_000;
const ODDS_ANSWER = JSON.parse(recorded('odds-soccer_epl.json')) as OddsApiEvent[];
const SCORES_ANSWER = JSON.parse(recorded('scores-soccer_epl.json')) as OddsApiScore[];

interface Change {
  changed_at: string;
  position: string;
  price_decimal: { from: number | null; to: number };
}

describe.each(DIALECTS)('the upstream feed with the real importer (%s)', (dialect) => {
  const upstream = fakeUpstream();
  const clock = manualClock(Date.parse('2024-12-20T09:15:00Z'));
  const written: string[] = [];
  const writes = [process.stdout, process.stderr].map((stream) => ({ stream, write: stream.write.bind(stream) }));
  let db: TestDatabase;
  let ctx: AppContext;
  let t: Harness;
  let feed: UpstreamFeed;
  let api: Caller;

  beforeAll(async () => {
    // Everything the process writes, besides the app's own log stream.
    for (const { stream, write } of writes) {
      stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return write(chunk, ...rest);
      }) as typeof stream.write;
    }
    const base = await upstream.listen();
    db = await openTestDatabase(dialect);
    const config = loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'trace',
      UPSTREAM_URL: base,
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_SPORTS: 'soccer_epl',
      UPSTREAM_INTERVAL_S: String(INTERVAL_MS / 1000),
      UPSTREAM_TIMEOUT_MS: '300',
    });
    ctx = createContext({ config, database: db.database, clock });
    if (ctx.upstream === undefined) throw new Error('UPSTREAM_URL is set: the context has its feed');
    feed = ctx.upstream;
    t = await harness({ dialect, context: ctx });
    api = t.as({ apiKey: (await t.client()).apiKey });
  });
  afterAll(async () => {
    for (const { stream, write } of writes) stream.write = write as typeof stream.write;
    await feed.release();
    await t.close();
    await db.close();
    await upstream.close();
  });

  const poll = () => feed.poll(t.app.log);
  /** The events of the answers' two days, as a client lists them before they start. */
  const events = async () => {
    const days = await Promise.all(['2024-12-21', '2024-12-22'].map((day) => api.page('/v1/events/upcoming-events', { event_date: day, page_size: 100 })));
    return days.flatMap((d) => d.results);
  };
  const historyOf = async (eventKey: string) => (await api.page<Change>('/v1/odds/history-by-event', { event_id: await entityOf(t.admin, 'event', eventKey), page_size: 100 })).results;
  const historyRows = async () => Number((await db.database.db.selectFrom('odds_history').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('imports the first answers: the events, prices and results appear through the public API; /metrics and /readyz say so', async () => {
    upstream.answer(ODDS, { status: 200, body: recorded('odds-soccer_epl.json'), headers: quota(480, 20) });
    upstream.answer(SCORES, { status: 200, body: recorded('scores-soccer_epl.json'), headers: quota(478, 22) });
    expect(await poll()).toBe(INTERVAL_MS);
    expect(await events()).toHaveLength(ODDS_ANSWER.length);
    const prices = ODDS_ANSWER.flatMap((e) => e.bookmakers.flatMap((b) => b.markets.flatMap((m) => m.outcomes)));
    expect(await historyRows()).toBe(prices.length);
    for (const item of SCORES_ANSWER.filter((s) => s.completed)) {
      const results = await api.ok<{ status: string; home_score: number; away_score: number; grades: Array<{ outcome: string | null }> }>('/v1/results/by-event', { event_id: await entityOf(t.admin, 'event', item.id) });
      const score = (team: string) => Number(item.scores?.find((s) => s.name === team)?.score);
      expect([results.status, results.home_score, results.away_score]).toEqual(['final', score(item.home_team), score(item.away_team)]);
      expect(results.grades.length).toBeGreaterThan(0);
      expect(results.grades.every((g) => g.outcome !== null)).toBe(true);
    }
    const text = await scrape(t);
    expect(count(text, 'upstream_rows_imported_total')).toBe(ODDS_ANSWER.length + SCORES_ANSWER.length);
    expect(sample(text, 'upstream_requests_remaining')).toBe(478);
    const ready = await t.anonymous.get<{ upstream: unknown }>('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().upstream).toEqual({ state: 'polling', last_success: new Date(clock.now()).toISOString(), last_error: null, requests_remaining: 478, rows_imported: ODDS_ANSWER.length + SCORES_ANSWER.length });
  });

  it('imports nothing when nothing changed, and one history row for a moved price, stamped by its last_update', async () => {
    const before = await historyRows();
    clock.advance(INTERVAL_MS);
    await poll();
    expect(await historyRows()).toBe(before);
    const moved = JSON.parse(recorded('odds-soccer_epl.json')) as OddsApiEvent[];
    const event = moved[2];
    const market = event?.bookmakers[1]?.markets[0];
    const outcome = market?.outcomes[0];
    if (event === undefined || market === undefined || outcome === undefined) throw new Error('the sample has a third event with two bookmakers');
    outcome.price = 1.3;
    market.last_update = '2024-12-20T09:16:02Z';
    upstream.answer(ODDS, { status: 200, body: JSON.stringify(moved), headers: quota(476, 24) });
    clock.advance(INTERVAL_MS);
    expect(await poll()).toBe(INTERVAL_MS);
    expect(await historyRows()).toBe(before + 1);
    const last = (await historyOf(event.id)).at(-1);
    expect(last).toMatchObject({ changed_at: '2024-12-20T09:16:02.000Z', price_decimal: { to: 1.3 } });
    expect(await events()).toHaveLength(ODDS_ANSWER.length);
  });

  it('backs off on a 429 (at least its Retry-After), a 500 and a timeout, keeps going through a malformed body, and recovers', async () => {
    const before = await historyRows();
    // The refusals quote the key, as an upstream echoing its request might.
    upstream.answer(ODDS, { status: 429, body: `{"message":"Requests limit reached for ${KEY}"}`, headers: { 'retry-after': '150', ...quota(0, 500) } });
    expect(await poll()).toBeGreaterThanOrEqual(150_000);
    expect(feed.details()).toMatchObject({ state: 'failing', last_error: { kind: 'rate-limited' } });
    upstream.answer(ODDS, { status: 500, body: `Internal Server Error at /v4/sports/soccer_epl/odds?apiKey=${KEY}` });
    const second = await poll();
    expect(second).toBeGreaterThanOrEqual(2 * INTERVAL_MS);
    expect(second).toBeLessThan(4 * INTERVAL_MS);
    upstream.answer(ODDS, 'hang');
    const third = await poll();
    expect(third).toBeGreaterThanOrEqual(4 * INTERVAL_MS);
    expect(third).toBeLessThan(8 * INTERVAL_MS);
    expect(feed.details()).toMatchObject({ state: 'failing', last_error: { kind: 'timeout' } });
    let ready = await t.anonymous.get<{ upstream: { state: string } }>('/readyz');
    expect([ready.statusCode, ready.json().upstream.state]).toEqual([200, 'failing']);
    upstream.answer(ODDS, { status: 200, body: `{"message":"not a list","key":"${KEY}"}` });
    upstream.answer(SCORES, { status: 200, body: '[{"id": 1', headers: quota(470, 30) });
    expect(await poll()).toBe(INTERVAL_MS);
    expect(await historyRows()).toBe(before);

    upstream.answer(ODDS, { status: 200, body: recorded('odds-soccer_epl.json'), headers: quota(469, 31) });
    upstream.answer(SCORES, { status: 200, body: recorded('scores-soccer_epl.json'), headers: quota(468, 32) });
    clock.advance(INTERVAL_MS);
    expect(await poll()).toBe(INTERVAL_MS);
    expect(feed.details().state).toBe('polling');
    // The moved price came back to the recorded one, at its earlier last_update: before what is stored, so not applied.
    expect(await historyRows()).toBe(before);
    expect(await events()).toHaveLength(ODDS_ANSWER.length);
    const text = await scrape(t);
    for (const kind of ['rate-limited', 'server', 'timeout']) expect(count(text, 'upstream_errors_total', { kind })).toBe(1);
    expect(count(text, 'upstream_errors_total', { kind: 'malformed' })).toBe(2);
    expect(sample(text, 'upstream_requests_remaining')).toBe(468);
    ready = await t.anonymous.get<{ upstream: { state: string } }>('/readyz');
    expect([ready.statusCode, ready.json().upstream.state]).toEqual([200, 'polling']);
  });

  it('puts the key in no line the run logged or wrote, nor in /metrics or /readyz', async () => {
    const everything = t.logs() + written.join('') + (await scrape(t)) + (await t.anonymous.get('/readyz')).body;
    expect(t.logs()).toContain('upstream feed: GET');
    for (const shown of [KEY, KEY.slice(0, 12), encodeURIComponent(KEY)]) expect(everything).not.toContain(shown);
  });
});
