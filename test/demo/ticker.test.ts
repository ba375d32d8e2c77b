import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { createDemoTicker, createTickerRepository, type DemoTicker } from '../../src/modules/demo/index.js';
import { quotesOf } from '../../src/modules/demo/ticker/ticker.moves.js';
import type { AppContext } from '../../src/context.js';
import { createImportService } from '../../src/modules/import/index.js';
import { type Clock, manualClock } from '../../src/platform/clock.js';
import { createLeasesRepository } from '../../src/platform/db/leases.repository.js';
import type { OddsTable } from '../../src/platform/db/schema.js';
import { DAY_MS } from '../../src/platform/time.js';
import { DIALECTS, TEST_JWT_SECRET } from '../helpers/app.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import { type Harness, harness } from '../helpers/harness.js';
import { openStream, type SseEvent } from '../helpers/sse.js';
import { historyDataset } from '../history/fixture.js';

/**
 * The demo ticker on the demo's data, each tick triggered here on a pinned clock: it moves the
 * prices of the demo's events near now, and only those, through the import (history, stream,
 * grading); it moves the games that have started on to their end; one node ticks at a time.
 */

type OddsRow = Pick<OddsTable, 'id' | 'event_id' | 'operator_id' | 'betting_market_id' | 'position' | 'line' | 'player_id' | 'event_period_id' | 'price_decimal' | 'status'>;

/** A ticker as the serving context builds one (the import route's service, this node's held changes), on `ctx`'s database. */
function tickerFor(ctx: AppContext, clock: Clock, perSecond: number, seed: number): DemoTicker {
  const { database, changes, recentChanges } = ctx;
  return createDemoTicker({
    importer: createImportService({ database, clock, changes, recent: recentChanges }),
    repository: createTickerRepository(database.db),
    leases: createLeasesRepository(database.db),
    clock,
    perSecond,
    seed,
  });
}

describe.each(DIALECTS)('the demo ticker (%s)', (dialect) => {
  let t: Harness;
  let apiKey: string;
  let seed = 1;

  const tickerOn = (ctx: AppContext, perSecond = 5): DemoTicker => tickerFor(ctx, t.clock, perSecond, seed++);

  const oddsRows = async (): Promise<Map<number, OddsRow>> => {
    const rows = await t.database.db
      .selectFrom('odds')
      .select(['id', 'event_id', 'operator_id', 'betting_market_id', 'position', 'line', 'player_id', 'event_period_id', 'price_decimal', 'status'])
      .orderBy('id')
      .execute();
    return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), event_id: Number(r.event_id), price_decimal: Number(r.price_decimal), line: r.line === null ? null : Number(r.line) }]));
  };
  const events = async () => {
    const rows = await t.database.db.selectFrom('events').select(['id', 'start_time', 'status', 'home_score', 'away_score']).execute();
    return new Map(rows.map((r) => [Number(r.id), { start: Number(r.start_time), status: r.status, home: r.home_score, away: r.away_score }]));
  };
  const historyCount = async () => Number((await t.database.db.selectFrom('odds_history').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);

  beforeAll(async () => {
    t = await demoHarness({ dialect, now: DEMO_NOW, scale: 0.05 });
    ({ apiKey } = await t.client());
  }, 120_000);
  afterAll(async () => t.close());

  it('moves prices of the demo events starting within a day of now, and no others, through the import: history rows, the stream', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(`${url}/v1/stream/odds`, { 'x-api-key': apiKey });
    const before = await oddsRows();
    const historyBefore = await historyCount();
    const ticker = tickerOn(t.ctx);
    t.clock.advance(1000);
    const { held, prices } = await ticker.tick();
    await ticker.release();
    expect(held).toBe(true);
    expect(prices.length).toBeGreaterThanOrEqual(5);

    const after = await oddsRows();
    const changed = [...after.values()].filter((row) => {
      const old = before.get(row.id);
      return old === undefined || old.price_decimal !== row.price_decimal || old.status !== row.status;
    });
    expect(changed.map((r) => r.id).sort((a, b) => a - b)).toEqual(prices.map((p) => p.odds_id).sort((a, b) => a - b));
    const byEvent = await events();
    for (const row of changed) {
      const event = byEvent.get(row.event_id);
      expect(Math.abs((event?.start ?? 0) - t.clock.now()), `event ${row.event_id}`).toBeLessThanOrEqual(DAY_MS);
      expect(['scheduled', 'live']).toContain(event?.status);
      expect(row.operator_id).toBeLessThanOrEqual(8);
    }
    expect(await historyCount()).toBe(historyBefore + prices.length);

    // The history lists each change at the import's time, and the stream sends each one.
    const first = changed[0];
    const listed = await t.as({ apiKey }).ok<{ results: Array<{ odds_id: number; changed_at: string }> }>('/v1/odds/history-by-event', { event_id: first?.event_id, page_size: 100 });
    expect(listed.results).toContainEqual(expect.objectContaining({ odds_id: first?.id, changed_at: new Date(t.clock.now()).toISOString() }));
    const streamed: SseEvent[] = [];
    try {
      while (streamed.length < prices.length) streamed.push(await stream.next(5_000));
    } finally {
      stream.close();
    }
    expect(streamed.every((e) => e.event === 'odds')).toBe(true);
    expect(streamed.map((e) => (JSON.parse(e.data) as { odds_id: number }).odds_id).sort((a, b) => a - b)).toEqual(prices.map((p) => p.odds_id).sort((a, b) => a - b));
  });

  it('keeps prices sane over many ticks: every price above 1.01, now and then a market suspended, every quote of two or more sides with a plausible overround', async () => {
    const ticker = tickerOn(t.ctx);
    const moved = new Set<number>();
    const statuses = new Set<string>();
    for (let i = 0; i < 60; i++) {
      t.clock.advance(1000);
      const { prices } = await ticker.tick();
      for (const p of prices) moved.add(p.odds_id);
      for (const p of prices) statuses.add(p.status);
    }
    await ticker.release();
    // Now and then a book suspends a market, and reopens it.
    expect([...statuses].sort()).toEqual(['open', 'suspended']);
    const after = await oddsRows();
    const rows = [...after.values()];
    for (const id of moved) expect(after.get(id)?.price_decimal, `odds ${id}`).toBeGreaterThan(1.01);
    const touched = quotesOf(
      rows.map((r) => ({ id: r.id, eventId: r.event_id, operatorId: r.operator_id, marketId: r.betting_market_id, position: r.position, line: r.line, playerId: r.player_id, periodId: r.event_period_id, price: r.price_decimal, status: r.status })),
    ).filter((quote) => quote.length >= 2 && quote.some((p) => moved.has(p.id)));
    expect(touched.length).toBeGreaterThan(20);
    for (const quote of touched) {
      const overround = quote.reduce((sum, p) => sum + 1 / p.price, 0);
      expect(overround, `quote of odds ${quote.map((p) => p.id).join(',')}`).toBeGreaterThan(1);
      expect(overround).toBeLessThan(1.3);
    }
  });

  it('one node ticks at a time: the lease holder; the other takes over once it is released or expires', async () => {
    const here = tickerOn(t.ctx);
    const other = tickerOn(t.otherNode());
    t.clock.advance(1000);
    expect((await here.tick()).held).toBe(true);
    const historyBefore = await historyCount();
    expect(await other.tick()).toEqual({ held: false, prices: [], events: [] });
    expect(await historyCount()).toBe(historyBefore);
    await here.release();
    expect((await other.tick()).held).toBe(true);
    expect((await here.tick()).held).toBe(false);
    // The holder stops ticking (a node that died): after the lease's 10 s another node takes it.
    t.clock.advance(10_001);
    expect((await here.tick()).held).toBe(true);
    await here.release();
  });

  it('0 moves nothing: no ticker is built, and one made with 0 does nothing', async () => {
    const base = { DATABASE_URL: 'sqlite::memory:', JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent' };
    const built = (env: Record<string, string>) => createContext({ config: loadConfig({ ...base, ...env }), database: t.database }).demoTicker;
    expect(built({ DEMO_TICKER_PER_SECOND: '0' })).toBeUndefined();
    expect(built({ DEMO_DATA: 'false' })).toBeUndefined();
    expect(built({})).toBeDefined();
    expect(loadConfig(base).demoTickerPerSecond).toBe(5);
    const historyBefore = await historyCount();
    t.clock.advance(1000);
    expect(await tickerOn(t.ctx, 0).tick()).toEqual({ held: false, prices: [], events: [] });
    expect(await historyCount()).toBe(historyBefore);
  });

  it('a game that starts goes live, and ends final with a score, then is graded', async () => {
    const ticker = tickerOn(t.ctx);
    const now = t.clock.now();
    const next = [...(await events()).entries()].filter(([, e]) => e.status === 'scheduled' && e.start > now && e.start < now + DAY_MS / 2).sort((a, b) => a[1].start - b[1].start)[0];
    expect(next).toBeDefined();
    const [id, { start }] = next ?? [0, { start: 0 }];
    t.clock.set(start + 60_000);
    expect((await ticker.tick()).events).toContainEqual(expect.objectContaining({ id, status: 'live' }));
    expect((await events()).get(id)?.status).toBe('live');
    // Past any sport's length (American football's is the longest, 195 minutes).
    t.clock.set(start + 4 * 3_600_000);
    const ended = (await ticker.tick()).events.find((e) => e.id === id);
    await ticker.release();
    expect(ended?.status).toBe('final');
    const stored = (await events()).get(id);
    expect(stored).toMatchObject({ status: 'final', home: ended?.home_score, away: ended?.away_score });
    const grades = await t.database.db.selectFrom('odds_grades').select(['outcome']).where('event_id', '=', id).execute();
    expect(grades.length).toBeGreaterThan(0);
    expect(grades.some((g) => g.outcome === 'won')).toBe(true);
  });
});

describe.each(DIALECTS)('the demo ticker on data that is not the demo\'s (%s)', (dialect) => {
  it('moves nothing, though two of its books have a demo book\'s id and key', async () => {
    const t = await harness({ dialect, clock: manualClock(DEMO_NOW) });
    try {
      await t.import(historyDataset(DEMO_NOW));
      const before = await t.database.db.selectFrom('odds').select(['id', 'price_decimal', 'status']).orderBy('id').execute();
      const ticker = tickerFor(t.ctx, t.clock, 50, 1);
      t.clock.advance(1000);
      expect(await ticker.tick()).toEqual({ held: true, prices: [], events: [] });
      expect(await t.database.db.selectFrom('odds').select(['id', 'price_decimal', 'status']).orderBy('id').execute()).toEqual(before);
      await ticker.release();
    } finally {
      await t.close();
    }
  });
});
