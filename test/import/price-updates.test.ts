import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { type ErrorBody, forSuite, harness } from '../helpers/harness.js';
import { smallDataset, snapshot } from './fixture.js';

const MINUTE = 60_000;

/** Odds row 3 with every optional field set, on a selection whose id the feed gave (9001). */
function dataset() {
  const d = smallDataset();
  return {
    ...d,
    odds: d.odds.map((o) =>
      o.id === 3 ? { ...o, event_period_id: 1, is_main: false, is_live: true, operator_selection_id: 'K-3', event_betting_market_position_id: 9001, updated_at: '2029-12-31T10:00:00Z' } : o,
    ),
  };
}

describe.each(DIALECTS)('price updates change only what they name (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  const db = () => t.ctx.database.db;
  const stored = async (id: number) => db().selectFrom('odds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const history = async (id: number) =>
    (await db().selectFrom('odds_history').select(['price_from', 'price_to', 'line_from', 'line_to', 'status_from', 'status_to', 'changed_at']).where('odds_id', '=', id).orderBy('id').execute()).map(
      (r) => ({ ...r, price_from: r.price_from === null ? null : Number(r.price_from), price_to: Number(r.price_to), line_from: r.line_from === null ? null : Number(r.line_from), line_to: r.line_to === null ? null : Number(r.line_to), changed_at: Number(r.changed_at) }),
    );
  const imported = (body: unknown) => t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify(body));

  it('by odds id: the price moves, every other field stays, and one history entry records it', async () => {
    await importDataset(t, dataset());
    const before = await stored(3);
    const opened = await history(3);
    expect(opened).toHaveLength(1);

    const upserted = await importDataset(t, { price_updates: [{ odds_id: 3, price_decimal: 2.05, updated_at: '2030-01-01T12:00:00Z' }] });
    expect(upserted).toEqual({ price_updates: 1 });
    const after = await stored(3);
    expect(after).toEqual({ ...before, price_decimal: 2.05, updated_at: Date.parse('2030-01-01T12:00:00Z') });
    expect(await history(3)).toEqual([
      ...opened,
      { price_from: 1.91, price_to: 2.05, line_from: 221.5, line_to: 221.5, status_from: 'suspended', status_to: 'suspended', changed_at: Date.parse('2030-01-01T12:00:00Z') },
    ]);
  });

  it('records nothing when the price is the one stored; without updated_at the row holds from the import', async () => {
    const entries = (await history(3)).length;
    t.clock.advance(MINUTE);
    await importDataset(t, { price_updates: [{ odds_id: 3, price_decimal: 2.05 }] });
    expect(await history(3)).toHaveLength(entries);
    expect(Number((await stored(3)).updated_at)).toBe(t.clock.now());
  });

  it('by selection and operator, with a status: the row of that operator on the selection', async () => {
    const before = await stored(3);
    const entries = await history(3);
    await importDataset(t, { price_updates: [{ event_betting_market_position_id: 9001, operator_id: 2, price_decimal: 1.8, status: 'open' }] });
    expect(await stored(3)).toEqual({ ...before, price_decimal: 1.8, status: 'open', updated_at: t.clock.now() });
    expect((await history(3)).slice(entries.length)).toEqual([
      { price_from: 2.05, price_to: 1.8, line_from: 221.5, line_to: 221.5, status_from: 'suspended', status_to: 'open', changed_at: t.clock.now() },
    ]);
    // The row kept its selection: the flows and the board still find it there.
    expect(Number((await stored(3)).selection_id)).toBe(9001);
  });

  it.each([
    ['an unknown odds row', [{ odds_id: 77, price_decimal: 2 }], { field: 'price_updates[0].odds_id', rule: 'reference' }],
    ['an unknown selection', [{ event_betting_market_position_id: 9999, operator_id: 2, price_decimal: 2 }], { field: 'price_updates[0].event_betting_market_position_id', rule: 'reference' }],
    ['a selection the operator does not price', [{ event_betting_market_position_id: 9001, operator_id: 1, price_decimal: 2 }], { field: 'price_updates[0].event_betting_market_position_id', rule: 'reference' }],
    ['a row named both ways', [{ odds_id: 3, event_betting_market_position_id: 9001, operator_id: 2, price_decimal: 2 }], { field: 'price_updates[0]', rule: 'oneOf' }],
    ['a row named neither way', [{ operator_id: 2, price_decimal: 2 }], { field: 'price_updates[0]', rule: 'required' }],
    ['a row updated twice', [{ odds_id: 1, price_decimal: 2 }, { odds_id: 3, price_decimal: 2 }, { event_betting_market_position_id: 9001, operator_id: 2, price_decimal: 2.1 }], { field: 'price_updates[2]', rule: 'unique' }],
    ['a bad time', [{ odds_id: 3, price_decimal: 2, updated_at: '2030-02-30T00:00:00Z' }], { field: 'price_updates[0].updated_at', rule: 'format' }],
  ])('%s → 422 naming the item, nothing written', async (_name, updates, detail) => {
    const before = await snapshot(t);
    const entries = await db().selectFrom('odds_history').select('id').execute();
    const res = await imported({ operators: [{ id: 1, key: 'northstar-bet', name: 'Renamed' }], price_updates: updates });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toContainEqual(detail);
    expect(res.json().error.message).toContain(detail.field);
    expect(await snapshot(t)).toEqual(before);
    expect(await db().selectFrom('odds_history').select('id').execute()).toEqual(entries);
  });

  it('refuses a row the dataset also sends whole', async () => {
    const res = await imported({ odds: [smallDataset().odds[0]], price_updates: [{ odds_id: 1, price_decimal: 2 }] });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toEqual([{ field: 'price_updates[0]', rule: 'unique' }]);
  });
});
