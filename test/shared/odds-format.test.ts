import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { americanOf, decimalOfAmerican, fractionalOf, impliedProbabilityOf, MAX_PRICE_DECIMAL, ODDS_FORMATS, priceIn } from '../../src/shared/odds-format.js';

// Pure conversions (no database): this file runs once, not per dialect.

/** decimal ↔ American ↔ fractional ↔ implied probability, each row one price. */
const TABLE: ReadonlyArray<[decimal: number, american: number, fractional: string, implied: number]> = [
  [2.0, 100, '1/1', 0.5],
  [2.25, 125, '5/4', 0.4444],
  [1.8, -125, '4/5', 0.5556],
  [1.91, -110, '91/100', 0.5236],
  [1.5, -200, '1/2', 0.6667],
  [2.5, 150, '3/2', 0.4],
  [3.25, 225, '9/4', 0.3077],
  [1.01, -10000, '1/100', 0.9901],
  [1001.0, 100000, '1000/1', 0.001],
  [1.001, -100000, '1/1000', 0.999],
  [11, 1000, '10/1', 0.0909],
  [1.0625, -1600, '1/16', 0.9412],
  // Halves round away from zero on the exact value, where floating point would not:
  // 100/0.32 = 312.5 (floating point: 312.49999999999994), 10000/6.4 = 1562.5 (1562.4999999999998).
  [1.32, -313, '8/25', 0.7576],
  [6.4, 540, '27/5', 0.1563],
  [2.125, 113, '9/8', 0.4706],
  // A price that is not a round number of hundredths is exact all the same.
  [1.9134, -109, '4567/5000', 0.5226],
];

describe('odds formats', () => {
  it("lists the six formats, decimal first, Odditt's two last", () => {
    expect(ODDS_FORMATS).toEqual(['decimal', 'american', 'fractional', 'implied_probability', 'multiplier', 'percent']);
  });

  it.each(TABLE)("%s in Odditt's formats: the decimal payout as multiplier, and the implied probability in percent", (decimal, _american, _fractional, implied) => {
    expect(priceIn('multiplier', decimal)).toBe(decimal);
    expect(priceIn('percent', decimal)).toBeCloseTo(implied * 100, 1);
  });

  it.each(TABLE)('%s is %s American, %s fractional, %s implied', (decimal, american, fractional, implied) => {
    expect(priceIn('decimal', decimal)).toBe(decimal);
    expect(priceIn('american', decimal)).toBe(american);
    expect(priceIn('fractional', decimal)).toBe(fractional);
    expect(priceIn('implied_probability', decimal)).toBe(implied);
    expect([americanOf(decimal), fractionalOf(decimal), impliedProbabilityOf(decimal)]).toEqual([american, fractional, implied]);
  });

  it('American odds are integers, and back to the same decimal for round prices', () => {
    for (const [decimal, american] of TABLE) {
      expect(Number.isInteger(american)).toBe(true);
      const back = american > 0 ? 1 + american / 100 : 1 + 100 / -american;
      if (decimal === 2 || decimal === 2.25 || decimal === 1.8 || decimal === 1001) expect(back).toBe(decimal);
    }
  });

  it('fractions are in lowest terms and equal d − 1 exactly', () => {
    for (const [decimal, , fractional] of TABLE) {
      const [n = 0, d = 1] = fractional.split('/').map(Number);
      expect(gcd(n, d)).toBe(1);
      expect(n / d).toBeCloseTo(decimal - 1, 12);
    }
  });

  it('a price that is not above 1 (imports refuse it) still renders in the field types', () => {
    expect([priceIn('american', 1), priceIn('fractional', 1), priceIn('implied_probability', 1)]).toEqual([0, '0/1', 1]);
    expect([priceIn('american', 0.5), priceIn('fractional', Number.NaN), priceIn('implied_probability', 0)]).toEqual([0, '0/1', 1]);
  });

  it('very large prices in exponent notation are exact', () => {
    expect(priceIn('fractional', 1e21)).toBe('999999999999999999999/1');
    expect(priceIn('american', 1e21)).toBe(Number(99999999999999999999900n));
  });
});

describe('American odds back to decimal', () => {
  it('+a is 1 + a/100 and −a is 1 + 100/a; +100 and −100 are both evens', () => {
    expect(decimalOfAmerican(150)).toBe(2.5);
    expect(decimalOfAmerican(-200)).toBe(1.5);
    expect(decimalOfAmerican(-125)).toBe(1.8);
    expect(decimalOfAmerican(100)).toBe(2);
    expect(decimalOfAmerican(-100)).toBe(2);
    expect(decimalOfAmerican(-110)).toBeCloseTo(1.909090909090909, 15);
  });

  it('odds between −100 and +100, and anything not finite, are no odds', () => {
    for (const none of [0, 50, -99.5, 99, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(decimalOfAmerican(none)).toBeUndefined();
  });

  it('whole American odds come back whole through americanOf', () => {
    const american = fc.oneof(fc.integer({ min: 100, max: 100_000 }), fc.integer({ min: -100_000, max: -100 }));
    fc.assert(
      fc.property(american, (a) => {
        const back = americanOf(decimalOfAmerican(a) ?? 0);
        // −100 is evens, which americanOf writes +100.
        expect(back).toBe(a === -100 ? 100 : a);
      }),
      { numRuns: 2000 },
    );
  });
});

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

describe('odds formats over the whole accepted range of prices', () => {
  /** Every price an import takes: above 1, at most MAX_PRICE_DECIMAL, with the two ends themselves. */
  const accepted = fc.oneof(
    fc.constantFrom(1 + Number.EPSILON, 1.0000001, 1.01, MAX_PRICE_DECIMAL, MAX_PRICE_DECIMAL - 0.01, 10_001),
    fc.double({ min: 1, max: MAX_PRICE_DECIMAL, noNaN: true, minExcluded: true }),
    fc.integer({ min: 101, max: MAX_PRICE_DECIMAL * 100 }).map((hundredths) => hundredths / 100),
  );

  it('the maximum takes an outright long shot at 10,000/1', () => {
    expect(MAX_PRICE_DECIMAL).toBeGreaterThanOrEqual(10_001);
  });

  it('every format is total: American an integer, the others finite numbers or a fraction', () => {
    fc.assert(
      fc.property(accepted, (d) => {
        const american = priceIn('american', d);
        expect(Number.isInteger(american), `${d}`).toBe(true);
        expect(Math.abs(american)).toBeGreaterThanOrEqual(100);
        expect(priceIn('fractional', d)).toMatch(/^[1-9][0-9]*\/[1-9][0-9]*$/);
        for (const format of ['decimal', 'implied_probability', 'multiplier', 'percent'] as const) expect(Number.isFinite(priceIn(format, d)), `${format} ${d}`).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('the maximum is +100 × (MAX − 1) American', () => {
    expect(americanOf(MAX_PRICE_DECIMAL)).toBe((MAX_PRICE_DECIMAL - 1) * 100);
  });
});
