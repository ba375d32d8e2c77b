import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { smallDataset } from '../import/fixture.js';

const URL = '/v1/odds/upcoming-odds-by-event';

/** The small dataset's event 100 with player props (a main line and an alternate), and a live first-half total. */
function datasetWithDetails() {
  const dataset = smallDataset();
  dataset.odds.push(
    { id: 7, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'Jayson Tatum over', line: 26.5, price_decimal: 1.9, player_id: 5000 },
    { id: 8, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'Jayson Tatum under', line: 26.5, price_decimal: 1.9, player_id: 5000 },
    { id: 9, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'Jayson Tatum over', line: 28.5, price_decimal: 2.4, player_id: 5000, is_main: false },
    { id: 10, event_id: 100, operator_id: 2, betting_market_id: 3, position: 'Jalen Brunson over', line: 24.5, price_decimal: 1.87, player_id: 5001 },
    { id: 11, event_id: 100, operator_id: 1, betting_market_id: 2, position: 'over', line: 110.5, price_decimal: 1.9, event_period_id: 2, is_live: true },
    { id: 13, event_id: 100, operator_id: 2, betting_market_id: 2, position: 'over', line: 110.5, price_decimal: 1.8 },
  );
  return dataset;
}

interface OddsRow {
  id: number;
  player_id: number | null;
  event_period_id: number | null;
  is_main: boolean;
  is_live: boolean;
}

describe.each(DIALECTS)('odds rows: player, period, main line, live (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: datasetWithDetails() }));
  const list = async (body: Record<string, unknown>): Promise<OddsRow[]> => (await h.page<OddsRow>(URL, { event_id: 100, page_size: 100, ...body })).results;
  const ids = async (body: Record<string, unknown>) => (await list(body)).map((r) => r.id);
  const importing = (dataset: Record<string, unknown[]>) => h.t.admin.post('/admin/v1/import', dataset);

  it('items carry player_id, event_period_id, is_main and is_live, with the defaults for rows that give none', async () => {
    const byId = new Map((await list({})).map((r) => [r.id, r]));
    expect(byId.get(1)).toMatchObject({ player_id: null, event_period_id: null, is_main: true, is_live: false });
    expect(byId.get(7)).toMatchObject({ player_id: 5000, event_period_id: null, is_main: true, is_live: false, position: 'Jayson Tatum over' });
    expect(byId.get(9)).toMatchObject({ player_id: 5000, is_main: false });
    expect(byId.get(11)).toMatchObject({ player_id: null, event_period_id: 2, is_main: true, is_live: true });
  });

  it('filters by player_ids and event_period_ids (null: the full game); alternates only with include_alt_lines', async () => {
    expect(await ids({ player_ids: [5000] })).toEqual([7, 8, 9]);
    expect(await ids({ player_ids: [5001, 5000, 5001] })).toEqual([7, 8, 9, 10]);
    expect(await ids({ event_period_ids: [2] })).toEqual([11]);
    expect(await ids({ event_period_ids: [null] })).toEqual([1, 2, 3, 4, 7, 8, 9, 10, 13]);
    expect(await ids({ event_period_ids: [2, null] })).toEqual([1, 2, 3, 4, 7, 8, 9, 10, 11, 13]);
    // The list kept every row before alternates were told apart: it still does unless asked not to.
    expect(await ids({})).toContain(9);
    expect(await ids({ include_alt_lines: false })).toEqual([1, 2, 3, 4, 7, 8, 10, 11, 13]);
    expect(await ids({ player_ids: [5000], include_alt_lines: false })).toEqual([7, 8]);
  });

  it('a period is part of what a selection is: the same market, side and line in another period has its own id', async () => {
    const byId = new Map((await h.page<OddsRow & { event_betting_market_position_id: number }>(URL, { event_id: 100, page_size: 100 })).results.map((r) => [r.id, r]));
    const half = byId.get(11)?.event_betting_market_position_id;
    const game = byId.get(13)?.event_betting_market_position_id;
    expect(half).toBeDefined();
    expect(game).toBeDefined();
    expect(half).not.toBe(game);
  });

  it('an unknown player or period, or a period of another sport, is refused at import (422)', async () => {
    const row = { id: 12, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'Nobody over', line: 1.5, price_decimal: 1.9 };
    expectError(await importing({ odds: [{ ...row, player_id: 999 }] }), 422, 'VALIDATION_ERROR', 'odds[0].player_id');
    expectError(await importing({ odds: [{ ...row, event_period_id: 999 }] }), 422, 'VALIDATION_ERROR', 'odds[0].event_period_id');
    // Period 3 is soccer's full time; event 100 is a basketball game.
    expectError(await importing({ odds: [{ ...row, event_period_id: 3 }] }), 422, 'VALIDATION_ERROR', 'odds[0].event_period_id');
    expect(await ids({})).not.toContain(12);
  });

  it('a row re-imported without the details gets their defaults back', async () => {
    const live = { id: 11, event_id: 100, operator_id: 1, betting_market_id: 2, position: 'over', line: 110.5, price_decimal: 1.9 };
    await h.t.import({ odds: [live] });
    expect((await list({})).find((r) => r.id === 11)).toMatchObject({ event_period_id: null, is_live: false });
    await h.t.import({ odds: [{ ...live, event_period_id: 2, is_live: true }] });
    expect((await list({})).find((r) => r.id === 11)).toMatchObject({ event_period_id: 2, is_live: true });
  });
});
