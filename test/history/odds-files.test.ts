import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { textOf } from '../helpers/bodies.js';
import { importDataset } from '../helpers/data.js';
import { type Change, historyApp, historyDataset, odds, withoutGrade } from './fixture.js';

/** A CSV record read back into the shape of a JSON change (empty field → null). */
function fromCsv(record: Record<string, string>): Change {
  const number = (text: string | undefined) => (text === undefined || text === '' ? null : Number(text));
  const text = (value: string | undefined) => (value === undefined || value === '' ? null : value);
  return {
    id: Number(record.id),
    odds_id: Number(record.odds_id),
    event_id: Number(record.event_id),
    operator_id: Number(record.operator_id),
    betting_market_id: Number(record.betting_market_id),
    position: record.position ?? '',
    changed_at: record.changed_at ?? '',
    price_decimal: { from: number(record.price_decimal_from), to: Number(record.price_decimal_to) },
    line: { from: number(record.line_from), to: number(record.line_to) },
    status: { from: text(record.status_from), to: record.status_to ?? '' },
  };
}

const readCsv = (text: string) => (parse(text, { bom: true, columns: true, skip_empty_lines: true }) as Array<Record<string, string>>).map(fromCsv);

describe.each(DIALECTS)('the price history as files (%s)', (dialect) => {
  const h = historyApp(dialect, async (t, now) => {
    const dataset = historyDataset(now);
    // Text a CSV must quote, and text a spreadsheet would run as a formula.
    dataset.odds.push({ ...odds(9, 100, 1, 2, 'Smith, "The Rock"\nover', 1.95), line: 20.5 }, odds(10, 100, 2, 1, '=HYPERLINK("x")', 3.1));
    await importDataset(t, dataset);
    t.clock.advance(60_000);
    await importDataset(t, { odds: dataset.odds.map((o) => (o.id === 1 || o.id === 9 ? { ...o, price_decimal: o.price_decimal + 0.05 } : o)) });
  });

  const listed = async (eventId: number): Promise<Change[]> => {
    const res = await h.as.pro.post('/v1/odds/history-by-event', { event_id: eventId, page_size: 100 });
    return res.json<{ results: Change[] }>().results;
  };

  it('serves one event as a JSON document: the event, and every change as the history list shows it', async () => {
    const res = await h.as.pro.get('/v1/historical/odds/100.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="odds-history-event-100.json"');
    expect(res.headers['content-length']).toBeUndefined();
    const file = JSON.parse(textOf(res)) as { event: { id: number; status: string; home_score: number }; changes: Change[] };
    expect(file.event).toMatchObject({ id: 100, status: 'final', home_score: 112, away_score: 104 });
    expect(file.changes.map(withoutGrade)).toEqual(await listed(100));
    expect(file.changes).toHaveLength(8);
  });

  it('serves it as RFC 4180 CSV that a CSV parser reads back into the same changes', async () => {
    const res = await h.as.pro.get('/v1/historical/odds/100.csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe('attachment; filename="odds-history-event-100.csv"');
    const text = textOf(res);
    expect(text.startsWith('\uFEFFid,odds_id,event_id,operator_id,betting_market_id,position,changed_at,')).toBe(true);
    expect(text.split('\r\n')[1]).toMatch(/^\d+,1,100,1,1,"home",\d{4}-\d\d-\d\dT[\d:.]+Z,,1\.8,,,,"open",[^,]*,[\d.]*$/);
    const fromFile = readCsv(text);
    const expected = (await listed(100)).map((c) => (c.position.startsWith('=') ? { ...c, position: `'${c.position}` } : c));
    expect(fromFile).toEqual(expected);
    // The comma, the quotes and the line break stay inside the field.
    expect(fromFile.find((c) => c.odds_id === 9)?.position).toBe('Smith, "The Rock"\nover');
  });

  it('guards every cell a spreadsheet could run as a formula: after leading blanks and line breaks, and in the full-width forms too', async () => {
    // OWASP's CSV injection guidance: no cell may begin with = + - @, a tab, CR or LF. Spreadsheets
    // trim blanks and line breaks before they read a formula, and take the full-width forms as well.
    const formulas = ['=1+2', ' =1+2', '  @SUM(A1)', '\n=1+2', '\r\n+1', '\t-1', '\u3000=1', '\u00a0+1', '＝1+2', '＋1', '－1', '＠SUM(A1)', ' ＝1', '\n1', '\r1', '\t1'];
    const plain = [' home', 'over 2.5', 'a=b', 'Müller over', 'Smith-Jones'];
    const positions = [...formulas, ...plain];
    await importDataset(h.t, { odds: positions.map((position, i) => ({ ...odds(500 + i, 300, 1, 1, position, 2), status: i === 0 ? '@open' : 'open' })) });
    const res = await h.as.pro.get('/v1/historical/odds/300.csv');
    expect(res.statusCode, res.body).toBe(200);
    const cells = new Map(readCsv(textOf(res)).map((c) => [c.odds_id, c]));
    for (const [i, position] of positions.entries()) {
      expect(cells.get(500 + i)?.position, JSON.stringify(position)).toBe(formulas.includes(position) ? `'${position}` : position);
    }
    // Every text column is guarded alike.
    expect(cells.get(500)?.status.to).toBe("'@open");
  });

  it('tags each file: If-None-Match answers 304 until the history changes, and an import that changes nothing keeps the tag', async () => {
    for (const format of ['json', 'csv']) {
      const url = `/v1/historical/odds/100.${format}`;
      const etag = String((await h.as.pro.get(url)).headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const cached = await h.as.pro.get(url, { 'if-none-match': etag });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
      await importDataset(h.t, { odds: [odds(5, 200, 1, 1, 'home', 1.5)] });
      expect((await h.as.pro.get(url, { 'if-none-match': etag })).statusCode, 'an import of another event').toBe(304);
    }
    const url = '/v1/historical/odds/100.csv';
    const before = String((await h.as.pro.get(url)).headers.etag);
    await importDataset(h.t, { odds: [odds(2, 100, 1, 1, 'away', 2.4)] });
    const after = await h.as.pro.get(url, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('answers HEAD with the headers of the file and no body', async () => {
    const head = await h.as.pro.request({ method: 'HEAD', url: '/v1/historical/odds/100.csv' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-disposition']).toBe('attachment; filename="odds-history-event-100.csv"');
    expect(head.body).toBe('');
  });

  it('compresses a file for a client that accepts gzip, as a stream, and weakens its tag', async () => {
    const plain = await h.as.pro.get('/v1/historical/odds/100.csv');
    const gzipped = await h.as.pro.get('/v1/historical/odds/100.csv', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-length']).toBeUndefined();
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gzipped.headers.etag).toBe(`W/${String(plain.headers.etag)}`);
    expect(textOf(gzipped)).toBe(plain.body);
    // A league's NDJSON export is text too.
    // Days around now: the fixture's events start hours before and after it, which can be another UTC day.
    const start = new Date(h.now - 86_400_000).toISOString().slice(0, 10);
    const end = new Date(h.now + 86_400_000).toISOString().slice(0, 10);
    const url = `/v1/historical/odds.json?league_id=10&start_date=${start}&end_date=${end}`;
    const ndjson = await h.as.pro.get(url, { 'accept-encoding': 'br' });
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(ndjson.headers['content-encoding']).toBe('br');
    expect(textOf(ndjson)).toBe((await h.as.pro.get(url)).body);
    expect(textOf(ndjson).length).toBeGreaterThan(0);
  });

  it('exports a league and a range of days as CSV and as NDJSON: by event start, each event in time order', async () => {
    const start = new Date(h.now - 86_400_000).toISOString().slice(0, 10);
    const end = new Date(h.now + 2 * 86_400_000).toISOString().slice(0, 10);
    const query = `league_id=10&start_date=${start}&end_date=${end}`;
    const expected = [...(await listed(100)), ...(await listed(200))];
    const csv = await h.as.pro.get(`/v1/historical/odds.csv?${query}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="odds-history-league-10-${start}-to-${end}.csv"`);
    expect(readCsv(csv.body).map((c) => c.id)).toEqual(expected.map((c) => c.id));
    const ndjson = await h.as.pro.get(`/v1/historical/odds.json?${query}`);
    expect(ndjson.statusCode, ndjson.body).toBe(200);
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = ndjson.body.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => withoutGrade(JSON.parse(line) as Change))).toEqual(expected);
    const etag = String(ndjson.headers.etag);
    expect((await h.as.pro.get(`/v1/historical/odds.json?${query}`, { 'if-none-match': etag })).statusCode).toBe(304);
    // Another league's range holds no event: a header row only.
    expect(readCsv((await h.as.pro.get(`/v1/historical/odds.csv?league_id=11&start_date=2020-01-01&end_date=2020-01-31`)).body)).toEqual([]);
  });

  it('refuses a free client (403 naming the tiers), an unknown event or league (404) and bad input (4xx)', async () => {
    for (const url of ['/v1/historical/odds/100.json', '/v1/historical/odds/100.csv', '/v1/historical/odds.csv?league_id=10', '/v1/historical/odds.json?league_id=10']) {
      const free = await h.as.free.get(url);
      expect(free.statusCode, url).toBe(403);
      expect(free.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringMatching(/pro and enterprise tiers; this client is on the free tier/) } });
      expect((await h.as.enterprise.get(url)).statusCode, url).toBe(200);
    }
    expect((await h.as.pro.get('/v1/historical/odds/999.csv')).statusCode).toBe(404);
    expect((await h.as.pro.get('/v1/historical/odds.csv?league_id=99')).statusCode).toBe(404);
    expect((await h.as.pro.get('/v1/historical/odds.csv')).statusCode).toBe(422);
    expect((await h.as.pro.get('/v1/historical/odds.csv?league_id=10&start_date=2030-01-05&end_date=2030-01-01')).statusCode).toBe(422);
    expect((await h.as.pro.get('/v1/historical/odds/100.csv?format=xml')).statusCode).toBe(422);
    expect((await h.as.pro.get('/v1/historical/odds/abc.csv')).statusCode).toBe(400);
    // Event 100 exists, but 1e2 is not how an id is written.
    for (const id of ['1e2', '0x64', '+100', '100.0']) expect((await h.as.pro.get(`/v1/historical/odds/${id}.csv`)).statusCode, id).toBe(400);
    expect((await h.as.pro.get('/v1/historical/odds/100.xml')).statusCode).toBe(404);
  });
});

describe.each(DIALECTS)('an event with 100,000 recorded changes (%s)', (dialect) => {
  const ROWS = 50_000;
  const h = historyApp(dialect, async (t, now) => {
    // The files are what is measured: the signals' detector and the steam detection, which would
    // work through the 100,000 changes in the background (a minute on PostgreSQL in CI, past the
    // suite's close), are stopped.
    await t.ctx.signals.stop();
    await t.ctx.oddsMoves?.stop();
    const dataset = historyDataset(now);
    const rows = Array.from({ length: ROWS }, (_, i) => ({ ...odds(1_000 + i, 100, 1 + (i % 2), 1 + (i % 2), i % 3 === 0 ? 'home' : 'Jordan Reyes over', 1.5 + (i % 100) / 100), line: i % 2 === 0 ? null : 10.5 }));
    // 50,000 openings, then 50,000 changes: 100,000 entries.
    await importDataset(t, { ...dataset, odds: rows });
    t.clock.advance(60_000);
    const res = await t.admin.post('/admin/v1/import', { odds: rows.map((o) => ({ ...o, price_decimal: o.price_decimal + 0.01 })) });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('exports it as CSV and as JSON, and the CSV read by a CSV parser gives the same changes as the JSON', async () => {
    const json = await h.as.pro.get('/v1/historical/odds/100.json');
    expect(json.statusCode).toBe(200);
    const changes = (JSON.parse(json.body) as { changes: Change[] }).changes;
    expect(changes).toHaveLength(2 * ROWS);
    const csv = await h.as.pro.get('/v1/historical/odds/100.csv');
    expect(csv.statusCode).toBe(200);
    expect(readCsv(csv.body)).toEqual(changes.map(withoutGrade));
  }, 120_000);
});
