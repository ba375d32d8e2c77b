import { describe, expect, it } from 'vitest';
import { findMiddles, type MiddleRow } from '../../src/modules/odds/index.js';

// findMiddles over rows as the board reads them. Pure: runs once, not per dialect.

let nextId = 1;
function row(operator: number, position: string, line: number | null, price: number, more: Partial<MiddleRow> = {}): MiddleRow {
  return {
    id: nextId++,
    event_id: 1,
    betting_market_id: 2,
    event_period_id: null,
    player_id: null,
    position,
    line,
    is_main: true,
    operator: { id: operator },
    price,
    open: true,
    selection_id: null,
    market: { id: 2 },
    ...more,
  };
}

describe('findMiddles', () => {
  it('pairs one book\'s over with another\'s higher under: the window, the best price at each line and its books, the stakes', () => {
    const rows = [row(1, 'over', 2.5, 1.95), row(1, 'under', 2.5, 1.87), row(2, 'over', 3.5, 1.85), row(2, 'under', 3.5, 1.9), row(3, 'under', 3.5, 1.9)];
    const [middle, ...more] = findMiddles(rows);
    expect(more).toEqual([]);
    expect(middle).toMatchObject({
      kind: 'middle',
      event_id: 1,
      market: { id: 2 },
      window: { low: 2.5, high: 3.5 },
      operator_ids: [1, 2, 3],
      lines: [
        { position: 'over', line: 2.5, price: 1.95, operator_ids: [1] },
        { position: 'under', line: 3.5, price: 1.9, operator_ids: [2, 3] },
      ],
    });
    expect(middle?.stakes[0]).toBeCloseTo(49.350649, 6);
    expect(middle?.payout_outside).toBeCloseTo(96.233766, 6);
    expect(middle?.profit_pct_inside).toBeCloseTo(92.467532, 6);
  });

  it('reads a spread on the home lead: home −3.5 at one book, away +4.5 at another', () => {
    const rows = [row(1, 'home', -3.5, 1.91), row(1, 'away', 3.5, 1.91), row(2, 'home', -4.5, 2.0), row(2, 'away', 4.5, 1.91)];
    const middles = findMiddles(rows);
    expect(middles.map((m) => [m.window, m.lines.map((l) => [l.position, l.line, l.operator_ids])])).toEqual([
      [{ low: 3.5, high: 4.5 }, [['home', -3.5, [1]], ['away', 4.5, [2]]]],
    ]);
    expect(middles[0]?.stakes).toEqual([50, 50]);
  });

  it('none from one book alone, from the books not asked, from a window without a whole number, a draw market or a suspended row', () => {
    expect(findMiddles([row(1, 'over', 2.5, 1.95), row(1, 'under', 3.5, 1.9)])).toEqual([]);
    const two = [row(1, 'over', 2.5, 1.95), row(2, 'under', 3.5, 1.9)];
    expect(findMiddles(two, [1])).toEqual([]);
    expect(findMiddles(two, [1, 2])).toHaveLength(1);
    expect(findMiddles([row(1, 'over', 2.5, 1.95), row(2, 'under', 3, 1.9)])).toEqual([]);
    expect(findMiddles([row(1, 'home', -0.5, 1.95), row(2, 'away', 1.5, 1.9), row(2, 'draw', null, 3.4)])).toEqual([]);
    expect(findMiddles([row(1, 'over', 2.5, 1.95), row(2, 'under', 3.5, 1.9, { open: false })])).toEqual([]);
  });

  it('keeps markets apart: another period, player or team total is another market', () => {
    const rows = [
      row(1, 'Boston Celtics over', 110.5, 1.9),
      row(2, 'New York Knicks under', 112.5, 1.9),
      row(1, 'over', 2.5, 1.95, { event_period_id: 7 }),
      row(2, 'under', 3.5, 1.9),
    ];
    expect(findMiddles(rows)).toEqual([]);
    const props = findMiddles([row(1, 'over', 24.5, 1.9, { player_id: 9 }), row(2, 'under', 26.5, 1.9, { player_id: 9 }), row(2, 'under', 26.5, 1.9, { player_id: 8 })]);
    expect(props.map((m) => [m.player_id, m.window])).toEqual([[9, { low: 24.5, high: 26.5 }]]);
  });
});
