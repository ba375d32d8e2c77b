import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundedTo } from '../../src/shared/exact-decimal.js';
import { figure, figureOrNull } from '../../src/shared/figures.js';
import { decimalsOf } from '../helpers/figures.js';

// Pure arithmetic (no database): this file runs once, not per dialect.

/** Values and how answers write them: to 6 decimals, a half away from zero, on the decimal the double stands for. */
const TABLE: ReadonlyArray<[value: number, written: number]> = [
  // The median of 5.43 and 5.44, and of 1.6 and 1.55, in floating point.
  [5.4350000000000005, 5.435],
  [1.5750000000000002, 1.575],
  [0.1 + 0.2, 0.3],
  // Halves, away from zero on either side.
  [1.0000005, 1.000001],
  [-1.0000005, -1.000001],
  [5e-7, 0.000001],
  [-5e-7, -0.000001],
  [2.0000025, 2.000003],
  // Halves that floating point puts below the half: 1.0057135 × 10^6 is 1005713.4999999999.
  [1.0057135, 1.005714],
  [-1.0057135, -1.005714],
  [0.0079195, 0.00792],
  [2.0431025, 2.043103],
  // Not halves: to the nearest.
  [4.9999999e-7, 0],
  [1.00000049, 1],
  [-2.7023653977, -2.702365],
  [123456789.1234565, 123456789.123457],
  // Nothing to round.
  [2.675, 2.675],
  [12, 12],
  [0, 0],
  [1e21, 1e21],
  // Past 2^52 millionths a double has no seventh decimal to round (the exact path writes it as it is).
  [9007199254.7409915, 9007199254.740992],
  [-12345678901.2345675, -12345678901.234568],
];

describe('computed figures', () => {
  it.each(TABLE)('%s is written %s', (value, written) => {
    expect(figure(value)).toBe(written);
    expect(roundedTo(value, 6)).toBe(written);
  });

  it('nothing is written −0, and a value that is not finite is given back', () => {
    expect(Object.is(figure(-1e-7), 0)).toBe(true);
    expect(Object.is(figure(-0), 0)).toBe(true);
    expect(Object.is(roundedTo(-1e-7, 6), 0)).toBe(true);
    expect(figure(Number.NaN)).toBeNaN();
    expect(figure(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(figure(Number.NEGATIVE_INFINITY)).toBe(Number.NEGATIVE_INFINITY);
    expect(figureOrNull(null)).toBeNull();
    expect(figureOrNull(5.4350000000000005)).toBe(5.435);
  });

  it('roundedTo rounds to any number of places the same way', () => {
    expect(roundedTo(2.675, 2)).toBe(2.68);
    expect(roundedTo(-2.675, 2)).toBe(-2.68);
    expect(roundedTo(1.005, 2)).toBe(1.01);
    expect(roundedTo(312.5, 0)).toBe(313);
  });

  it('the fast path agrees with the exact one, on any double and on halves', () => {
    const half = fc
      .tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.boolean())
      .map(([units, negative]) => Number(`${negative ? '-' : ''}${Math.floor(units / 1e6)}.${String(units % 1e6).padStart(6, '0')}5`));
    const any = fc.double({ min: -1e12, max: 1e12, noNaN: true });
    fc.assert(
      fc.property(fc.oneof(half, any), (value) => {
        expect(figure(value)).toBe(roundedTo(value, 6));
      }),
      { numRuns: 20_000 },
    );
  });

  it('a figure has at most 6 decimals, is within half a millionth of the value, keeps its sign and is its own figure', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (value) => {
        const written = figure(value);
        expect(decimalsOf(written)).toBeLessThanOrEqual(6);
        expect(Math.abs(written - value)).toBeLessThanOrEqual(5e-7 + Math.abs(value) * 2 ** -52);
        expect(figure(written)).toBe(written);
        expect(figure(-value)).toBe(written === 0 ? 0 : -written);
      }),
      { numRuns: 20_000 },
    );
  });
});
