import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { cliSuite } from '../cli/cli-helpers.js';
import { forSuite, harness } from '../helpers/harness.js';
import { sample } from './football-data-expected.js';
import { proveLoaded } from './football-data-proof.js';

/**
 * The sample files loaded by `sportsdata import --format football-data FILE…` (its own connection,
 * as a separate process has), then read through the HTTP app over the same database: what the API
 * says agrees with the CSV text as it does after the HTTP import (football-data-proof.ts).
 */
const FILES = [
  { file: 'E0-2024-round.csv', days: { start: '2024-08-16', end: '2024-08-19' } },
  { file: 'E0-2005-round.csv', days: { start: '2005-08-13', end: '2005-08-14' } },
  { file: 'E0-1995-round.csv', days: { start: '1995-08-19', end: '1995-08-20' } },
];

describe.each(DIALECTS)('football-data sample files end to end through the CLI (%s)', (dialect) => {
  const { db, run } = cliSuite(dialect);
  // After the CLI's database, and closed before it.
  const h = forSuite(() => harness({ dialect, context: db.ctx }));

  it('imports every file in one command, then every score, board price, grade, closing price and CLV agrees with the CSV; a second run writes nothing', async () => {
    const paths = FILES.map(({ file }) => {
      const path = join(db.env.DATA_DIR ?? '', file);
      writeFileSync(path, sample(file));
      return path;
    });
    const result = await run('import', '--format', 'football-data', ...paths, '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject(FILES.map(() => ({ imported: { events: 10, results: 10 }, queued: 0, skipped: [] })));
    await db.ctx.changes.poll();
    const { apiKey } = await h.client();
    for (const { file, days } of FILES) await proveLoaded(h.as({ apiKey }), sample(file), days);

    const history = async () => Number((await db.ctx.database.db.selectFrom('odds_history').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await history();
    const again = await run('import', '--format', 'football-data', ...paths, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(await history()).toBe(before);
  });
});
