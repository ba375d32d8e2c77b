import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { purgeOldHistory } from '../../src/modules/history/index.js';
import { migrateTo } from '../../src/platform/db/migrations.js';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { forSuite, harness, type Harness } from '../helpers/harness.js';
import { historyDataset } from './fixture.js';

const DAY = 24 * 3600_000;
const RETENTION_DAYS = 730;
/** A 1993 season's prices: their own time is decades before they are loaded. */
const SEASON_1993 = Date.parse('1993-11-05T19:30:00Z');

const purge = (t: Harness) => purgeOldHistory({ db: t.database.db, clock: t.clock, changes: t.ctx.changes, retentionDays: RETENTION_DAYS });
const stored = async (t: Harness) =>
  (await t.database.db.selectFrom('odds_history').select(['odds_id', 'changed_at', 'recorded_at']).orderBy('id').execute()).map((r) => ({
    odds_id: Number(r.odds_id),
    changed_at: Number(r.changed_at),
    recorded_at: Number(r.recorded_at),
  }));

describe.each(DIALECTS)('the history retention counts from when a change was recorded (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('keeps a past season loaded today, its openings and its changes; purges them once recorded longer ago than the retention', async () => {
    const now = t.clock.now();
    const season = historyDataset(SEASON_1993);
    const at = (ms: number) => new Date(ms).toISOString();
    // Into an empty table (the openings in one statement), then a change of the same season's row.
    await importDataset(t, { ...season, odds: season.odds.map((o) => ({ ...o, updated_at: at(SEASON_1993) })) });
    await importDataset(t, { odds: season.odds.filter((o) => o.id === 1).map((o) => ({ ...o, price_decimal: 1.95, updated_at: at(SEASON_1993 + DAY) })) });
    const recorded = await stored(t);
    expect(recorded).toHaveLength(season.odds.length + 1);
    expect(recorded.every((r) => r.changed_at < SEASON_1993 + 2 * DAY && r.recorded_at === now)).toBe(true);

    expect(await purge(t)).toBe(0);
    expect(await stored(t)).toEqual(recorded);

    // A year on, a change recorded then is kept as long again; the 1993 rows go once 730 days have passed since their load.
    t.clock.advance(365 * DAY);
    await importDataset(t, { odds: season.odds.filter((o) => o.id === 2).map((o) => ({ ...o, price_decimal: 2.2, updated_at: at(SEASON_1993 + 2 * DAY) })) });
    t.clock.advance(366 * DAY);
    expect(await purge(t)).toBe(recorded.length);
    expect((await stored(t)).map((r) => r.odds_id)).toEqual([2]);
  });
});

describe.each(DIALECTS)('migration 0030: the changes already recorded count from their changed_at (%s)', (dialect) => {
  const t = forSuite(() =>
    harness({
      dialect,
      async beforeMigrating({ db }) {
        await migrateTo(db, '0028_history_processors');
        // The migration runs before the harness's clock is set: the rows are old and recent by the wall clock.
        for (const [oddsId, changedAt] of [[1, Date.now() - 800 * DAY], [2, Date.now() - 10 * DAY]]) {
          await sql`insert into odds_history (odds_id, event_id, operator_id, betting_market_id, position, changed_at, price_to, status_to)
            values (${oddsId}, 100, 1, 1, 'home', ${changedAt}, 1.8, 'open')`.execute(db);
        }
      },
    }),
  );

  it('sets recorded_at to changed_at, so the purge keeps them as it did', async () => {
    const rows = await stored(t);
    expect(rows.map((r) => r.recorded_at)).toEqual(rows.map((r) => r.changed_at));
    t.clock.set(Date.now());
    expect(await purge(t)).toBe(1);
    expect((await stored(t)).map((r) => r.odds_id)).toEqual([2]);
  });

  it('a change an older node writes during a rolling upgrade, without its recorded_at, counts from the next purge', async () => {
    await sql`insert into odds_history (odds_id, event_id, operator_id, betting_market_id, position, changed_at, price_to, status_to)
      values (3, 100, 1, 1, 'away', ${Date.parse('1993-11-05T19:30:00Z')}, 2.1, 'open')`.execute(t.database.db);
    expect(await purge(t)).toBe(0);
    expect((await stored(t)).find((r) => r.odds_id === 3)?.recorded_at).toBe(t.clock.now());
  });
});
