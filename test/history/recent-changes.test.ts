import { describe, expect, it } from 'vitest';
import { createRecentChanges, RECENT_CHAIN_HELD, RECENT_CHANGES_HELD, streamRowOf } from '../../src/modules/history/index.js';

/** An import's changes as it holds them: ids `from`..`from + count - 1`, in order. */
function changes(from: number, count: number) {
  return Array.from({ length: count }, (_, i) =>
    streamRowOf(
      from + i,
      {
        odds_id: from + i,
        event_id: 1,
        operator_id: 1,
        betting_market_id: 1,
        position: 'home',
        changed_at: 0,
        price_from: 2,
        price_to: 1.9,
        line_from: null,
        line_to: null,
        status_from: 'open',
        status_to: 'open',
        recorded_at: 0,
      },
      null,
    ),
  );
}
const ids = (rows: ReturnType<typeof changes> | readonly { item: { id: number } }[] | undefined) => rows?.map((row) => row.item.id);

describe('the changes of the newest imports, held for the readers after them', () => {
  it('consecutive imports make one chain: a reader anywhere in it takes from there to the end, up to its limit', () => {
    const recent = createRecentChanges();
    recent.hold(10, changes(11, 3));
    recent.hold(13, changes(14, 2));
    recent.hold(15, changes(16, 4));
    expect(ids(recent.after(10))).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(ids(recent.after(13))).toEqual([14, 15, 16, 17, 18, 19]);
    expect(ids(recent.after(15))).toEqual([16, 17, 18, 19]);
    expect(ids(recent.after(10, 4))).toEqual([11, 12, 13, 14]);
    expect(ids(recent.after(10, 2))).toEqual([11, 12]);
    // Inside an import (a reader that stopped at its limit): the rest of the chain from there.
    expect(ids(recent.after(12))).toEqual([13, 14, 15, 16, 17, 18, 19]);
    expect(ids(recent.after(17, 1))).toEqual([18]);
    // Past the end or before the start: the table is read.
    expect(recent.after(19)).toBeUndefined();
    expect(recent.after(9)).toBeUndefined();
  });

  it('an import that does not start at the last held change (another wrote between) starts a new chain', () => {
    const recent = createRecentChanges();
    recent.hold(10, changes(11, 3));
    recent.hold(20, changes(21, 2));
    expect(recent.after(10)).toBeUndefined();
    expect(ids(recent.after(20))).toEqual([21, 22]);
  });

  it('an import too large to hold ends the chain, and so does one of no changes', () => {
    const recent = createRecentChanges();
    recent.hold(10, changes(11, 3));
    recent.hold(13, changes(14, RECENT_CHANGES_HELD + 1));
    expect(recent.after(10)).toBeUndefined();
    recent.hold(10, changes(11, 3));
    recent.hold(13, []);
    expect(recent.after(10)).toBeUndefined();
  });

  it('holds at most its bound of changes, dropping the oldest imports first', () => {
    const recent = createRecentChanges();
    const size = 500;
    const imports = RECENT_CHAIN_HELD / size + 2;
    for (let i = 0; i < imports; i += 1) recent.hold(i * size, changes(i * size + 1, size));
    expect(recent.after(0)).toBeUndefined();
    expect(recent.after(size)).toBeUndefined();
    expect(recent.after(2 * size)?.length).toBe(RECENT_CHAIN_HELD);
    expect(ids(recent.after((imports - 1) * size))?.at(-1)).toBe(imports * size);
  });
});
