import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { forSuite, harness } from '../helpers/harness.js';
import { smallDataset } from './fixture.js';

/**
 * A stored odds row sent again is written in its quote alone when nothing else of it changes (a
 * feed's price move), and whole otherwise: either way the stored row is exactly what the item
 * says, with the defaults of what it leaves out. One batch holds both kinds and a new row.
 */
describe.each(DIALECTS)('odds rows sent again: a price move, or a row that changes more (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  const row = async (id: number) => t.ctx.database.db.selectFrom('odds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const base = () => {
    const d = smallDataset();
    return d.odds.map((o) => (o.id === 3 ? { ...o, is_live: true, is_main: false, operator_selection_id: 'K-3', event_period_id: 1 } : o));
  };

  it('writes each row as sent: the price moves keep every other column, the rest change what they say', async () => {
    await importDataset(t, { ...smallDataset(), odds: base() });
    const [one, three, four] = [await row(1), await row(3), await row(4)];
    t.clock.advance(60_000);
    const [first, , third, fourth] = base();
    await importDataset(t, {
      odds: [
        // Row 3: its price moves, nothing else: a quote move.
        { ...third!, price_decimal: 1.95 },
        // Row 1: its price moves, and it is live now: written whole.
        { ...first!, price_decimal: 1.75, is_live: true, updated_at: '2030-01-01T12:00:00Z' },
        // Row 4: its price and its status move: a quote move.
        { ...fourth!, price_decimal: 1.88, status: 'suspended' },
        // A new row.
        { id: 7, event_id: 200, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 2.4 },
      ],
    });
    const now = t.clock.now();
    expect(await row(3)).toEqual({ ...three, price_decimal: 1.95, updated_at: now });
    expect(await row(1)).toEqual({ ...one, price_decimal: 1.75, is_live: 1, updated_at: Date.parse('2030-01-01T12:00:00Z') });
    expect(await row(4)).toEqual({ ...four, price_decimal: 1.88, status: 'suspended', updated_at: now });
    expect(await row(7)).toMatchObject({ price_decimal: 2.4, is_main: 1, is_live: 0, status: 'open', updated_at: now });
  });

  it('a row sent again without its optional fields takes their defaults, its price as it was', async () => {
    const before = await row(3);
    t.clock.advance(60_000);
    const { is_live: _live, is_main: _main, operator_selection_id: _id, ...bare } = base()[2]!;
    await importDataset(t, { odds: [{ ...bare, price_decimal: 1.95 }] });
    expect(await row(3)).toEqual({ ...before, is_live: 0, is_main: 1, operator_selection_id: null, updated_at: t.clock.now() });
  });

  it('a line moved is another selection: the row is written whole, on the selection of its new line', async () => {
    const before = await row(4);
    await importDataset(t, { odds: [{ ...base()[3]!, price_decimal: 1.9, line: 223.5 }] });
    const after = await row(4);
    expect(after).toEqual({ ...before, price_decimal: 1.9, line: 223.5, status: 'open', selection_id: after.selection_id, updated_at: t.clock.now() });
    expect(after.selection_id).not.toBe(before.selection_id);
  });
});
