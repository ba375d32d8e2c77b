import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/platform/db/migrations.js';
import type { OddsTable, OperatorsTable } from '../../src/platform/db/schema.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';

interface Before0019 {
  odds: Omit<OddsTable, 'player_id' | 'event_period_id' | 'is_main' | 'is_live' | 'operator_selection_id'>;
  operators: Pick<OperatorsTable, 'id' | 'key' | 'name'>;
}

/**
 * Migrations 0019 and 0020 on stored odds and operators: every row is a full-game, main-line,
 * pre-match price with no player, as it was, and no operator has a deep link.
 */
describe.each(DIALECTS)('migrations 0019_odds_details and 0020_operator_deep_links over stored data (%s)', (dialect) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const fresh = await freshDatabaseUrl(dialect);
    drop = fresh.drop;
    database = openDatabase(fresh.url);
    await migrateTo(database.db, '0018_fact_flow_type');
  });
  afterEach(async () => {
    await database.close();
    await drop();
  });

  it('keeps the meaning of every stored row', async () => {
    const { db } = database;
    await (db as unknown as Kysely<Before0019>)
      .insertInto('odds')
      .values({ id: 1, event_id: 1, operator_id: 1, betting_market_id: 1, position: 'home', line: null, price_decimal: 1.9, status: 'open', updated_at: 0, selection_id: null })
      .execute();
    await (db as unknown as Kysely<Before0019>).insertInto('operators').values({ id: 1, key: 'northstar', name: 'Northstar Bet' }).execute();
    expect(await migrateToLatest(db)).toEqual(expect.arrayContaining(['0019_odds_details', '0020_operator_deep_links']));
    const operator = await db.selectFrom('operators').select(['bet_web_deep_link_template', 'bet_ios_deep_link_template', 'bet_android_deep_link_template']).executeTakeFirstOrThrow();
    expect(operator).toEqual({ bet_web_deep_link_template: null, bet_ios_deep_link_template: null, bet_android_deep_link_template: null });
    expect((await db.selectFrom('odds').select('operator_selection_id').executeTakeFirstOrThrow()).operator_selection_id).toBeNull();
    const row = await db.selectFrom('odds').select(['player_id', 'event_period_id', 'is_main', 'is_live']).executeTakeFirstOrThrow();
    expect({ ...row, is_main: Number(row.is_main), is_live: Number(row.is_live) }).toEqual({ player_id: null, event_period_id: null, is_main: 1, is_live: 0 });
  });
});
