import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/platform/db/migrations.js';
import type { OddsTable } from '../../src/platform/db/schema.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';

interface Before0015 {
  // Columns of later migrations (0019, 0020) are not there yet either.
  odds: Omit<OddsTable, 'selection_id' | 'player_id' | 'event_period_id' | 'is_main' | 'is_live' | 'operator_selection_id'>;
}

/**
 * Migration 0015 on a database that already holds odds: every stored selection gets one id, in
 * the order its first odds row was stored, and every odds row points at its selection.
 */
describe.each(DIALECTS)('migration 0015_selections over stored odds (%s)', (dialect) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const fresh = await freshDatabaseUrl(dialect);
    drop = fresh.drop;
    database = openDatabase(fresh.url);
    await migrateTo(database.db, '0014_tags_regions');
  });
  afterEach(async () => {
    await database.close();
    await drop();
  });

  it('gives each (event, market, position, line) one id and each odds row its selection', async () => {
    const { db } = database;
    const odds = (id: number, operator: number, position: string, line: number | null): Before0015['odds'] => ({
      id, event_id: 1, operator_id: operator, betting_market_id: 2, position, line, price_decimal: 1.9, status: 'open', updated_at: 0,
    });
    await (db as unknown as Kysely<Before0015>)
      .insertInto('odds')
      .values([odds(10, 1, 'over', 210.5), odds(11, 2, 'over', 210.5), odds(12, 1, 'home', null), odds(13, 2, 'home', null), odds(14, 1, 'over', 211)])
      .execute();

    expect(await migrateToLatest(db)).toContain('0015_selections');

    const rows = await db.selectFrom('odds').select(['id', 'selection_id']).orderBy('id').execute();
    expect(rows.map((r) => [Number(r.id), Number(r.selection_id)])).toEqual([[10, 1], [11, 1], [12, 2], [13, 2], [14, 3]]);
    const selections = await db.selectFrom('selections').select(['id', 'position', 'line', 'line_key', 'period', 'player']).orderBy('id').execute();
    expect(selections.map((s) => ({ ...s, id: Number(s.id), line: s.line === null ? null : Number(s.line) }))).toEqual([
      { id: 1, position: 'over', line: 210.5, line_key: '210.5', period: '', player: '' },
      { id: 2, position: 'home', line: null, line_key: '', period: '', player: '' },
      { id: 3, position: 'over', line: 211, line_key: '211', period: '', player: '' },
    ]);
  });
});
