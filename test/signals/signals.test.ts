import { describe, expect, it } from 'vitest';
import type { PerformanceStats } from '../../src/modules/signals/signals.performance.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { MOVED, moves, opening, results } from './fixture.js';

interface Signal {
  type: string;
  event_id: number;
  operator_id: number | null;
  position: string | null;
  price_decimal: number | null;
  fair_probability: number | null;
  edge: number | null;
  detected_at: string;
  ended_at: string | null;
  outcome: string | null;
  profit: number | null;
  closing_price: number | null;
  clv_pct: number | null;
  legs: Array<{ operator_id: number | null; price_decimal: number; stake: number }>;
}
interface Group extends PerformanceStats {
  id: number | null;
  key: string;
}
interface Performance {
  overall: PerformanceStats;
  by_type: Group[];
  by_sport: Group[];
  by_book: Group[];
  by_edge: Group[];
}

const RANGE = { start_date: '2031-02-27', end_date: '2031-03-01' };

/** The detector's record of a hand-built slate (test/signals/fixture.ts), graded, summed, and re-graded. */
describe.each(DIALECTS)('signals of a hand-built slate (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect });
    await t.import(opening());
    await t.ctx.signals.run();
    await t.import(moves());
    await t.ctx.signals.run();
    await t.import(results());
    await t.ctx.signals.run();
    return t;
  });
  const enterprise = async () => h.as({ apiKey: (await h.client({ tier: 'enterprise' })).apiKey });
  const list = async (body: Record<string, unknown> = {}) => (await enterprise()).page<Signal>('/v1/signals', { ...RANGE, ...body });
  const performance = async (body: Record<string, unknown> = {}) => (await enterprise()).ok<Performance>('/v1/signals/performance', { ...RANGE, ...body });

  it('records each value bet and the arbitrage once, at the instant of its move, with price, fair probability and edge', async () => {
    const page = await list({ page_size: 100 });
    expect(page.total_count).toBe(5);
    const shown = page.results.map((s) => [s.type, s.event_id, s.operator_id, s.position, s.price_decimal, s.fair_probability, s.edge]);
    expect(shown).toEqual(
      expect.arrayContaining([
        ['value', 200, 3, 'home', 2.1, 0.5, 0.05],
        ['value', 201, 3, 'away', 2.2, 0.5, 0.1],
        ['value', 202, 3, 'home', 2.06, 0.5, 0.03],
        ['value', 203, 3, 'home', 2.15, 0.5, 0.075],
        ['arbitrage', 203, null, null, null, null, 0.022561],
      ]),
    );
    expect(page.results.every((s) => s.detected_at === MOVED && s.ended_at === null)).toBe(true);
    const arbitrage = page.results.find((s) => s.type === 'arbitrage');
    expect(arbitrage?.legs.map((l) => [l.operator_id, l.price_decimal, l.stake])).toEqual([
      [1, 1.95, 0.52439],
      [3, 2.15, 0.47561],
    ]);
  });

  it('grades each with its selection and sets it against the close', async () => {
    const page = await list({ page_size: 100 });
    const graded = page.results.map((s) => [s.type, s.event_id, s.outcome, s.profit, s.closing_price, s.clv_pct]);
    expect(graded).toEqual(
      expect.arrayContaining([
        ['value', 200, 'won', 1.1, 2.1, 5],
        ['value', 201, 'lost', -1, 2.2, 10],
        ['value', 202, 'void', 0, null, null],
        ['value', 203, 'lost', -1, 2.15, 7.5],
        ['arbitrage', 203, 'won', 0.022561, null, 2.256098],
      ]),
    );
    expect((await list({ outcomes: ['won'] })).results.map((s) => s.event_id).sort()).toEqual([200, 203]);
    expect((await list({ types: ['arbitrage'] })).total_count).toBe(1);
    expect((await list({ operator_ids: [1] })).total_count).toBe(1);
  });

  it('sums them: counts, hit rate and its Wilson interval, ROI and its interval, mean CLV, by type, book and edge bucket', async () => {
    const { overall, by_type, by_book, by_edge, by_sport } = await performance();
    // Won 1.1 and 0.022561, lost −1 twice; the void is in no ROI and no hit rate, and has no CLV (never closed).
    expect(overall).toEqual({
      count: 5, won: 2, lost: 2, push: 0, void: 1, pending: 0,
      hit_rate: 0.5, hit_rate_interval: { low: 0.150036, high: 0.849964 },
      roi: -0.21936, roi_interval: { low: -1.202301, high: 0.763581 },
      mean_clv_pct: 6.189024, clv_count: 4,
    });
    expect(by_type.map((g) => [g.key, g.count, g.won, g.lost, g.void])).toEqual([
      ['value', 4, 1, 2, 1],
      ['arbitrage', 1, 1, 0, 0],
    ]);
    expect(by_sport.map((g) => [g.key, g.count])).toEqual([['basketball', 5]]);
    expect(by_book.map((g) => [g.key, g.count])).toEqual([
      ['northstar', 1],
      ['longshot', 5],
    ]);
    expect(by_edge.map((g) => [g.key, g.count, g.won, g.lost])).toEqual([
      ['2-5%', 2, 1, 0],
      ['5-10%', 2, 1, 1],
      ['10%+', 1, 0, 1],
    ]);
  });

  it('a re-grade updates the record: game 201 corrected to an away win wins its signal', async () => {
    await h.import(results({ home: 99, away: 104 }));
    await h.ctx.signals.run();
    const page = await list({ page_size: 100 });
    expect(page.results.find((s) => s.event_id === 201)).toMatchObject({ outcome: 'won', profit: 1.2 });
    const { overall } = await performance();
    expect(overall).toMatchObject({
      won: 3, lost: 1, hit_rate: 0.75, hit_rate_interval: { low: 0.300636, high: 0.954414 },
      roi: 0.33064, roi_interval: { low: -0.683587, high: 1.344868 },
    });
  });

  it('is for enterprise: pro and free get 403', async () => {
    for (const tier of ['free', 'pro'] as const) {
      const caller = h.as({ apiKey: (await h.client({ tier })).apiKey });
      expect((await caller.post('/v1/signals', {})).statusCode).toBe(403);
      expect((await caller.post('/v1/signals/performance', {})).statusCode).toBe(403);
    }
  });
});
