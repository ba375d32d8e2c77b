import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTicker, createTickerRepository, loadDemoData } from '../../src/modules/demo/index.js';
import { COMPETITION_IDS } from '../../src/modules/demo/generator/competitions.js';
import { createImportService } from '../../src/modules/import/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { createLeasesRepository } from '../../src/platform/db/leases.repository.js';
import { DIALECTS } from '../helpers/app.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';
import { drain, openStream, type SseEvent } from '../helpers/sse.js';

/**
 * The demo's competitions, loaded beside its matchups: on the board and in the history when
 * event_kinds asks for them (never in the default answers), graded with dead heats once played,
 * and moved by the demo ticker, each move on the odds stream.
 */

interface Competition {
  id: number;
  type: string;
  status: string;
  participants: number;
  name: string;
}

describe.each(DIALECTS)('the demo competitions (%s)', (dialect) => {
  let t: Harness;
  let client: Caller;
  let apiKey: string;
  let competitions: Competition[];
  const competition = (type: string, status: string) => competitions.find((c) => c.type === type && c.status === status);
  const kinds = { event_kinds: ['matchup', 'competition'] };

  beforeAll(async () => {
    t = await harness({ dialect, clock: manualClock(DEMO_NOW) });
    const upserted = await loadDemoData(t.ctx, { scale: 0.05, competitions: true });
    expect(upserted).toMatchObject({ competitions: 61 });
    ({ apiKey } = await t.client());
    client = t.as({ apiKey });
    competitions = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const answer = await client.page<Competition>(`/v1/competitions?page=${page}&page_size=100`);
      competitions.push(...answer.results);
      pages = answer.total_pages;
    }
  }, 180_000);
  afterAll(async () => t.close());

  it('holds a golf tournament of 150 players and a 20-driver race, played last week and coming up, and two futures markets a league', () => {
    expect(competition('tournament', 'final')).toMatchObject({ participants: 150 });
    expect(competition('tournament', 'scheduled')).toMatchObject({ participants: 150 });
    expect(competition('race', 'final')).toMatchObject({ participants: 20 });
    expect(competition('race', 'scheduled')).toMatchObject({ participants: 20 });
    const futures = competitions.filter((c) => c.type === 'futures');
    // A season winner for each of the 30 leagues, a top scorer for the 27 that are not tennis tours.
    expect(futures.filter((c) => c.name.endsWith('winner'))).toHaveLength(30);
    expect(futures.filter((c) => c.name.endsWith('top scorer'))).toHaveLength(27);
  });

  it('prices every winner market with an overround of 15 to 40 %', async () => {
    const rows = await t.database.db
      .selectFrom('odds')
      .innerJoin('betting_markets', 'betting_markets.id', 'odds.betting_market_id')
      .select(['odds.event_id', 'odds.operator_id', 'odds.price_decimal'])
      .where('betting_markets.key', 'in', ['outright-winner', 'season-winner', 'top-scorer'])
      .execute();
    const books = new Map<string, number>();
    for (const row of rows) books.set(`${row.event_id}:${row.operator_id}`, (books.get(`${row.event_id}:${row.operator_id}`) ?? 0) + 1 / Number(row.price_decimal));
    expect(books.size).toBeGreaterThan(250);
    for (const [book, implied] of books) {
      expect(implied, book).toBeGreaterThanOrEqual(1.15);
      expect(implied, book).toBeLessThanOrEqual(1.4);
    }
  });

  it('shows a competition on the board only when event_kinds asks for it', async () => {
    const golf = competition('tournament', 'scheduled');
    expect((await client.ok<{ total_count: number }>('/v1/odds/board', { event_ids: [golf?.id] })).total_count).toBe(0);
    const board = await client.page<{ event_id: number }>('/v1/odds/board', { event_ids: [golf?.id], page_size: 100, ...kinds });
    // Every player priced to win, to finish in the top 5, 10 and 20, and the matchups.
    expect(board.total_count).toBeGreaterThanOrEqual(4 * 150);
    expect(new Set(board.results.map((r) => r.event_id))).toEqual(new Set([golf?.id]));
    const matchups = await client.page<{ event_id: number }>('/v1/odds/board', { page_size: 100 });
    expect(matchups.results.every((r) => r.event_id < COMPETITION_IDS)).toBe(true);
  });

  it('grades the played tournament from its results: ties as dead heats, a withdrawal, a non-starter', async () => {
    const golf = competition('tournament', 'final');
    const url = `/v1/competitions/${golf?.id}/participants?page_size=100`;
    type Result = { result: { status: string; position: number | null; tied: boolean } | null };
    const pages = [await client.page<Result>(`${url}&page=1`), await client.page<Result>(`${url}&page=2`)];
    const results = pages.flatMap((page) => page.results.map((p) => p.result));
    expect(results).toHaveLength(150);
    expect(results.some((r) => r?.tied === true)).toBe(true);
    expect(results.some((r) => r?.status === 'non_starter')).toBe(true);
    expect(results.some((r) => r?.status === 'withdrawn')).toBe(true);
    const graded = await client.ok<{ grades: Array<{ outcome: string | null }> }>('/v1/results/by-event', { event_id: golf?.id, ...kinds });
    const outcomes = new Set(graded.grades.map((g) => g.outcome));
    for (const outcome of ['won', 'lost', 'void', 'dead_heat']) expect(outcomes).toContain(outcome);
  });

  it('keeps a price history of a competition, answered when asked', async () => {
    const race = competition('race', 'scheduled');
    expect((await client.post('/v1/odds/history-by-event', { event_id: race?.id })).statusCode).toBe(404);
    const history = await client.page<{ price_decimal: { from: number | null } }>('/v1/odds/history-by-event', { event_id: race?.id, page_size: 100, ...kinds });
    expect(history.total_count).toBeGreaterThan(20 * 6);
  });

  it('moves competition prices with the demo ticker, each move in the history, and on the streams and the change cursor that ask for competitions', async () => {
    const { database, changes, recentChanges } = t.ctx;
    const ticker = createDemoTicker({
      importer: createImportService({ database, clock: t.clock, changes, recent: recentChanges }),
      repository: createTickerRepository(database.db),
      leases: createLeasesRepository(database.db),
      clock: t.clock,
      perSecond: 5,
      seed: 7,
    });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { 'x-api-key': apiKey };
    const matchupsOnly = await openStream(`${url}/v1/stream/odds`, headers);
    const both = await openStream(`${url}/v1/stream/odds?event_kinds=matchup,competition`, headers);
    const outright = (id: number) => id > COMPETITION_IDS;
    const moved: number[] = [];
    const all: number[] = [];
    for (let i = 0; i < 20 && moved.length === 0; i++) {
      t.clock.advance(1000);
      const { prices } = await ticker.tick();
      all.push(...prices.map((p) => p.odds_id));
      moved.push(...prices.map((p) => p.odds_id).filter(outright));
    }
    await ticker.release();
    expect(moved.length).toBeGreaterThan(0);
    const row = await t.database.db.selectFrom('odds').select(['event_id']).where('id', '=', moved[0] ?? 0).executeTakeFirstOrThrow();
    const history = await client.page<{ odds_id: number }>('/v1/odds/history-by-event', { event_id: Number(row.event_id), page_size: 100, since: new Date(t.clock.now()).toISOString(), ...kinds });
    expect(history.results.map((h) => h.odds_id).sort()).toEqual([...moved].sort());
    const idsOf = (events: SseEvent[]) => events.map((e) => (JSON.parse(e.data) as { odds_id: number }).odds_id);
    const streamed: SseEvent[] = [];
    try {
      while (streamed.length < all.length) streamed.push(await both.next(5_000));
      expect(idsOf(streamed).sort()).toEqual([...all].sort());
      // By default a stream carries the matchups' changes alone, as before competitions existed.
      const matchups = await drain(matchupsOnly, 500);
      expect(idsOf(matchups).sort()).toEqual(all.filter((id) => !outright(id)).sort());
      // The change cursor reads as the stream replays.
      const after = Math.min(...streamed.map((e) => Number(e.id))) - 1;
      const changed = async (query: string) => (await client.ok<{ results: Array<{ odds_id: number }> }>(`/v1/odds/changes?after=${after}&limit=100${query}`)).results.map((c) => c.odds_id).sort();
      expect(await changed('')).toEqual(all.filter((id) => !outright(id)).sort());
      expect(await changed('&event_kinds=matchup,competition')).toEqual([...all].sort());
    } finally {
      both.close();
      matchupsOnly.close();
    }
  });
});
