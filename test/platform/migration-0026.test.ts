import type { Insertable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/platform/db/migrations.js';
import type { OddsTable, SelectionsTable } from '../../src/platform/db/schema.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { MOVED, OPENED, references, START } from '../results/fixture.js';

const EVENT = 700;
const TATUM = 5000;
const BRUNSON = 5001;

type StoredOdds = Insertable<OddsTable> & { operator_id: number; price_decimal: number; line: number; selection_id: number; player_id: number | null };

const row = (id: number, operator_id: number, position: string, player_id: number | null, price_decimal: number, selection_id: number, line = 26.5): StoredOdds => ({
  id, event_id: EVENT, operator_id, betting_market_id: 5, position, line, price_decimal, status: 'open', updated_at: Date.parse(OPENED), selection_id, player_id,
  event_period_id: null, is_main: 1, is_live: 0, operator_selection_id: null,
});
const selection = (id: number, position: string, line = 26.5): SelectionsTable =>
  ({ id, event_id: EVENT, betting_market_id: 5, period: '', position, line, line_key: String(line), player: '' });

/**
 * Stored before selections of a side alone were keyed by their player: two players' `over` and
 * `under` at 26.5 share selections 1 and 2 (Tatum's rows first), a prop whose position names its
 * player has selection 3, and an `over` no row names a player for has selection 4.
 */
const STORED = {
  selections: [selection(1, 'over'), selection(2, 'under'), selection(3, 'Jayson Tatum over', 30.5), selection(4, 'over', 40.5)],
  odds: [
    row(9, 1, 'over', TATUM, 1.8, 1), row(10, 1, 'under', TATUM, 2.0, 2), row(11, 2, 'over', TATUM, 1.85, 1), row(12, 2, 'under', TATUM, 1.95, 2),
    row(13, 1, 'over', BRUNSON, 2.3, 1), row(14, 1, 'under', BRUNSON, 1.6, 2), row(15, 2, 'over', BRUNSON, 2.2, 1), row(16, 2, 'under', BRUNSON, 1.65, 2),
    row(17, 1, 'Jayson Tatum over', TATUM, 1.9, 3, 30.5), row(18, 1, 'over', null, 1.9, 4, 40.5),
  ],
};

/** The same rows as a feed sends them again (`moved` to their price + 0.1 an hour before the start), with their references and event. */
function dataset(moved = false) {
  return {
    ...references,
    events: [{ id: EVENT, league_id: 10, start_time: new Date(START).toISOString(), status: 'live', home_team_id: 1000, away_team_id: 1001 }],
    odds: STORED.odds.map((o) => ({
      id: o.id, event_id: EVENT, operator_id: o.operator_id, betting_market_id: 5, position: o.position, line: o.line,
      price_decimal: moved ? Math.round((o.price_decimal + 0.1) * 100) / 100 : o.price_decimal, updated_at: moved ? MOVED : OPENED, ...(o.player_id === null ? {} : { player_id: o.player_id }),
    })),
  };
}

describe.each(DIALECTS)('migration 0026: a selection of a side alone is its player\'s (%s)', (dialect) => {
  const h = forSuite(() =>
    harness({
      dialect,
      async beforeMigrating({ db }) {
        await migrateTo(db, '0024_usage_hourly');
        await db.insertInto('selections').values(STORED.selections).execute();
        await db.insertInto('odds').values(STORED.odds).execute();
      },
    }),
  );
  const idsOf = async () => {
    const rows = await h.ctx.database.db.selectFrom('odds').select(['id', 'selection_id']).orderBy('id').execute();
    return Object.fromEntries(rows.map((r) => [Number(r.id), Number(r.selection_id)]));
  };

  it('a shared id stays its first row\'s player\'s; the other player\'s rows get ids of their own; the rest keep theirs', async () => {
    expect(await idsOf()).toEqual({ 9: 1, 10: 2, 11: 1, 12: 2, 13: 5, 14: 6, 15: 5, 16: 6, 17: 3, 18: 4 });
    const selections = await h.ctx.database.db.selectFrom('selections').select(['id', 'position', 'player']).orderBy('id').execute();
    expect(selections.map((s) => [Number(s.id), s.position, s.player])).toEqual([
      [1, 'over', String(TATUM)], [2, 'under', String(TATUM)], [3, 'Jayson Tatum over', ''], [4, 'over', ''], [5, 'over', String(BRUNSON)], [6, 'under', String(BRUNSON)],
    ]);
  });

  it('the feed sending the rows again finds every stored id: none moves, none is added', async () => {
    const before = await idsOf();
    await h.import(dataset());
    expect(await idsOf()).toEqual(before);
    const count = await h.ctx.database.db.selectFrom('selections').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(6);
  });

  it('a kept id values a price against its player\'s market alone', async () => {
    // Closing prices are the price history's: the moves an hour before the start.
    await h.import(dataset(true));
    expect(Object.values(await idsOf())).toEqual(Object.values(STORED.odds).map((o) => (o.player_id === BRUNSON ? o.selection_id + 4 : o.selection_id)));
    const caller = h.as({ apiKey: (await h.client({ tier: 'pro' })).apiKey });
    const answer = await caller.ok<{ results: Array<{ fair_closing_price: number | null; reason: string | null }> }>('/v1/results/clv', {
      prices: [{ event_betting_market_position_id: 1, operator_id: 1, price: 2 }, { event_betting_market_position_id: 5, operator_id: 1, price: 2 }],
    });
    // Tatum's over: medians 1.925 and 2.075; Brunson's: 2.35 and 1.725.
    const fair = (over: number, under: number) => (1 / over + 1 / under) * over;
    expect(answer.results[0]?.reason).toBeNull();
    expect(answer.results[0]?.fair_closing_price).toBeCloseTo(fair(1.925, 2.075), 5);
    expect(answer.results[1]?.fair_closing_price).toBeCloseTo(fair(2.35, 1.725), 5);
  });
});
