import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';

const URL = '/v1/odds/movement';
const NOW = Date.parse('2030-01-04T12:00:00Z');
const at = (time: string) => `2030-01-04T${time}:00.000Z`;

interface Movement {
  opening: { price_decimal: number; at: string };
  current: { price_decimal: number; at: string };
  high: { price_decimal: number };
  low: { price_decimal: number };
  moves: number;
  first_move_at: string | null;
  last_move_at: string | null;
  changes: Record<'5m' | '1h' | '24h', { price_decimal: number; probability_points: number }>;
}
interface Item {
  betting_market: { id: number };
  position: string;
  is_main: boolean;
  line: number | null;
  books: Array<{ operator: { id: number }; movement: Movement }>;
  consensus: Movement | null;
}

type Row = [id: number, operator: number, market: number, position: string, price: number, extra?: Record<string, unknown>];
const row = (time: string) => ([id, operator_id, betting_market_id, position, price_decimal, extra]: Row) => ({
  id, event_id: 100, operator_id, betting_market_id, position, price_decimal, updated_at: at(time), ...(betting_market_id === 2 ? { line: 220.5 } : {}), ...extra,
});
const alt = { is_main: false };

/**
 * Event 100, read as of T = 11:00, with everything after T changing what today's rows say:
 *   10:00  moneyline: book 1 home 2.00 (row 1), book 2 home 2.10 (row 2), book 1 away 1.80 (row 4),
 *          book 3 away 1.95 (row 8); total 220.5 main: book 1 over 1.90, under 1.90 (rows 20, 21);
 *          alternate over 220.5: book 1 1.90 (row 10), book 2 1.95 (row 11)
 *   10:30  book 1 home → 2.20
 *   11:30  (after T) book 1 home → 1.70; book 2 home suspended; book 3 home opens at 1.90 (row 3);
 *          book 1 draw opens at 3.50 (row 6): a new selection; book 3 away gets a second row
 *          (row 5, a lower id than its row 8); book 1's main total suspended both ways;
 *          book 1's alternate over moves to the line 221.5 at 1.85
 */
describe.each(DIALECTS)('POST /v1/odds/movement as of an instant (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect, clock: manualClock(NOW) });
    const { events: _events, odds: _odds, flows: _flows, ...rest } = smallDataset();
    await t.import({ ...rest, operators: [...rest.operators, { id: 3, key: 'third-book', name: 'Third Book' }] });
    await t.import({ events: [{ id: 100, league_id: 10, start_time: '2030-01-05T00:30:00Z', home_team_id: 1000, away_team_id: 1001 }] });
    const steps: Array<[string, Row[]]> = [
      ['10:00', [[1, 1, 1, 'home', 2], [2, 2, 1, 'home', 2.1], [4, 1, 1, 'away', 1.8], [8, 3, 1, 'away', 1.95], [20, 1, 2, 'over', 1.9], [21, 1, 2, 'under', 1.9],
        [10, 1, 2, 'over', 1.9, alt], [11, 2, 2, 'over', 1.95, alt]]],
      ['10:30', [[1, 1, 1, 'home', 2.2]]],
      ['11:30', [[1, 1, 1, 'home', 1.7], [2, 2, 1, 'home', 2.1, { status: 'suspended' }], [3, 3, 1, 'home', 1.9], [6, 1, 1, 'draw', 3.5], [5, 3, 1, 'away', 1.9],
        [20, 1, 2, 'over', 1.9, { status: 'suspended' }], [21, 1, 2, 'under', 1.9, { status: 'suspended' }], [10, 1, 2, 'over', 1.85, { ...alt, line: 221.5 }]]],
    ];
    for (const [time, rows] of steps) await t.import({ odds: rows.map(row(time)) });
    return t;
  });
  const items = async (body: Record<string, unknown> = {}) => {
    const caller = h.as({ apiKey: (await h.client({ tier: 'pro' })).apiKey });
    return (await caller.page<Item>(URL, { event_ids: [100], include_alt_lines: true, page_size: 100, ...body })).results;
  };
  const asOfT = () => items({ as_of: at('11:00') });
  const named = (list: Item[]) => list.map((i) => [i.betting_market.id, i.position, i.is_main, i.line, i.books.map((b) => b.operator.id)]);

  it('lists the selections as the history knew them at T: none first priced after it, one now suspended everywhere, each at its line then', async () => {
    expect(named(await asOfT())).toEqual([
      [1, 'away', true, null, [1, 3]],
      [1, 'home', true, null, [1, 2]],
      [2, 'over', true, null, [1]],
      [2, 'under', true, null, [1]],
      [2, 'over', false, 220.5, [1, 2]],
    ]);
    // Today, for contrast: the draw and book 3's home are there, the main total is not, book 1's alternate is at 221.5.
    expect(named(await items())).toEqual([
      [1, 'away', true, null, [1, 3]],
      [1, 'draw', true, null, [1]],
      [1, 'home', true, null, [1, 3]],
      [2, 'over', false, 220.5, [2]],
      [2, 'over', false, 221.5, [1]],
    ]);
  });

  it('a book\'s price is its value at T, a book suspended since is open at T, and the figures ignore every later change', async () => {
    const list = await asOfT();
    const home = list.find((i) => i.position === 'home');
    const book = (item: Item | undefined, id: number) => item?.books.find((b) => b.operator.id === id)?.movement;
    expect(book(home, 1)).toMatchObject({
      opening: { price_decimal: 2, at: at('10:00') },
      current: { price_decimal: 2.2, at: at('10:30') },
      high: { price_decimal: 2.2 },
      low: { price_decimal: 2 },
      moves: 1,
      first_move_at: at('10:30'),
      last_move_at: at('10:30'),
      changes: { '5m': { price_decimal: 0 }, '1h': { price_decimal: 0.2 } },
    });
    expect(book(home, 2)).toMatchObject({ current: { price_decimal: 2.1, at: at('10:00') }, moves: 0 });
    expect(home?.consensus).toMatchObject({ opening: { price_decimal: 2.05 }, current: { price_decimal: 2.15, at: at('10:30') }, high: { price_decimal: 2.15 }, low: { price_decimal: 2.05 }, moves: 1 });
    // Book 3's away: the row it had at T, not the lower-id row it was given after.
    const away = list.find((i) => i.position === 'away');
    expect(book(away, 3)).toMatchObject({ opening: { price_decimal: 1.95, at: at('10:00') }, current: { price_decimal: 1.95 }, moves: 0 });
    expect(away?.consensus).toMatchObject({ current: { price_decimal: 1.875 }, moves: 0 });
    // The alternate over at 220.5: book 1's price then, at that line.
    const over = list.find((i) => i.position === 'over' && !i.is_main);
    expect(book(over, 1)).toMatchObject({ current: { price_decimal: 1.9 }, high: { price_decimal: 1.9 }, low: { price_decimal: 1.9 }, moves: 0 });
    expect(over?.consensus).toMatchObject({ current: { price_decimal: 1.925 }, moves: 0 });
  });

  it('as of an instant after every change, the same as now', async () => {
    expect(await items({ as_of: at('12:00') })).toEqual(await items());
  });
});
