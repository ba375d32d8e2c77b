import { describe, expect, it } from 'vitest';
import { kellyStake } from '../../../src/shared/pricing/edges.js';
import { middleSideOf, middleStakes, middleWindow } from '../../../src/shared/pricing/middles.js';

// Middles and Kelly stakes against the hand-worked examples of docs/data.md. Pure: runs once, not per dialect.

describe('middles', () => {
  it('reads each bet as the settling number above or below a threshold: over/under at the line, a spread on the home lead', () => {
    expect(middleSideOf('over', 2.5)).toEqual({ way: 'above', at: 2.5 });
    expect(middleSideOf('under', 3.5)).toEqual({ way: 'below', at: 3.5 });
    // home −3.5 wins when the home lead is above 3.5; away +4.5 when it is below 4.5.
    expect(middleSideOf('home', -3.5)).toEqual({ way: 'above', at: 3.5 });
    expect(middleSideOf('away', 4.5)).toEqual({ way: 'below', at: 4.5 });
    expect(middleSideOf('home', 0)).toEqual({ way: 'above', at: 0 });
    expect(Object.is(middleSideOf('home', 0)?.at, 0)).toBe(true);
  });

  it('has no side for a line-less bet, another side word, or a quarter line', () => {
    expect(middleSideOf('home', null)).toBeUndefined();
    expect(middleSideOf('draw', 0.5)).toBeUndefined();
    expect(middleSideOf('yes', 0.5)).toBeUndefined();
    expect(middleSideOf(null, 2.5)).toBeUndefined();
    expect(middleSideOf('over', 2.25)).toBeUndefined();
    expect(middleSideOf('under', -0.75)).toBeUndefined();
  });

  it('is a middle only when a whole number lies strictly inside the window', () => {
    expect(middleWindow(2.5, 3.5)).toEqual({ low: 2.5, high: 3.5 });
    expect(middleWindow(2, 3.5)).toEqual({ low: 2, high: 3.5 });
    expect(middleWindow(2.5, 4)).toEqual({ low: 2.5, high: 4 });
    // 3 wins the over and pushes the under: no result wins both.
    expect(middleWindow(2.5, 3)).toBeUndefined();
    expect(middleWindow(2, 3)).toBeUndefined();
    expect(middleWindow(3.5, 3.5)).toBeUndefined();
    expect(middleWindow(3.5, 2.5)).toBeUndefined();
    // An away favourite: home +3.5 (above −3.5) with away −2.5 (below −2.5): the away side winning by 3.
    expect(middleWindow(-3.5, -2.5)).toEqual({ low: -3.5, high: -2.5 });
  });

  it('stakes that pay the same outside the window, twice that inside: over 2.5 at 1.95 and under 3.5 at 1.90', () => {
    const split = middleStakes(1.95, 1.9);
    // Σ 1/d = 0.512821 + 0.526316 = 1.039136.
    expect(split.stakes[0]).toBeCloseTo(49.350649, 6);
    expect(split.stakes[1]).toBeCloseTo(50.649351, 6);
    expect(split.stakes[0] + split.stakes[1]).toBeCloseTo(100, 12);
    expect(split.stakes[0] * 1.95).toBeCloseTo(split.payoutOutside, 12);
    expect(split.stakes[1] * 1.9).toBeCloseTo(split.payoutOutside, 12);
    expect(split.payoutOutside).toBeCloseTo(96.233766, 6);
    expect(split.profitPctOutside).toBeCloseTo(-3.766234, 6);
    expect(split.payoutInside).toBeCloseTo(192.467532, 6);
    expect(split.profitPctInside).toBeCloseTo(92.467532, 6);
  });

  it('a spread middle at 1.91 each way: 50 and 50, 95.50 outside (−4.5 %), 191 inside (+91 %)', () => {
    const split = middleStakes(1.91, 1.91);
    expect(split.stakes).toEqual([50, 50]);
    expect(split.payoutOutside).toBeCloseTo(95.5, 12);
    expect(split.profitPctOutside).toBeCloseTo(-4.5, 12);
    expect(split.payoutInside).toBeCloseTo(191, 12);
    expect(split.profitPctInside).toBeCloseTo(91, 12);
  });
});

describe('Kelly stakes', () => {
  it('f = fraction × (p × d − 1) ÷ (d − 1): 2.10 on an outcome fair at 0.5 is 4.55 % of the bankroll, half Kelly 2.27 %', () => {
    expect(kellyStake(2.1, 0.5)).toBeCloseTo(0.045455, 6);
    expect(kellyStake(2.1, 0.5, 1)).toBeCloseTo(0.05 / 1.1, 15);
    expect(kellyStake(2.1, 0.5, 0.5)).toBeCloseTo(0.022727, 6);
    expect(kellyStake(2.06, 0.5)).toBeCloseTo(0.028302, 6);
  });

  it('is 0 without a positive expected value, never negative', () => {
    expect(kellyStake(2, 0.5)).toBe(0);
    expect(kellyStake(1.91, 0.5)).toBe(0);
    expect(kellyStake(1.5, 0.1, 0.5)).toBe(0);
  });

  it('at a stake f, the expected log growth is highest: a little more or less grows less', () => {
    const growth = (f: number) => 0.5 * Math.log(1 + f * 1.1) + 0.5 * Math.log(1 - f);
    const f = kellyStake(2.1, 0.5);
    expect(growth(f)).toBeGreaterThan(growth(f + 0.001));
    expect(growth(f)).toBeGreaterThan(growth(f - 0.001));
  });
});
