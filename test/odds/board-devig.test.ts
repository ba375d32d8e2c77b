import { describe, expect, it } from 'vitest';
import { DEVIG_METHODS, devig } from '../../src/shared/pricing/devig.js';
import { DIALECTS } from '../helpers/app.js';
import { expectFigure } from '../helpers/figures.js';
import { forSuite, reader } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';

const URL = '/v1/odds/board';

interface Fair {
  probability: number | null;
  price: number | null;
  hold: number | null;
  reason: string | null;
}
interface Item {
  event_id: number;
  position: string;
  fair: { method: string; consensus: Fair; books: Array<Fair & { operator: { id: number } }> };
}

/**
 * Three-way markets on the board: a soccer 1x2 priced whole by one book and in part by the other,
 * and a market whose long shot the additive method takes below zero.
 */
function dataset() {
  const d = smallDataset();
  d.events.push(
    { id: 300, league_id: 20, start_time: '2030-01-06T20:00:00Z', home_team_id: 2000, away_team_id: 2001 },
    { id: 301, league_id: 20, start_time: '2030-01-07T20:00:00Z', home_team_id: 2001, away_team_id: 2000 },
  );
  d.odds.push(
    { id: 30, event_id: 300, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 2.1 },
    { id: 31, event_id: 300, operator_id: 1, betting_market_id: 1, position: 'draw', price_decimal: 3.4 },
    { id: 32, event_id: 300, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 3.6 },
    { id: 33, event_id: 300, operator_id: 2, betting_market_id: 1, position: 'home', price_decimal: 2.2 },
    { id: 34, event_id: 300, operator_id: 2, betting_market_id: 1, position: 'draw', price_decimal: 3.3 },
    { id: 40, event_id: 301, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.2 },
    { id: 41, event_id: 301, operator_id: 1, betting_market_id: 1, position: 'draw', price_decimal: 4 },
    { id: 42, event_id: 301, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 60 },
  );
  return d;
}

const OUTCOMES = ['away', 'draw', 'home'];
const BOOK_1: Record<string, number> = { home: 2.1, draw: 3.4, away: 3.6 };

describe.each(DIALECTS)('the board de-vigs markets of more than two outcomes by each method (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const items = async (body: Record<string, unknown>) => (await h.page<Item>(URL, { page_size: 100, ...body })).results;

  it.each(DEVIG_METHODS)('%s: a whole 1x2 gives fair probabilities that add up to 1, as the method computes them', async (method) => {
    const board = await items({ event_ids: [300], devig: method });
    expect(board.map((i) => i.position)).toEqual(OUTCOMES);
    const expected = devig(OUTCOMES.map((o) => BOOK_1[o] ?? 0), method);
    expect(expected.ok).toBe(true);
    let sum = 0;
    board.forEach((item, n) => {
      expect(item.fair.method).toBe(method);
      const book = item.fair.books.find((b) => b.operator.id === 1);
      expect(book?.reason).toBeNull();
      expectFigure(book?.hold, 1 / 2.1 + 1 / 3.4 + 1 / 3.6 - 1, 'hold');
      if (expected.ok) expectFigure(book?.probability, expected.probabilities[n] ?? 0, item.position);
      sum += book?.probability ?? 0;
    });
    // Three figures each within half a millionth of theirs.
    expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1.5e-6);
  });

  it('multiplicative on the 1x2: each 1/d over their sum', async () => {
    const board = await items({ event_ids: [300] });
    const total = 1 / 2.1 + 1 / 3.4 + 1 / 3.6;
    for (const item of board) {
      const book = item.fair.books.find((b) => b.operator.id === 1);
      expectFigure(book?.probability, 1 / (BOOK_1[item.position] ?? 1) / total, item.position);
      expectFigure(book?.price, total * (BOOK_1[item.position] ?? 0), `${item.position} price`);
    }
  });

  it('a book that leaves an outcome out gives no fair price there, and says why', async () => {
    const home = (await items({ event_ids: [300] })).find((i) => i.position === 'home');
    expect(home?.fair.books.find((b) => b.operator.id === 2)).toEqual({ operator: expect.anything(), probability: null, price: null, hold: null, reason: 'incomplete_market' });
  });

  it('additive on a long shot it takes below zero: no fair price, reason non_positive_probability; the other methods price it', async () => {
    const additive = await items({ event_ids: [301], devig: 'additive' });
    for (const item of additive) expect(item.fair.books[0]).toMatchObject({ probability: null, price: null, reason: 'non_positive_probability' });
    expectFigure(additive[0]?.fair.books[0]?.hold, 1 / 1.2 + 1 / 4 + 1 / 60 - 1, 'hold');
    for (const method of ['multiplicative', 'power', 'shin']) {
      const priced = await items({ event_ids: [301], devig: method });
      for (const item of priced) expect(item.fair.books[0]?.reason, method).toBeNull();
    }
  });

  it('the consensus of one book is that book\'s own fair price', async () => {
    for (const item of await items({ event_ids: [301], devig: 'shin' })) {
      expect(item.fair.consensus.probability).toBe(item.fair.books[0]?.probability);
    }
  });
});
