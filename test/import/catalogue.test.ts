import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { HIT_HISTORY, smallDataset } from './fixture.js';

/**
 * The catalogue in the import format (decisions 0112–0114, 0117): the new reference arrays, market
 * categories named by id or by key (the older format), the derived implied probability and the
 * flows' hit history.
 */
describe.each(DIALECTS)('import: catalogue, market categories and hit histories (%s)', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness({ dialect });
  });
  afterEach(async () => t.close());

  const db = () => t.ctx.database.db;
  const marketCategories = async () => db().selectFrom('betting_markets').select(['id', 'category', 'category_id']).orderBy('id').execute();

  it('stores countries, categories, positions and event periods as sent', async () => {
    const data = smallDataset();
    await t.import(data);
    expect(await db().selectFrom('countries').selectAll().orderBy('id').execute()).toEqual(data.countries);
    expect(await db().selectFrom('betting_market_categories').selectAll().orderBy('id').execute()).toEqual(data.betting_market_categories);
    expect(await db().selectFrom('betting_market_positions').selectAll().orderBy('id').execute()).toEqual(data.betting_market_positions);
    expect(await db().selectFrom('event_periods').selectAll().orderBy('id').execute()).toEqual(data.event_periods);
  });

  it('a market names its category by id, by key, or both; the key links to the category record', async () => {
    await t.import(smallDataset());
    expect(await marketCategories()).toEqual([
      { id: 1, category: 'main', category_id: 1 },
      { id: 2, category: 'main', category_id: 1 },
      { id: 3, category: 'player-props', category_id: 2 },
    ]);
  });

  it('a key that names no category is kept as text, and links to a stored category in a later import', async () => {
    const { betting_markets } = smallDataset();
    // An older file: categories as text only, no category records.
    await t.import({ sports: smallDataset().sports, betting_markets: betting_markets.map(({ category_id: _id, ...m }) => ({ ...m, category: 'Main' })) });
    expect((await marketCategories()).map((m) => m.category_id)).toEqual([null, null, null]);
    expect((await marketCategories()).map((m) => m.category)).toEqual(['Main', 'Main', 'Main']);

    await t.import({ betting_market_categories: [{ id: 7, key: 'main', name: 'Main' }, { id: 5, key: 'main', name: 'Main too' }] });
    await t.import({ betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'MAIN', entity_type: 'team' }] });
    // Compared without regard to case; of two categories with the key, the lower id.
    expect((await marketCategories())[0]).toEqual({ id: 1, category: 'MAIN', category_id: 5 });
  });

  it('derives each flow\'s implied probability from its price, and null without one', async () => {
    await t.import(smallDataset());
    const flows = await db().selectFrom('flows').select(['id', 'implied_probability']).orderBy('id').execute();
    expect(flows.map((f) => f.implied_probability)).toEqual([0.5556, 0.5128, null, null, 0.2849]);
  });

  it('stores a hit history oldest first; a flow without one has none', async () => {
    await t.import(smallDataset());
    const rows = await db().selectFrom('flows').select(['id', 'hit_history']).orderBy('id').execute();
    const stored: typeof HIT_HISTORY = JSON.parse(rows[0]?.hit_history ?? '[]');
    expect(stored.map((g) => g.date)).toEqual([...HIT_HISTORY.map((g) => g.date)].sort());
    expect(stored).toEqual(expect.arrayContaining(HIT_HISTORY));
    expect(rows.slice(1).map((r) => r.hit_history)).toEqual([null, null, null, null]);
  });
});
