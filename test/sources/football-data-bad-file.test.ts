import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { cliSuite } from '../cli/cli-helpers.js';
import { type ErrorBody, forSuite, harness } from '../helpers/harness.js';

/**
 * A football-data file with bad rows (test/fixtures/football-data/errors.csv), through the HTTP
 * route and the CLI: refused whole, every bad line and column named, nothing written; with
 * skip_invalid / --skip-invalid the good lines land and the others are listed.
 */
const ERRORS = readFileSync(new URL('../fixtures/football-data/errors.csv', import.meta.url), 'utf8');

/** The fixture's mistakes, line by line (the header is line 1), read off the file by eye. */
const BAD = [
  [3, 'Date'], // 31/02/2024
  [4, 'Date'], // 2024-03-01
  [5, 'Time'], // 25:00
  [6, 'FTHG'], // 1.5
  [7, 'FTAG'], // blank beside FTHG 2
  [8, 'B365H'], // 1.00
  [8, 'B365D'], // abc
  [9, 'AHh'], // -0.3: not in quarter goals
  [10, 'B365AHH'], // a price without a handicap
  [11, 'HomeTeam'], // blank
  [13, 'Div'], // blank
  [16, 'HTHG'], // x
  [17, '(line)'], // an unclosed quote
] as const;
/** The good lines: Arsenal–Wolves, Nott'm Forest–Brentford (malformed market maximum and average, not read), Liverpool–Everton (a fixture). */
const GOOD_EVENTS = 3;

const listed = (problems: ReadonlyArray<{ row: number; column: string }>) => problems.map((p) => [p.row, p.column]);

describe.each(DIALECTS)('a football-data file with bad rows over HTTP (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  const events = async () => Number((await t.ctx.database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('is 422 naming every bad line and column, writing nothing; with skip_invalid=true the rest lands and the bad lines are listed', async () => {
    const refused = await t.admin.raw('POST', '/admin/v1/import/football-data', ERRORS, 'text/csv');
    expect(refused.statusCode, refused.body).toBe(422);
    const details = refused.json<ErrorBody>().error.details ?? [];
    expect(details.map((d) => d.field)).toEqual(BAD.map(([row, column]) => `row ${row}, ${column}`));
    expect(await events()).toBe(0);

    const skipped = await t.admin.raw('POST', '/admin/v1/import/football-data?skip_invalid=true', ERRORS, 'text/csv');
    expect(skipped.statusCode, skipped.body).toBe(200);
    const answer = skipped.json<{ imported: { events: number }; skipped: Array<{ row: number; column: string }> }>();
    expect(answer.imported.events).toBe(GOOD_EVENTS);
    expect(listed(answer.skipped)).toEqual(BAD);
    expect(await events()).toBe(GOOD_EVENTS);
  });
});

describe.each(DIALECTS)('a football-data file with bad rows through the CLI (%s)', (dialect) => {
  const { db, run } = cliSuite(dialect);
  const events = async () => Number((await db.ctx.database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('fails naming every bad line and column, writing nothing; with --skip-invalid the rest lands and the bad lines are listed', async () => {
    const file = join(db.env.DATA_DIR ?? '', 'errors.csv');
    writeFileSync(file, ERRORS);
    const refused = await run('import', '--format', 'football-data', file, '--json');
    expect(refused.code).not.toBe(0);
    for (const [row, column] of BAD) expect(refused.stderr).toContain(`row ${row}, ${column}`);
    expect(await events()).toBe(0);

    const skipped = await run('import', '--format', 'football-data', '--skip-invalid', file, '--json');
    expect(skipped, skipped.stderr).toMatchObject({ code: 0 });
    const [answer] = JSON.parse(skipped.stdout) as Array<{ imported: { events: number }; skipped: Array<{ row: number; column: string }> }>;
    expect(answer?.imported.events).toBe(GOOD_EVENTS);
    expect(listed(answer?.skipped ?? [])).toEqual(BAD);
    expect(await events()).toBe(GOOD_EVENTS);
  });
});
