import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { MIGRATIONS, migrateToLatest } from '../../src/platform/db/migrations.js';
import type { BettingMarketsTable, FlowsTable } from '../../src/platform/db/schema.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';

/** The two tables 0012 changes, as they were before it. */
interface Before0012 {
  betting_markets: Omit<BettingMarketsTable, 'category_id'>;
  flows: Omit<FlowsTable, 'implied_probability' | 'hit_history' | 'selection_id' | 'fact_flow_type' | 'source' | 'disagrees'>;
}

/**
 * Migration 0012 on a database that already holds data: flows get their implied probability
 * (as the import computes it), markets no category yet, and the new lists start empty.
 */
describe.each(DIALECTS)('migration 0012_catalogue over stored data (%s)', (dialect) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const fresh = await freshDatabaseUrl(dialect);
    drop = fresh.drop;
    database = openDatabase(fresh.url);
    const before = new Migrator({ db: database.db, provider: { getMigrations: async () => ({ ...MIGRATIONS }) } });
    const { error } = await before.migrateTo('0003_change_times');
    expect(error).toBeUndefined();
  });
  afterEach(async () => {
    await database.close();
    await drop();
  });

  it('fills in the implied probability of stored flows, leaves markets without category and the new lists empty', async () => {
    const { db } = database;
    const before = db as unknown as Kysely<Before0012>;
    await before.insertInto('betting_markets').values({ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', sport_id: null }).execute();
    const flow = (id: number, price: number | null): Before0012['flows'] => ({
      id, flow_type: 'fact', bet_type: 'single', event_id: 1, sport_id: 1, league_id: 1, focus_entity_type: 'event', focus_entity_id: 1,
      betting_market_id: 1, line: null, split: null, description: 'x', hits: 1, total: 2, hit_rate_pct: 50, likelihood: 'likely',
      price_decimal: price, updated_at: 0,
    });
    await before.insertInto('flows').values([flow(1, 1.91), flow(2, null), flow(3, 2.25), flow(4, 1001)]).execute();

    expect(await migrateToLatest(db)).toContain('0012_catalogue');

    const flows = await db.selectFrom('flows').select(['id', 'implied_probability', 'hit_history']).orderBy('id').execute();
    expect(flows).toEqual([
      { id: 1, implied_probability: 0.5236, hit_history: null },
      { id: 2, implied_probability: null, hit_history: null },
      { id: 3, implied_probability: 0.4444, hit_history: null },
      { id: 4, implied_probability: 0.001, hit_history: null },
    ]);
    expect(await db.selectFrom('betting_markets').select(['category', 'category_id']).execute()).toEqual([{ category: 'main', category_id: null }]);
    for (const table of ['countries', 'betting_market_categories', 'betting_market_positions', 'event_periods'] as const) {
      expect(await db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
  });
});
