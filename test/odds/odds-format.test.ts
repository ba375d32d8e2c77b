import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ODDS_FORMATS, priceIn } from '../../src/shared/odds-format.js';
import { DIALECTS } from '../helpers/app.js';
import { ODDS } from '../fixtures/events-flows.js';
import { type DataHarness, setupData } from '../events/harness.js';
import { expectError } from '../helpers/responses.js';

const URL = '/v1/odds/upcoming-odds-by-event';

interface PricedItem {
  id: number;
  price: unknown;
  price_decimal: number;
}

/**
 * `odds_format` gives each odds item's `price` in that format, beside
 * `price_decimal`; without it `price` stays the v1 object (decision 0111). Pages are cached per
 * format, items once.
 */
describe.each(DIALECTS)('odds in the format asked (%s)', (dialect) => {
  let h: DataHarness;
  const priced = async (body: Record<string, unknown>) => (await h.page<PricedItem>(URL, { event_id: 5001, page_size: 100, ...body })).results;
  const fixturePrice = (id: number) => ODDS.find((o) => o.id === id)?.price_decimal;

  beforeAll(async () => {
    h = await setupData(dialect);
  });
  afterAll(async () => h.t.close());

  it.each(ODDS_FORMATS)('odds_format %s: price in that format, price_decimal as stored', async (format) => {
    const items = await priced({ odds_format: format });
    expect(items).toHaveLength(47);
    for (const item of items) {
      expect(item.price_decimal).toBe(fixturePrice(item.id));
      expect(item.price).toEqual(priceIn(format, item.price_decimal));
    }
    const types = new Set(items.map((item) => typeof item.price));
    expect(types).toEqual(new Set([format === 'fractional' ? 'string' : 'number']));
  });

  it('the fixture prices in every format: 2.0 ↔ 100 ↔ 1/1 ↔ 0.5, 1.8 ↔ −125 ↔ 4/5', async () => {
    const first = async (format: string, id: number) => (await priced({ odds_format: format })).find((item) => item.id === id)?.price;
    // Odds 7004 is priced 2.0 and 7005 1.8 (the fixture cycles through PRICES).
    expect([await first('decimal', 7004), await first('american', 7004), await first('fractional', 7004), await first('implied_probability', 7004)]).toEqual([2, 100, '1/1', 0.5]);
    expect([await first('american', 7005), await first('fractional', 7005), await first('implied_probability', 7005)]).toEqual([-125, '4/5', 0.5556]);
    // Odditt's names: the payout multiplier is the decimal price, percent the implied probability × 100.
    expect([await first('multiplier', 7005), await first('percent', 7005), await first('percent', 7004)]).toEqual([1.8, 55.56, 50]);
  });

  it('without odds_format, price is the v1 object and price_decimal is there too', async () => {
    const [item] = await priced({ page_size: 1 });
    expect(item).toMatchObject({ price: { american: -110, decimal: 1.91, implied_probability: 0.5236 }, price_decimal: 1.91 });
  });

  it('each format is its own page: asked in turn, each answers in its format (the cache keys carry it)', async () => {
    const bodies = new Map<string, string>();
    for (const format of [...ODDS_FORMATS, undefined, ...ODDS_FORMATS]) {
      const res = await h.post(URL, { event_id: 5001, page_size: 5, ...(format === undefined ? {} : { odds_format: format }) });
      expect(res.statusCode).toBe(200);
      const key = format ?? 'none';
      // The second round is served from the cache, byte for byte what the first rendered.
      if (bodies.has(key)) expect(res.body).toBe(bodies.get(key));
      bodies.set(key, res.body);
    }
    // `multiplier` writes the decimal price, so its pages are `decimal`'s byte for byte.
    expect(bodies.get('multiplier')).toBe(bodies.get('decimal'));
    expect(new Set(bodies.values()).size).toBe(ODDS_FORMATS.length);
  });

  it('filters and paging apply in every format alike', async () => {
    const ids = (items: PricedItem[]) => items.map((item) => item.id);
    const plain = await priced({ operator_ids: [2] });
    expect(ids(await priced({ operator_ids: [2], odds_format: 'fractional' }))).toEqual(ids(plain));
    expect((await h.page(URL, { event_id: 5001, page: 3, page_size: 20, odds_format: 'american' })).results).toHaveLength(7);
  });

  it('an unknown format, also in another case or as a number, is 422 naming odds_format', async () => {
    expectError(await h.post(URL, { event_id: 5001, odds_format: 'hongkong' }), 422, 'VALIDATION_ERROR', 'odds_format');
    expectError(await h.post(URL, { event_id: 5001, odds_format: 'American' }), 422, 'VALIDATION_ERROR', 'odds_format');
    expectError(await h.post(URL, { event_id: 5001, odds_format: 2 }), 422, 'VALIDATION_ERROR', 'odds_format');
  });
});
