import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSuite } from '../cli/cli-helpers.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { type OddsApiEvent, type OddsApiScore, fromAmerican, recorded, toAmerican } from './the-odds-api-expected.js';
import { proveTheOddsApi } from './the-odds-api-proof.js';

/**
 * The sample answers in American odds loaded by `sportsdata import --format the-odds-api
 * --odds-format american FILE…` (its own connection), then read through the HTTP app over the
 * same database: the history, results and grades agree with the JSON (the-odds-api-proof.ts).
 */
const snapshot = (file: string) => JSON.parse(recorded(file)) as { timestamp: string; data: OddsApiEvent[] };
const FIRST = snapshot('historical-soccer_epl-2024-12-20T09-00-00Z.json');
const SECOND = snapshot('historical-soccer_epl-2024-12-20T09-05-00Z.json');
const ODDS = JSON.parse(recorded('odds-soccer_epl.json')) as OddsApiEvent[];
const SCORES = JSON.parse(recorded('scores-soccer_epl.json')) as OddsApiScore[];

describe.each(DIALECTS)('The Odds API samples end to end through the CLI (%s)', (dialect) => {
  const { db, run } = cliSuite(dialect);
  // The CLI's database served with the admin routes on (its own env has no ADMIN_TOKEN on SQLite).
  const h = forSuite(() => harness({ dialect, context: createContext({ config: loadConfig({ ...db.env, ADMIN_TOKEN: TEST_ADMIN_TOKEN }), database: db.ctx.database }) }));

  it('imports the snapshots, the odds and the scores in one command, in that order; the API agrees with the JSON', async () => {
    const files = [
      ['first.json', { ...FIRST, data: toAmerican(FIRST.data) }],
      ['second.json', { ...SECOND, data: toAmerican(SECOND.data) }],
      ['odds.json', toAmerican(ODDS)],
      ['scores.json', SCORES],
    ] as const;
    const paths = files.map(([name, body]) => {
      const path = join(db.env.DATA_DIR ?? '', name);
      writeFileSync(path, JSON.stringify(body));
      return path;
    });
    const result = await run('import', '--format', 'the-odds-api', '--odds-format', 'american', ...paths, '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject([{ queued: 0 }, { queued: 0 }, { imported: { events: 5 }, queued: 0 }, { imported: { results: 4 }, queued: 0 }]);
    await h.ctx.changes.poll();
    const of = async (table: 'operators' | 'betting_markets') => new Map((await db.ctx.database.db.selectFrom(table).select(['id', 'key']).execute()).map((r) => [Number(r.id), r.key]));
    const { apiKey } = await h.client();
    await proveTheOddsApi(h.as({ apiKey }), h.admin, { odds: [toAmerican(FIRST.data), toAmerican(SECOND.data), toAmerican(ODDS)], scores: SCORES, decimal: fromAmerican }, { operators: await of('operators'), markets: await of('betting_markets') });
  });
});
