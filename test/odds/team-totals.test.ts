import { describe, expect, it } from 'vitest';
import { DEVIG_METHODS } from '../../src/shared/pricing/devig.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { expectFigure, expectSumOfFigures } from '../helpers/figures.js';
import { smallDataset } from '../import/fixture.js';

interface Fair {
  probability: number | null;
  reason: string | null;
}
interface Item {
  position: string;
  is_main: boolean;
  line: number | null;
  fair: { consensus: Fair; books: Array<Fair & { operator: { id: number } }> };
}
interface Arbitrage {
  event_id: number;
  profit_pct: number;
  legs: Array<{ position: string; line: number | null; price_decimal: number; operators: Array<{ id: number }> }>;
}

const EVENT = 120;
const TEAM_TOTAL = 40;
const BOSTON = 'Boston Celtics';
const KNICKS = 'New York Knicks';

/**
 * A team-total market: each team's over/under at its own line, and the Knicks' at an alternate
 * line too, priced by two books. Book 1 is long on the Knicks' over (2.41), book 2 on their under
 * (1.94): an arbitrage of 1/2.41 + 1/1.94 = 0.930, about 7.5 %.
 */
function dataset() {
  const d = smallDataset();
  d.betting_markets.push({ id: TEAM_TOTAL, key: 'team-total', name: 'Team Total', category: 'main', entity_type: 'team' });
  d.events.push({ id: EVENT, league_id: 10, start_time: '2030-01-08T00:30:00Z', home_team_id: 1000, away_team_id: 1001 });
  const row = (id: number, operator_id: number, position: string, line: number, price_decimal: number, is_main = true) =>
    ({ id, event_id: EVENT, operator_id, betting_market_id: TEAM_TOTAL, position, line, price_decimal, is_main });
  d.odds.push(
    row(60, 1, `${KNICKS} over`, 106.5, 2.41),
    row(61, 1, `${KNICKS} under`, 106.5, 1.6),
    row(62, 1, `${BOSTON} over`, 110.5, 1.9),
    row(63, 1, `${BOSTON} under`, 110.5, 1.9),
    row(64, 2, `${KNICKS} over`, 106.5, 1.55),
    row(65, 2, `${KNICKS} under`, 106.5, 1.94),
    row(66, 2, `${BOSTON} over`, 110.5, 1.8),
    row(67, 2, `${BOSTON} under`, 110.5, 2.0),
    row(68, 1, `${KNICKS} over`, 108.5, 2.6, false),
    row(69, 1, `${KNICKS} under`, 108.5, 1.45, false),
  );
  return d;
}

describe.each(DIALECTS)('team totals: one market per team, line and period (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const board = async (body: Record<string, unknown>) => (await h.page<Item>('/v1/odds/board', { event_ids: [EVENT], page_size: 100, ...body })).results;

  it.each(DEVIG_METHODS)('%s: each team\'s over and under have fair probabilities that add up to 1, by book and in the consensus', async (method) => {
    const items = await board({ devig: method, include_alt_lines: true });
    expect(items).toHaveLength(6);
    for (const team of [BOSTON, KNICKS]) {
      for (const [isMain, line] of [[true, null], [false, 108.5]] as const) {
        const sides = items.filter((i) => i.position.startsWith(team) && i.is_main === isMain && i.line === line);
        if (sides.length === 0) continue;
        expect(sides.map((i) => i.position)).toEqual([`${team} over`, `${team} under`]);
        const consensus = sides.map((i) => i.fair.consensus.probability ?? Number.NaN);
        expectSumOfFigures(consensus, 1, `${team} ${isMain} ${line}`);
        for (const operator of [1, 2]) {
          const book = sides.map((i) => i.fair.books.find((b) => b.operator.id === operator));
          if (book.some((b) => b === undefined)) continue;
          expect(book.map((b) => b?.reason)).toEqual([null, null]);
          expectSumOfFigures(book.map((b) => b?.probability ?? Number.NaN), 1, `${team} book ${operator}`);
        }
      }
    }
  });

  it('multiplicative on one team\'s total: that team\'s two prices alone', async () => {
    const items = await board({});
    const over = items.find((i) => i.position === `${KNICKS} over`);
    const book1 = over?.fair.books.find((b) => b.operator.id === 1);
    expectFigure(book1?.probability, 1 / 2.41 / (1 / 2.41 + 1 / 1.6));
  });

  it('edges find the arbitrage on one team\'s total: its over at one book, its under at the other', async () => {
    const edges = await h.ok<{ arbitrages: Arbitrage[]; arbitrages_total: number }>('/v1/odds/edges', { event_ids: [EVENT] });
    const sum = 1 / 2.41 + 1 / 1.94;
    expect(edges.arbitrages_total).toBe(1);
    expectFigure(edges.arbitrages[0]?.profit_pct, (1 / sum - 1) * 100);
    expect(edges.arbitrages[0]?.legs.map((l) => [l.position, l.line, l.price_decimal, l.operators.map((o) => o.id)])).toEqual([
      [`${KNICKS} over`, 106.5, 2.41, [1]],
      [`${KNICKS} under`, 106.5, 1.94, [2]],
    ]);
  });
});

describe.each(DIALECTS)('the board\'s and the edges\' scope (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));

  it.each(['/v1/odds/board', '/v1/odds/edges'])('%s: an unknown sport_id or league_id is 404, as the events list says; a known one without events is 200', async (url) => {
    expectError(await h.post(url, { event_date: '2030-01-08', sport_id: 999 }), 404, 'NOT_FOUND');
    expectError(await h.post(url, { event_ids: [EVENT], league_id: 999 }), 404, 'NOT_FOUND');
    expect((await h.post(url, { event_ids: [EVENT], sport_id: 2 })).statusCode).toBe(200);
    expect((await h.post(url, { event_ids: [EVENT], league_id: 10 })).statusCode).toBe(200);
  });

  it('event_ids: [] is no filter, as every empty filter list: the day\'s events; event_date beside event_ids is not read', async () => {
    const ofDay = (await h.page<Item & { event_id: number }>('/v1/odds/board', { event_date: '2030-01-08', timezone: 'UTC', page_size: 100 })).results;
    const empty = (await h.page<Item & { event_id: number }>('/v1/odds/board', { event_ids: [], event_date: '2030-01-08', timezone: 'UTC', page_size: 100 })).results;
    expect(new Set(ofDay.map((i) => i.event_id))).toEqual(new Set([EVENT]));
    expect(empty).toEqual(ofDay);
    const listed = (await h.page<Item & { event_id: number }>('/v1/odds/board', { event_ids: [EVENT], event_date: '2031-12-31', page_size: 100 })).results;
    expect(listed).toEqual(ofDay);
  });
});
