import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/shared/pricing/consensus.js';
import { arbitrageOf, arbitrageStakes, closingLineValue, closingLineValuePct, expectedValuePct } from '../../../src/shared/pricing/edges.js';

// Expected value, closing-line value and arbitrage. Pure: runs once, not per dialect.

const q = (book: number, price: number): Quote<number> => ({ book, price });

describe('expected value', () => {
  it('is (price × fair probability − 1) × 100', () => {
    expect(expectedValuePct(2.1, 0.5)).toBeCloseTo(5, 12);
    expect(expectedValuePct(1.91, 0.5)).toBeCloseTo(-4.5, 12);
    expect(expectedValuePct(4, 0.25)).toBe(0);
  });
});

describe('closing-line value', () => {
  it('is (price ÷ fair closing price − 1) × 100, the expected value at the closing fair probability', () => {
    expect(closingLineValuePct(2.1, 2.0)).toBeCloseTo(5, 12);
    expect(closingLineValuePct(1.8, 2.0)).toBeCloseTo(-10, 12);
    expect(closingLineValuePct(2.1, 2.0)).toBeCloseTo(expectedValuePct(2.1, 1 / 2.0), 12);
  });

  it('against the de-vigged consensus of the books’ closing prices', () => {
    // Closing medians 1.90 / 1.90: fair evens; a bet taken at 2.05 beat the close by 2.5 %.
    const closing = [
      [q(1, 1.9), q(2, 1.85), q(3, 1.95)],
      [q(1, 1.9), q(2, 1.95), q(3, 1.85)],
    ];
    const clv = closingLineValue(2.05, closing, 0);
    expect(clv).toMatchObject({ ok: true, clvPct: expect.closeTo(2.5, 9), fairClosingPrice: expect.closeTo(2, 12) });
    expect(closingLineValue(2.05, closing, 0, 'shin')).toMatchObject({ ok: true, clvPct: expect.closeTo(2.5, 9) });
  });

  it('says why there is none: an outcome without a closing price, or an outcome the market lacks', () => {
    expect(closingLineValue(2.05, [[q(1, 1.9)], []], 0)).toEqual({ ok: false, reason: 'incomplete_market' });
    expect(closingLineValue(2.05, [[q(1, 1.9)], [q(1, 1.9)]], 2)).toEqual({ ok: false, reason: 'incomplete_market' });
  });
});

describe('arbitrage', () => {
  it('takes the best price of each outcome across books and the stakes per 100 that lock the margin', () => {
    // Book 1: home 2.10, away 1.80; book 2: home 1.95, away 2.05; book 3 matches book 2's away.
    const arb = arbitrageOf([
      [q(1, 2.1), q(2, 1.95), q(3, 2.0)],
      [q(1, 1.8), q(2, 2.05), q(3, 2.05)],
    ]);
    expect(arb?.legs).toEqual([
      { price: 2.1, books: [1] },
      { price: 2.05, books: [2, 3] },
    ]);
    // 1/2.10 + 1/2.05 = 0.963995…: stakes 49.40 and 50.60 return 103.73 whichever side wins.
    expect(arb?.impliedSum).toBeCloseTo(1 / 2.1 + 1 / 2.05, 15);
    expect(arb?.stakes.map((s) => Number(s.toFixed(2)))).toEqual([49.4, 50.6]);
    expect(Number(arb?.payout.toFixed(2))).toBe(103.73);
    expect(Number(arb?.profitPct.toFixed(2))).toBe(3.73);
  });

  it('three outcomes, and a total other than 100', () => {
    const arb = arbitrageOf([[q(1, 3.2)], [q(2, 3.6)], [q(3, 3.4)]], 1000);
    expect(arb?.stakes.reduce((a, b) => a + b, 0)).toBeCloseTo(1000, 9);
    expect(arb?.payout).toBeCloseTo(1000 / (1 / 3.2 + 1 / 3.6 + 1 / 3.4), 9);
  });

  it('none when the best prices still carry a margin, or an outcome has no price', () => {
    expect(arbitrageOf([[q(1, 1.95)], [q(2, 1.95)]])).toBeUndefined();
    expect(arbitrageOf([[q(1, 2.0)], [q(2, 2.0)]])).toBeUndefined();
    expect(arbitrageOf([[q(1, 2.5)], []])).toBeUndefined();
    expect(arbitrageOf([[q(1, 2.5)]])).toBeUndefined();
  });

  it('the stakes add up to the total and return the same payout on every outcome', () => {
    const prices = fc.array(fc.integer({ min: 101, max: 10_000 }).map((c) => c / 100), { minLength: 2, maxLength: 10 });
    fc.assert(
      fc.property(prices, fc.integer({ min: 1, max: 100_000 }), (ds, total) => {
        const split = arbitrageStakes(ds, total);
        expect(Math.abs(split.stakes.reduce((a, b) => a + b, 0) - total)).toBeLessThan(1e-9 * total);
        split.stakes.forEach((stake, i) => expect(Math.abs(stake * (ds[i] ?? 0) - split.payout)).toBeLessThan(1e-9 * split.payout));
        expect(split.profitPct).toBeCloseTo((split.payout / total - 1) * 100, 9);
      }),
      { numRuns: 500 },
    );
  });
});
