import { describe, expect, it } from 'vitest';
import { bestPriceOf, consensusDevig, consensusOf, median, type Quote } from '../../../src/shared/pricing/consensus.js';
import { devig } from '../../../src/shared/pricing/devig.js';

// The consensus across books and the best price. Pure: runs once, not per dialect.

const q = (book: number, price: number, line: number | null = null): Quote<number> => ({ book, price, line });

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([2.1, 1.9, 2.0])).toBe(2.0);
    expect(median([2.0, 1.9])).toBeCloseTo(1.95, 15);
    expect(median([-3.5, -3, -3.5, -4])).toBe(-3.5);
    expect(median([-3, -3.5])).toBe(-3.25);
    expect(median([7])).toBe(7);
    expect(median([])).toBeUndefined();
  });

  it('does not reorder what it is given', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('consensus of a selection', () => {
  it('is the median price and the median of the lines books give', () => {
    expect(consensusOf([q(1, 1.91, -3.5), q(2, 1.87, -3), q(3, 1.95, -3.5)])).toEqual({ price: 1.91, line: -3.5 });
    // A book without a line (a moneyline) does not pull the line; none at all is null.
    expect(consensusOf([q(1, 2.1, 221.5), q(2, 2.0, null)])).toEqual({ price: 2.05, line: 221.5 });
    expect(consensusOf([q(1, 2.1), q(2, 2.3)])).toEqual({ price: 2.2, line: null });
    expect(consensusOf([])).toBeUndefined();
  });
});

describe('best price', () => {
  it('is the highest price, with every book offering exactly it, in the order given', () => {
    expect(bestPriceOf([q(4, 1.95), q(2, 2.05), q(7, 2.0), q(3, 2.05)])).toEqual({ price: 2.05, books: [2, 3] });
    expect(bestPriceOf([q(5, 1.5)])).toEqual({ price: 1.5, books: [5] });
    expect(bestPriceOf([])).toBeUndefined();
  });
});

describe('consensus fair price', () => {
  it('de-vigs the per-outcome median prices as one book', () => {
    const home = [q(1, 1.9), q(2, 1.95), q(3, 1.85)];
    const away = [q(1, 1.9), q(2, 1.87), q(3, 2.0)];
    // Medians 1.90 and 1.90: a hold of 2/1.9 − 1 and a fair price of evens either side.
    const fair = consensusDevig([home, away]);
    expect(fair).toMatchObject({ ok: true, method: 'multiplicative', hold: expect.closeTo(2 / 1.9 - 1, 12) });
    expect(fair.ok && fair.prices.map((d) => Number(d.toFixed(12)))).toEqual([2, 2]);
    expect(consensusDevig([home, away], 'shin')).toEqual(devig([1.9, 1.9], 'shin'));
  });

  it('with three outcomes and an even number of books', () => {
    const fair = consensusDevig([[q(1, 2.5), q(2, 2.6)], [q(1, 3.3), q(2, 3.2)], [q(1, 2.9), q(2, 3.0)]], 'power');
    expect(fair).toEqual(devig([2.55, 3.25, 2.95], 'power'));
  });

  it('an outcome no book prices makes the market incomplete', () => {
    expect(consensusDevig([[q(1, 1.9)], []])).toEqual({ ok: false, method: 'multiplicative', reason: 'incomplete_market', hold: null });
  });
});
