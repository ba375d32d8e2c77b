import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { sample } from './football-data-expected.js';
import { proveLoaded } from './football-data-proof.js';

/**
 * The sample files of football-data.co.uk, loaded through POST /admin/v1/import/football-data,
 * say through the public API what their CSV text says (football-data-proof.ts works it out from
 * the text alone): scores, the board, grades, closing prices and closing-line value.
 */
const SAMPLES = [
  { file: 'E0-2024-round.csv', days: { start: '2024-08-16', end: '2024-08-19' }, events: 10 },
  { file: 'E0-2005-round.csv', days: { start: '2005-08-13', end: '2005-08-14' }, events: 10 },
  { file: 'E0-1995-round.csv', days: { start: '1995-08-19', end: '1995-08-20' }, events: 10 },
] as const;

describe.each(DIALECTS)('football-data sample files end to end over HTTP (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it.each(SAMPLES)('$file: imported whole, then every score, board price, grade, closing price and CLV agrees with the CSV', async ({ file, days, events }) => {
    const res = await t.admin.raw('POST', '/admin/v1/import/football-data', sample(file), 'text/csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: { events, results: events }, queued: 0, skipped: [] });
    const { apiKey } = await t.client();
    await proveLoaded(t.as({ apiKey }), sample(file), days);
  });
});
