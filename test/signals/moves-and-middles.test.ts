import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { event, opening, OPENED, row, START } from './fixture.js';

interface Signal {
  type: string;
  event_id: number;
  operator_id: number | null;
  price_decimal: number | null;
  move_size: number | null;
  outcome: string | null;
  profit: number | null;
  legs: Array<{ operator_id: number; price_decimal: number; stake: number }>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const DROPPED = iso(Date.parse(OPENED) + 180_000);

/**
 * The steam moves and drops the odds module finds, and the middles the edges endpoint finds, are
 * signals too, graded with their selections. Game 200: book 3's home drops from 1.90 to 1.60 a
 * minute after the opening (15.8%, a drop at the 10% default), and a total of 220.5 over at 1.95
 * (book 1) against 221.5 under at 1.90 (book 2) leaves a window at 221: a middle. Home wins 111–110.
 */
describe.each(DIALECTS)('move and middle signals (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect });
    const slate = opening();
    await h.import({
      ...slate,
      betting_markets: [...slate.betting_markets, { id: 2, key: 'total', name: 'Total', category: 'main', entity_type: 'event', settlement: { rule: 'total' } }],
      odds: [
        ...slate.odds,
        { id: 9001, event_id: 200, operator_id: 1, betting_market_id: 2, position: 'over', line: 220.5, price_decimal: 1.95, updated_at: OPENED },
        { id: 9002, event_id: 200, operator_id: 2, betting_market_id: 2, position: 'under', line: 221.5, price_decimal: 1.9, updated_at: OPENED },
      ],
    });
    await h.import({ odds: [row(200, 3, 'home', 1.6, DROPPED)] });
    await h.ctx.oddsMoves?.run();
    await h.ctx.signals.run();
    return h;
  });
  const list = async () => {
    const caller = t.as({ apiKey: (await t.client({ tier: 'enterprise' })).apiKey });
    return (await caller.page<Signal>('/v1/signals', { start_date: '2031-02-27', end_date: '2031-03-01', page_size: 100 })).results;
  };

  it('a drop is recorded as a bet at the price it dropped to, and a middle with the stakes that pay the same outside its window', async () => {
    const signals = await list();
    const drop = signals.find((s) => s.type === 'drop');
    expect(drop).toMatchObject({ event_id: 200, operator_id: 3, price_decimal: 1.6 });
    expect(drop?.move_size).toBeCloseTo(((1.9 - 1.6) / 1.9) * 100, 4);
    const middle = signals.find((s) => s.type === 'middle');
    const sum = 1 / 1.95 + 1 / 1.9;
    expect(middle?.legs.map((l) => [l.operator_id, l.price_decimal])).toEqual([
      [1, 1.95],
      [2, 1.9],
    ]);
    expect(middle?.legs[0]?.stake).toBeCloseTo(1 / 1.95 / sum, 5);
    expect(middle?.legs[1]?.stake).toBeCloseTo(1 / 1.9 / sum, 5);
  });

  it('both are graded with their selections: the drop wins with the home side, the middle wins both legs on a total of 221', async () => {
    t.clock.set(START + 4 * 3_600_000);
    await t.import({ events: [event(200, { status: 'final', home: 111, away: 110 })] });
    await t.ctx.signals.run();
    const signals = await list();
    expect(signals.find((s) => s.type === 'drop')).toMatchObject({ outcome: 'won', profit: 0.6 });
    const middle = signals.find((s) => s.type === 'middle');
    expect(middle?.outcome).toBe('won');
    expect(middle?.profit).toBeCloseTo(2 / (1 / 1.95 + 1 / 1.9) - 1, 5);
  });
});
