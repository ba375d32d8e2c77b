import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { decimalsOf, expectFigure } from '../helpers/figures.js';
import { forSuite, reader } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';

interface Fair {
  probability: number | null;
  price: number | null;
  hold: number | null;
}
interface BoardItem {
  position: string;
  prices: Array<{ operator: { id: number }; price: number | string; price_decimal: number }>;
  best: { price: number | string; price_decimal: number };
  consensus: { price: number | string; price_decimal: number; line: number | null };
  fair: { consensus: Fair; books: Array<Fair & { operator: { id: number } }> };
}
interface Edges {
  value_bets: Array<{ position: string; operator: { id: number }; price_decimal: number; fair_probability: number; fair_price: number; ev_pct: number }>;
  arbitrages: Array<{ implied_sum: number; profit_pct: number; payout: number; legs: Array<{ position: string; price_decimal: number; stake: number }> }>;
}

/**
 * Event 110's moneyline at two books: home 5.43 and 5.44, whose median is 5.4350000000000005 in
 * floating point; away 1.2345678 (a price imported with seven decimals) and 1.19. The best prices
 * of the two sides imply less than 1 together: an arbitrage.
 */
const PRICES: Record<string, Record<number, number>> = { home: { 1: 5.43, 2: 5.44 }, away: { 1: 1.2345678, 2: 1.19 } };

function dataset() {
  const d = smallDataset();
  d.events.push({ id: 110, league_id: 10, start_time: '2030-01-06T00:30:00Z', home_team_id: 1000, away_team_id: 1001 });
  let id = 60;
  for (const [position, books] of Object.entries(PRICES)) {
    for (const [operator, price] of Object.entries(books)) d.odds.push({ id: id++, event_id: 110, operator_id: Number(operator), betting_market_id: 1, position, price_decimal: price });
  }
  return d;
}

const priceOf = (position: string, operator: number) => PRICES[position]?.[operator] ?? Number.NaN;
const median = (position: string) => (priceOf(position, 1) + priceOf(position, 2)) / 2;
/** Multiplicative de-vig of two sides: each 1/d over their sum. */
const fair = (home: number, away: number) => ({ home: 1 / home / (1 / home + 1 / away), away: 1 / away / (1 / home + 1 / away), hold: 1 / home + 1 / away - 1 });

/** Every number of an answer, with its path. */
function numbersOf(value: unknown, path = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersOf(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => numbersOf(v, `${path}.${k}`));
  return [];
}

describe.each(DIALECTS)('computed figures are written to 6 decimals, imported prices as imported (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const board = async (body: Record<string, unknown> = {}) => (await h.page<BoardItem>('/v1/odds/board', { event_ids: [110], page_size: 100, ...body })).results;

  it('the board: the consensus is 5.435, not 5.4350000000000005, in every format; fair prices and holds to 6 decimals; book prices as imported', async () => {
    const items = await board();
    expect(items.map((i) => i.position)).toEqual(['away', 'home']);
    const [away, home] = items;
    expect(home?.consensus).toEqual({ price: 5.435, price_decimal: 5.435, line: null });
    expect(away?.prices.map((p) => [p.operator.id, p.price_decimal, p.price])).toEqual([
      [1, 1.2345678, 1.2345678],
      [2, 1.19, 1.19],
    ]);
    expect(away?.best).toMatchObject({ price: 1.2345678, price_decimal: 1.2345678 });
    expectFigure(away?.consensus.price_decimal, median('away'), 'away consensus');

    const consensus = fair(median('home'), median('away'));
    for (const item of items) {
      const side = item.position === 'home' ? 'home' : 'away';
      expectFigure(item.fair.consensus.probability, consensus[side], `${side} fair probability`);
      expectFigure(item.fair.consensus.price, 1 / consensus[side], `${side} fair price`);
      expectFigure(item.fair.consensus.hold, consensus.hold, `${side} consensus hold`);
      for (const book of item.fair.books) {
        const own = fair(priceOf('home', book.operator.id), priceOf('away', book.operator.id));
        expectFigure(book.probability, own[side], `${side} book ${book.operator.id}`);
        expectFigure(book.price, 1 / own[side], `${side} book ${book.operator.id} price`);
        expectFigure(book.hold, own.hold, `${side} book ${book.operator.id} hold`);
      }
    }

    // The consensus's other forms are those of the figure shown: 4.435 is 887/200 exactly, and 443.5 is +444.
    const [, fractional] = await board({ odds_format: 'fractional' });
    expect(fractional?.consensus).toMatchObject({ price: '887/200', price_decimal: 5.435 });
    const [, american] = await board({ odds_format: 'american' });
    expect(american?.consensus).toMatchObject({ price: 444, price_decimal: 5.435 });
  });

  it('edges: fair prices, EV%, the arbitrage\'s sum, margin, payout and stakes to 6 decimals; the books\' prices as imported', async () => {
    const answer = await h.ok<Edges>('/v1/odds/edges', { event_ids: [110], min_edge: -100 });
    const consensus = fair(median('home'), median('away'));
    expect(answer.value_bets).toHaveLength(4);
    for (const bet of answer.value_bets) {
      const side = bet.position === 'home' ? 'home' : 'away';
      expect(bet.price_decimal).toBe(priceOf(side, bet.operator.id));
      expectFigure(bet.fair_probability, consensus[side], `${side} fair probability`);
      expectFigure(bet.fair_price, 1 / consensus[side], `${side} fair price`);
      expectFigure(bet.ev_pct, (bet.price_decimal * consensus[side] - 1) * 100, `${side} at book ${bet.operator.id} EV%`);
    }

    expect(answer.arbitrages).toHaveLength(1);
    const [arbitrage] = answer.arbitrages;
    const best = { home: 5.44, away: 1.2345678 };
    const sum = 1 / best.home + 1 / best.away;
    expectFigure(arbitrage?.implied_sum, sum, 'implied_sum');
    expectFigure(arbitrage?.profit_pct, (1 / sum - 1) * 100, 'profit_pct');
    expectFigure(arbitrage?.payout, 100 / sum, 'payout');
    for (const leg of arbitrage?.legs ?? []) {
      const side = leg.position === 'home' ? 'home' : 'away';
      expect(leg.price_decimal).toBe(best[side]);
      expectFigure(leg.stake, (100 * (1 / best[side])) / sum, `${side} stake`);
    }

    const written = numbersOf(answer).filter(([path]) => !path.endsWith('.price_decimal') && !path.endsWith('.price') && !path.endsWith('.id') && path !== '.min_edge');
    for (const [path, value] of written) expect(decimalsOf(value), `${path}: ${value}`).toBeLessThanOrEqual(6);
  });

  it('min_edge is compared with the EV% before it is rounded: a bet whose EV% rounds up to the bound is below it', async () => {
    const consensus = fair(median('home'), median('away'));
    const exact = (position: 'home' | 'away', operator: number) => (priceOf(position, operator) * consensus[position] - 1) * 100;
    const bets = (['home', 'away'] as const).flatMap((position) => [1, 2].map((operator) => ({ position, operator, ev: exact(position, operator) })));
    // A bet whose EV% has more than 6 decimals and rounds up: asked with its rounded EV% as min_edge, it is not listed.
    const roundsUp = bets.find((b) => Number(b.ev.toFixed(6)) > b.ev);
    expect(roundsUp).toBeDefined();
    if (roundsUp === undefined) return;
    const shown = Number(roundsUp.ev.toFixed(6));
    const answer = await h.ok<Edges>('/v1/odds/edges', { event_ids: [110], min_edge: shown });
    expect(answer.value_bets.map((b) => [b.position, b.operator.id])).not.toContainEqual([roundsUp.position, roundsUp.operator]);
    expect(answer.value_bets.map((b) => b.ev_pct).every((ev) => ev >= shown)).toBe(true);
  });
});
