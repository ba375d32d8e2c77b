import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { sample } from './football-data-expected.js';

/** What a football-data file loaded again writes, counted through the public API: nothing when it is the same, one history row per changed price. */
describe.each(DIALECTS)('football-data files loaded again (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  const load = async (csv: string) => {
    const res = await t.admin.raw('POST', '/admin/v1/import/football-data', csv, 'text/csv');
    expect(res.statusCode, res.body).toBe(200);
  };

  /** Every record the file makes and every history row of its events. */
  async function counts(api: Caller) {
    const events = await api.page('/v1/historical/events?start_date=2024-08-16&end_date=2024-08-19&page_size=100');
    let history = 0;
    for (const e of events.results) history += (await api.page('/v1/odds/history-by-event', { event_id: e.id, page_size: 1 })).total_count;
    const total = async (url: string) => (await api.page(`${url}?page_size=1`)).total_count;
    return {
      events: events.total_count,
      history,
      teams: await total('/v1/references/teams'),
      leagues: await total('/v1/references/leagues'),
      operators: await total('/v1/references/operators'),
      markets: await total('/v1/references/betting-markets'),
    };
  }

  /** The file with one price cell of one match changed. */
  const edited = (csv: string, home: string, column: string, price: string) => {
    const lines = csv.split('\r\n');
    const header = (lines[0] ?? '').replace(/^\uFEFF/, '').split(',');
    const at = header.indexOf(column);
    return lines.map((line) => (line.split(',')[3] === home ? line.split(',').map((cell, i) => (i === at ? price : cell)).join(',') : line)).join('\r\n');
  };

  it('the same file again writes no history row and no record; a changed closing price writes exactly one history row, and a changed pre-closing price of a book without a closing one', async () => {
    const csv = sample('E0-2024-round.csv');
    await load(csv);
    const { apiKey } = await t.client();
    const api = t.as({ apiKey });
    const first = await counts(api);
    expect(first.events).toBe(10);

    await load(csv);
    expect(await counts(api)).toEqual(first);

    // Man United's closing Bet365 price was 1.67.
    const corrected = edited(csv, 'Man United', 'B365CH', '1.70');
    expect(corrected).not.toBe(csv);
    await load(corrected);
    expect(await counts(api)).toEqual({ ...first, history: first.history + 1 });
    await load(corrected);
    expect(await counts(api)).toEqual({ ...first, history: first.history + 1 });

    // Leicester's Betfair price has no closing one (BFCH blank): its pre-closing point is its last.
    await load(edited(corrected, 'Leicester', 'BFH', '3.05'));
    expect(await counts(api)).toEqual({ ...first, history: first.history + 2 });
  });
});
