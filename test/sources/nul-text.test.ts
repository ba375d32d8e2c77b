import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

/**
 * Text with U+0000 (NUL), which PostgreSQL cannot store nor compare: refused where it comes in, as
 * every other text parameter is (NO_NUL), never a 500 from the database.
 */
describe.each(DIALECTS)('NUL in what the source routes read (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('an external_id with NUL is a 422 naming it', async () => {
    const res = await t.admin.get('/admin/v1/mapping/external-ids?source=football-data&external_id=a%00b');
    expectError(res, 422, 'VALIDATION_ERROR', 'external_id');
  });
});

describe.each(DIALECTS)('NUL in a source file (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('a football-data team name with NUL refuses its row, as any bad cell; skipped with skip_invalid', async () => {
    const csv = 'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,PSH,PSD,PSA\nE0,16/08/2024,20:00,Man\u0000United,Fulham,1,0,H,1.71,4.21,4.67\n';
    const res = await t.admin.raw('POST', '/admin/v1/import/football-data', csv, 'text/csv');
    expectError(res, 422, 'VALIDATION_ERROR', { field: 'row 2, home', rule: 'invalid' });
    const skipped = await t.admin.raw<{ skipped: unknown[] }>('POST', '/admin/v1/import/football-data?skip_invalid=true', csv, 'text/csv');
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json().skipped).toEqual([{ row: 2, column: 'home', message: 'text with U+0000 (NUL)' }]);
  });

  it('a The Odds API team name with NUL refuses its item', async () => {
    const answer = [{ id: 'e1', sport_key: 'soccer_epl', sport_title: 'EPL', commence_time: '2024-12-21T12:30:00Z', home_team: 'Ars\u0000enal', away_team: 'Aston Villa', bookmakers: [] }];
    const res = await t.admin.raw('POST', '/admin/v1/import/the-odds-api', JSON.stringify(answer), 'application/json');
    expectError(res, 422, 'VALIDATION_ERROR', { field: 'row 1, home', rule: 'invalid' });
  });
});
