import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import { MAX_PRICE_DECIMAL, ODDS_FORMATS } from '../../src/shared/odds-format.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { ROOT } from '../helpers/process.js';
import { expectError } from '../helpers/responses.js';
import { smallDataset } from '../import/fixture.js';

const EVENT = 130;
/** The smallest price above 1 a double holds: the other end of the accepted range. */
const LEAST = 1 + Number.EPSILON;
/** Before the start: the prices' close. */
const OPENED = '2030-01-01T00:00:00Z';

interface Item {
  prices: Array<{ price: unknown; price_decimal: number }>;
  best: { price: unknown };
  consensus: { price: unknown };
}

/** A moneyline at the two ends of the range: book 1 at the maximum on home, book 2 at the least price on away. */
function dataset() {
  const d = smallDataset();
  d.events.push({ id: EVENT, league_id: 10, start_time: '2030-01-09T00:30:00Z', home_team_id: 1000, away_team_id: 1001 });
  d.odds.push(
    { id: 70, event_id: EVENT, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: MAX_PRICE_DECIMAL, updated_at: OPENED },
    { id: 71, event_id: EVENT, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 1.0001, updated_at: OPENED },
    { id: 72, event_id: EVENT, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 500, updated_at: OPENED },
    { id: 73, event_id: EVENT, operator_id: 2, betting_market_id: 1, position: 'away', price_decimal: LEAST, updated_at: OPENED },
  );
  return d;
}

describe.each(DIALECTS)('the maximum price (%s)', (dialect) => {
  // After every event's start, so that closing-line value has closing prices to value against.
  const h = forSuite(() => reader({ dialect, dataset: dataset(), clock: manualClock(Date.parse('2031-01-01T00:00:00Z')) }));
  const odds = (price_decimal: number) => ({ id: 79, event_id: EVENT, operator_id: 2, betting_market_id: 2, position: 'over', line: 200.5, price_decimal });

  it('an import above the maximum is a 422 naming the price, and writes nothing', async () => {
    for (const price of [MAX_PRICE_DECIMAL + 0.01, 1e308]) {
      expectError(await h.t.admin.post('/admin/v1/import', { odds: [odds(price)] }), 422, 'VALIDATION_ERROR', 'odds[0].price_decimal');
    }
    const flow = { ...smallDataset().flows[0], id: 90, price_decimal: 1e308 };
    expectError(await h.t.admin.post('/admin/v1/import', { flows: [flow] }), 422, 'VALIDATION_ERROR', 'flows[0].price_decimal');
    const stored = await h.t.ctx.database.db.selectFrom('odds').select('id').where('id', '=', 79).execute();
    expect(stored).toEqual([]);
  });

  it('the board in every format over the accepted range: American an integer, no price null', async () => {
    for (const odds_format of ODDS_FORMATS) {
      const items = (await h.page<Item>('/v1/odds/board', { event_ids: [EVENT], odds_format, devig: 'shin' })).results;
      expect(items).toHaveLength(2);
      const prices = items.flatMap((i) => [...i.prices.map((p) => p.price), i.best.price, i.consensus.price]);
      for (const price of prices) {
        expect(price, odds_format).not.toBeNull();
        if (odds_format === 'american') expect(Number.isInteger(price), `${String(price)}`).toBe(true);
      }
    }
    const [home] = (await h.page<Item>('/v1/odds/board', { event_ids: [EVENT], odds_format: 'american' })).results.filter((i) => i.prices.some((p) => p.price_decimal === MAX_PRICE_DECIMAL));
    expect(home?.best.price).toBe((MAX_PRICE_DECIMAL - 1) * 100);
  });

  it('edges in American odds at both ends of the range answer 200, with integers', async () => {
    const res = await h.post('/v1/odds/edges', { event_ids: [EVENT], odds_format: 'american', min_edge: -100 });
    expect(res.statusCode, res.body).toBe(200);
    const edges = res.json<{ value_bets: Array<{ price: unknown }>; arbitrages: Array<{ legs: Array<{ price: unknown }> }> }>();
    expect(edges.value_bets.length).toBeGreaterThan(0);
    for (const price of [...edges.value_bets.map((b) => b.price), ...edges.arbitrages.flatMap((a) => a.legs.map((l) => l.price))]) expect(Number.isInteger(price)).toBe(true);
  });

  it('closing-line value of a price above the maximum is a 422, at it a 200', async () => {
    const pro = h.t.as(await h.t.client({ tier: 'pro' }));
    const { selection_id } = await h.t.ctx.database.db.selectFrom('odds').select('selection_id').where('id', '=', 70).executeTakeFirstOrThrow();
    const clv = (price: number) => pro.post('/v1/results/clv', { prices: [{ event_betting_market_position_id: Number(selection_id), operator_id: 1, price }] });
    expectError(await clv(1e301), 422, 'VALIDATION_ERROR', 'prices[0].price');
    const at = await clv(MAX_PRICE_DECIMAL);
    expect(at.statusCode, at.body).toBe(200);
    expect(at.json<{ results: Array<{ clv_pct: number | null }> }>().results[0]?.clv_pct).toEqual(expect.any(Number));
  });

  it('the maximum is documented where prices are', () => {
    const figure = MAX_PRICE_DECIMAL.toLocaleString('en-US');
    for (const doc of ['docs/api.md', 'docs/data.md']) expect(readFileSync(join(ROOT, doc), 'utf8'), doc).toContain(figure);
  });
});
