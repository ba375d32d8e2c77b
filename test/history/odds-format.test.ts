import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ODDS_FORMATS, type OddsFormat, priceIn } from '../../src/shared/odds-format.js';
import { DIALECTS } from '../helpers/app.js';
import { textOf } from '../helpers/bodies.js';
import { importDataset } from '../helpers/data.js';
import { type Change, historyApp, historyDataset, withoutGrade } from './fixture.js';

type Price = number | string;
type PricedChange = Change & { price?: { from: Price | null; to: Price } };

/** The price of a change in `format`, from its price_decimal, as priceIn gives it. */
const expectedPrice = (change: Change, format: OddsFormat) => ({
  from: change.price_decimal.from === null ? null : priceIn(format, change.price_decimal.from),
  to: priceIn(format, change.price_decimal.to),
});

/** The history list and the history files take `odds_format` (decision 0111). */
describe.each(DIALECTS)('odds_format on the price history and its files (%s)', (dialect) => {
  const h = historyApp(dialect, async (t, now) => {
    const dataset = historyDataset(now);
    await importDataset(t, dataset);
    t.clock.advance(60_000);
    // Odds 1 moves 1.8 → 2.25 and odds 2 2.05 → 1.91: changes with a `from`, on both sides of 2.
    await importDataset(t, { odds: dataset.odds.map((o) => (o.id === 1 ? { ...o, price_decimal: 2.25 } : o.id === 2 ? { ...o, price_decimal: 1.91 } : o)) });
  });

  const listed = async (payload: Record<string, unknown> = {}): Promise<PricedChange[]> => {
    const res = await h.as.pro.post('/v1/odds/history-by-event', { event_id: 100, page_size: 100, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ results: PricedChange[] }>().results;
  };

  it.each(ODDS_FORMATS)(
    'history-by-event with odds_format %s: price {from, to} as priceIn gives it, price_decimal unchanged',
    async (format) => {
      const plain = await listed();
      const priced = await listed({ odds_format: format });
      expect(priced).toHaveLength(plain.length);
      expect(priced.map(({ price, ...rest }) => rest)).toEqual(plain);
      for (const change of priced) expect(change.price, `change ${change.id}`).toEqual(expectedPrice(change, format));
    },
  );

  it('gives the known values: 1.8 → 2.25 is −125 → 125, "4/5" → "5/4"; the opening entry has from null', async () => {
    const american = await listed({ odds_format: 'american' });
    const fractional = await listed({ odds_format: 'fractional' });
    const moved = (changes: PricedChange[]) => changes.find((c) => c.odds_id === 1 && c.price_decimal.from !== null)?.price;
    const opening = (changes: PricedChange[]) => changes.find((c) => c.odds_id === 2 && c.price_decimal.from === null)?.price;
    expect(moved(american)).toEqual({ from: -125, to: 125 });
    expect(moved(fractional)).toEqual({ from: '4/5', to: '5/4' });
    expect(opening(american)).toEqual({ from: null, to: 105 });
    expect(opening(fractional)).toEqual({ from: null, to: '21/20' });
    // Odditt's names: the payout multiplier is the decimal price, percent the implied probability × 100.
    expect(moved(await listed({ odds_format: 'multiplier' }))).toEqual({ from: 1.8, to: 2.25 });
    expect(moved(await listed({ odds_format: 'percent' }))).toEqual({ from: 55.56, to: 44.44 });
  });

  it('leaves items without price when no odds_format is given', async () => {
    for (const change of await listed()) expect(change).not.toHaveProperty('price');
  });

  it('adds price_from and price_to after the price_decimal columns of the CSV, in the format asked', async () => {
    const plain = await h.as.pro.get('/v1/historical/odds/100.csv');
    const res = await h.as.pro.get('/v1/historical/odds/100.csv?odds_format=fractional');
    expect(res.statusCode, res.body).toBe(200);
    const text = textOf(res);
    expect(text.split('\r\n')[0]).toBe(
      '\uFEFFid,odds_id,event_id,operator_id,betting_market_id,position,changed_at,price_decimal_from,price_decimal_to,price_from,price_to,line_from,line_to,status_from,status_to,outcome,closing_price',
    );
    const records = parse(text, { bom: true, columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    const changes = await listed({ odds_format: 'fractional' });
    expect(records.map((r) => Number(r.id))).toEqual(changes.map((c) => c.id));
    for (const [i, record] of records.entries()) {
      const change = changes[i] as PricedChange;
      expect([record.price_from, record.price_to]).toEqual([change.price?.from ?? '', change.price?.to]);
    }
    // Without the columns, the file is the one without odds_format.
    const dropped = records.map(({ price_from, price_to, ...rest }) => rest);
    expect(dropped).toEqual(parse(textOf(plain), { bom: true, columns: true, skip_empty_lines: true }));

    const american = parse(textOf(await h.as.pro.get('/v1/historical/odds/100.csv?odds_format=american')), { bom: true, columns: true }) as Array<Record<string, string>>;
    const move = american.find((r) => r.odds_id === '1' && r.price_decimal_from !== '');
    expect(move).toMatchObject({ price_decimal_from: '1.8', price_decimal_to: '2.25', price_from: '-125', price_to: '125' });
  });

  it('adds price to each change of the JSON file and of the NDJSON export', async () => {
    const res = await h.as.pro.get('/v1/historical/odds/100.json?odds_format=american');
    expect(res.statusCode, res.body).toBe(200);
    const file = JSON.parse(textOf(res)) as { changes: PricedChange[] };
    expect(file.changes.map(withoutGrade)).toEqual(await listed({ odds_format: 'american' }));
    for (const change of file.changes) expect(change.price).toEqual(expectedPrice(change, 'american'));
    expect((JSON.parse(textOf(await h.as.pro.get('/v1/historical/odds/100.json'))) as { changes: PricedChange[] }).changes.map(withoutGrade)).toEqual(await listed());

    const start = new Date(h.now - 86_400_000).toISOString().slice(0, 10);
    const end = new Date(h.now + 2 * 86_400_000).toISOString().slice(0, 10);
    const ndjson = await h.as.pro.get(`/v1/historical/odds.json?league_id=10&start_date=${start}&end_date=${end}&odds_format=implied_probability`);
    expect(ndjson.statusCode, ndjson.body).toBe(200);
    const lines = textOf(ndjson).trim().split('\n').map((line) => JSON.parse(line) as PricedChange);
    expect(lines.length).toBeGreaterThan(0);
    for (const change of lines) expect(change.price).toEqual(expectedPrice(change, 'implied_probability'));
    const csv = await h.as.pro.get(`/v1/historical/odds.csv?league_id=10&start_date=${start}&end_date=${end}&odds_format=american`);
    expect(textOf(csv).split('\r\n')[0]).toContain(',price_decimal_to,price_from,price_to,line_from,');
  });

  it('tags each format apart, and If-None-Match answers 304 only for the same format', async () => {
    const start = new Date(h.now - 86_400_000).toISOString().slice(0, 10);
    const end = new Date(h.now + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const url of ['/v1/historical/odds/100.csv', '/v1/historical/odds/100.json', `/v1/historical/odds.csv?league_id=10&start_date=${start}&end_date=${end}`]) {
      const withFormat = (format: string) => `${url}${url.includes('?') ? '&' : '?'}odds_format=${format}`;
      const plain = String((await h.as.pro.get(url)).headers.etag);
      const american = String((await h.as.pro.get(withFormat('american'))).headers.etag);
      const fractional = String((await h.as.pro.get(withFormat('fractional'))).headers.etag);
      expect(new Set([plain, american, fractional]).size, url).toBe(3);
      expect((await h.as.pro.get(withFormat('american'), { 'if-none-match': american })).statusCode).toBe(304);
      expect((await h.as.pro.get(withFormat('fractional'), { 'if-none-match': american })).statusCode).toBe(200);
      expect((await h.as.pro.get(url, { 'if-none-match': american })).statusCode).toBe(200);
      expect((await h.as.pro.get(url, { 'if-none-match': plain })).statusCode).toBe(304);
    }
  });

  it('names each format’s file apart, so that two downloads in a row keep both files', async () => {
    const start = new Date(h.now - 86_400_000).toISOString().slice(0, 10);
    const end = new Date(h.now + 2 * 86_400_000).toISOString().slice(0, 10);
    const named = async (url: string) => /filename="([^"]+)"/.exec(String((await h.as.pro.get(url)).headers['content-disposition']))?.[1];
    expect(await named('/v1/historical/odds/100.csv')).toBe('odds-history-event-100.csv');
    expect(await named('/v1/historical/odds/100.csv?odds_format=american')).toBe('odds-history-event-100-american.csv');
    expect(await named('/v1/historical/odds/100.json?odds_format=implied_probability')).toBe('odds-history-event-100-implied_probability.json');
    const league = `league_id=10&start_date=${start}&end_date=${end}`;
    expect(await named(`/v1/historical/odds.csv?${league}`)).toBe(`odds-history-league-10-${start}-to-${end}.csv`);
    expect(await named(`/v1/historical/odds.json?${league}&odds_format=fractional`)).toBe(`odds-history-league-10-${start}-to-${end}-fractional.ndjson`);
  });

  it('answers 422 for an unknown odds_format', async () => {
    for (const format of ['hongkong', 'American', '']) {
      expect((await h.as.pro.post('/v1/odds/history-by-event', { event_id: 100, page_size: 100, odds_format: format })).statusCode, format).toBe(422);
      expect((await h.as.pro.get(`/v1/historical/odds/100.csv?odds_format=${format}`)).statusCode, format).toBe(422);
      expect((await h.as.pro.get(`/v1/historical/odds/100.json?odds_format=${format}`)).statusCode, format).toBe(422);
      expect((await h.as.pro.get(`/v1/historical/odds.csv?league_id=10&odds_format=${format}`)).statusCode, format).toBe(422);
    }
  });
});
