import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { expectFigure } from '../helpers/figures.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

const URL = '/v1/odds/movement';
const MINUTE = 60_000;

interface Price {
  price: number | string;
  price_decimal: number;
}
interface Change {
  price_decimal: number;
  probability_points: number;
}
interface Movement {
  opening: Price & { at: string };
  current: Price & { at: string };
  high: Price;
  low: Price;
  moves: number;
  first_move_at: string | null;
  last_move_at: string | null;
  changes: Record<'5m' | '1h' | '24h', Change>;
}
interface Item {
  event_id: number;
  position: string;
  books: Array<{ operator: { id: number }; movement: Movement }>;
  consensus: Movement | null;
}
interface Page {
  results: Item[];
  total_count: number;
  total_pages: number;
}

/**
 * Event 100's moneyline home, three books, minutes before the suite's now (T):
 *   −120  book 1 opens 2.00, book 2 opens 2.10 (and book 1's away 1.80)
 *    −90  book 1 → 2.20
 *    −30  book 3 opens 1.90
 *    −10  book 1 → 1.80, book 2 → 2.00
 *     −2  book 1 → 1.90
 *     −1  book 2 suspended (its price unchanged)
 * Consensus (median of the open books) at each instant: 2.05, 2.15, 2.10, 1.90, 1.90, 1.90.
 */
const STEPS: Array<[minutes: number, rows: Array<[id: number, operator: number, position: string, price: number, status?: string]>]> = [
  [-120, [[1, 1, 'home', 2.0], [2, 2, 'home', 2.1], [4, 1, 'away', 1.8]]],
  [-90, [[1, 1, 'home', 2.2]]],
  [-30, [[3, 3, 'home', 1.9]]],
  [-10, [[1, 1, 'home', 1.8], [2, 2, 'home', 2.0]]],
  [-2, [[1, 1, 'home', 1.9]]],
  [-1, [[2, 2, 'home', 2.0, 'suspended']]],
];

async function movementApp(dialect: (typeof DIALECTS)[number]) {
  const t = await harness({ dialect });
  const now = t.clock.now();
  await t.import({
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
    teams: [
      { id: 1000, key: 'celtics', name: 'Boston Celtics', league_id: 10 },
      { id: 1001, key: 'knicks', name: 'New York Knicks', league_id: 10 },
    ],
    operators: [1, 2, 3].map((id) => ({ id, key: `book-${id}`, name: `Book ${id}` })),
    betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' }],
    events: [{ id: 100, league_id: 10, start_time: new Date(now + 24 * 60 * MINUTE).toISOString(), home_team_id: 1000, away_team_id: 1001 }],
  });
  for (const [minutes, rows] of STEPS) {
    const updated_at = new Date(now + minutes * MINUTE).toISOString();
    await t.import({
      odds: rows.map(([id, operator_id, position, price_decimal, status]) => ({
        id, event_id: 100, operator_id, betting_market_id: 1, position, price_decimal, updated_at, ...(status ? { status } : {}),
      })),
    });
  }
  const pro = t.as({ apiKey: (await t.client({ tier: 'pro' })).apiKey });
  const free = t.as({ apiKey: (await t.client({ tier: 'free' })).apiKey });
  return { t, now, pro, free, close: () => t.close() };
}

describe.each(DIALECTS)('POST /v1/odds/movement (%s)', (dialect) => {
  const h = forSuite(() => movementApp(dialect));
  const at = (minutes: number) => new Date(h.now + minutes * MINUTE).toISOString();
  const movement = (body: Record<string, unknown>) => h.pro.ok<Page>(URL, { event_ids: [100], ...body });
  const home = async (body: Record<string, unknown> = {}) => {
    const item = (await movement(body)).results.find((i) => i.position === 'home');
    if (item === undefined) throw new Error('no home item');
    return item;
  };
  const book = (item: Item, id: number) => item.books.find((b) => b.operator.id === id)?.movement;
  const expectChange = (change: Change | undefined, now: number, then: number, label: string) => {
    expectFigure(change?.price_decimal, now - then, `${label} price`);
    expectFigure(change?.probability_points, (1 / now - 1 / then) * 100, `${label} points`);
  };

  it('per book: opening, current, high, low, moves, first and last move, the changes over 5 minutes, an hour and 24 hours', async () => {
    const item = await home();
    // Book 2 is suspended now: not listed, as the board lists only prices that can be bet.
    expect(item.books.map((b) => b.operator.id)).toEqual([1, 3]);
    const one = book(item, 1);
    expect(one).toMatchObject({
      opening: { price_decimal: 2, at: at(-120) },
      current: { price_decimal: 1.9, at: at(-2) },
      high: { price_decimal: 2.2 },
      low: { price_decimal: 1.8 },
      moves: 3,
      first_move_at: at(-90),
      last_move_at: at(-2),
    });
    expectChange(one?.changes['5m'], 1.9, 1.8, '5m');
    expectChange(one?.changes['1h'], 1.9, 2.2, '1h');
    // Nothing 24 hours back: the change since the opening.
    expectChange(one?.changes['24h'], 1.9, 2.0, '24h');
    expect(book(item, 3)).toEqual({
      opening: { price: 1.9, price_decimal: 1.9, at: at(-30) },
      current: { price: 1.9, price_decimal: 1.9, at: at(-30) },
      high: { price: 1.9, price_decimal: 1.9 },
      low: { price: 1.9, price_decimal: 1.9 },
      moves: 0,
      first_move_at: null,
      last_move_at: null,
      changes: { '5m': { price_decimal: 0, probability_points: 0 }, '1h': { price_decimal: 0, probability_points: 0 }, '24h': { price_decimal: 0, probability_points: 0 } },
    });
  });

  it('the consensus: the median of the open books, recomputed at every change of any of them', async () => {
    const { consensus } = await home();
    expect(consensus).toMatchObject({
      opening: { price_decimal: 2.05, at: at(-120) },
      current: { price_decimal: 1.9, at: at(-10) },
      high: { price_decimal: 2.15 },
      low: { price_decimal: 1.9 },
      moves: 3,
      first_move_at: at(-90),
      last_move_at: at(-10),
    });
    expectChange(consensus?.changes['5m'], 1.9, 1.9, 'consensus 5m');
    expectChange(consensus?.changes['1h'], 1.9, 2.15, 'consensus 1h');
    expectChange(consensus?.changes['24h'], 1.9, 2.05, 'consensus 24h');
  });

  it('as_of: only the changes at or before it count, and the windows end at it', async () => {
    const item = await home({ as_of: at(-20) });
    // Book 2 was open then; book 1's later moves are not yet made.
    expect(item.books.map((b) => b.operator.id)).toEqual([1, 2, 3]);
    const one = book(item, 1);
    expect(one).toMatchObject({ current: { price_decimal: 2.2, at: at(-90) }, high: { price_decimal: 2.2 }, low: { price_decimal: 2 }, moves: 1, last_move_at: at(-90) });
    expectChange(one?.changes['5m'], 2.2, 2.2, 'as_of 5m');
    expectChange(one?.changes['1h'], 2.2, 2.2, 'as_of 1h');
    expectChange(one?.changes['24h'], 2.2, 2.0, 'as_of 24h');
    expect(book(item, 2)).toMatchObject({ current: { price_decimal: 2.1 }, moves: 0 });
    expect(item.consensus).toMatchObject({ opening: { price_decimal: 2.05 }, current: { price_decimal: 2.1, at: at(-30) }, high: { price_decimal: 2.15 }, low: { price_decimal: 2.05 }, moves: 2 });
    expectChange(item.consensus?.changes['1h'], 2.1, 2.15, 'as_of consensus 1h');
    // Before a book's opening, it is not there.
    expect((await home({ as_of: at(-100) })).books.map((b) => b.operator.id)).toEqual([1, 2]);
  });

  it('the board\'s scope, order, books and paging; prices in the format asked', async () => {
    const page = await movement({ page_size: 1 });
    expect(page).toMatchObject({ total_count: 2, total_pages: 2 });
    expect(page.results.map((i) => i.position)).toEqual(['away']);
    const only = await home({ operator_ids: [1] });
    expect(only.books.map((b) => b.operator.id)).toEqual([1]);
    // One book: the consensus is its own price.
    expect(only.consensus).toMatchObject({ opening: { price_decimal: 2 }, current: { price_decimal: 1.9 }, moves: 3 });
    expect((await home({ odds_format: 'american' })).books[0]?.movement.opening.price).toBe(100);
  });

  it('422 for an as_of before the oldest change kept or in the future, stating both bounds', async () => {
    const bounds = `as_of must be between ${at(-120)} and now (${at(0)})`;
    for (const asOf of [at(-121), at(1)]) {
      const res = await h.pro.post(URL, { event_ids: [100], as_of: asOf });
      expectError(res, 422, 'VALIDATION_ERROR', { field: 'as_of' });
      expect(res.json<{ error: { message: string } }>().error.message).toBe(bounds);
    }
    expect((await h.pro.post(URL, { event_ids: [100], as_of: at(-120) })).statusCode).toBe(200);
  });

  it('is for the pro and enterprise tiers: 403 to a free client; an unknown league is 404', async () => {
    expectError(await h.free.post(URL, { event_ids: [100] }), 403, 'FORBIDDEN');
    expectError(await h.pro.post(URL, { league_id: 999 }), 404, 'NOT_FOUND');
  });

  it('an import is seen at once: the scope\'s selections are kept only for a data version', async () => {
    const away = async () => (await movement({})).results.find((i) => i.position === 'away');
    expect((await away())?.books.map((b) => b.operator.id)).toEqual([1]);
    expect((await movement({})).total_count).toBe(2);
    await h.t.import({
      odds: [
        { id: 5, event_id: 100, operator_id: 3, betting_market_id: 1, position: 'away', price_decimal: 1.95 },
        { id: 6, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'draw', price_decimal: 3.5 },
      ],
    });
    // A new selection is listed, and a new book of a listed one.
    expect((await movement({})).results.map((i) => i.position)).toEqual(['away', 'draw', 'home']);
    const after = await away();
    expect(after?.books.map((b) => [b.operator.id, b.movement.opening.at])).toEqual([[1, at(-120)], [3, at(0)]]);
    expect(after?.consensus).toMatchObject({ opening: { price_decimal: 1.8 }, current: { price_decimal: 1.875, at: at(0) }, moves: 1 });
  });

  it('now, a change dated a little ahead of the clock counts, as the board shows it; as of now it does not yet', async () => {
    await h.t.import({ odds: [{ id: 3, event_id: 100, operator_id: 3, betting_market_id: 1, position: 'home', price_decimal: 1.95, updated_at: at(1) }] });
    expect(book(await home(), 3)).toMatchObject({ current: { price_decimal: 1.95, at: at(1) }, moves: 1 });
    expect(book(await home({ as_of: at(0) }), 3)).toMatchObject({ current: { price_decimal: 1.9 }, moves: 0 });
  });
});
