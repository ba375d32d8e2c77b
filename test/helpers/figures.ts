import { expect } from 'vitest';

/** How many decimals a number is written with (`5.435` 3, `1e-7` 7, `12` 0). */
export function decimalsOf(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  return Math.max(0, (mantissa.split('.')[1] ?? '').length - Number(exponent));
}

/**
 * A computed figure as answers write it (docs/api.md#basics): at most 6 decimals, and the
 * exact value rounded to them, so within half a millionth of it (a hair more for the double).
 */
export function expectFigure(actual: unknown, exact: number, label?: string): void {
  expect(typeof actual, label).toBe('number');
  const value = Number(actual);
  expect(decimalsOf(value), `${label ?? 'figure'}: ${value} has more than 6 decimals`).toBeLessThanOrEqual(6);
  expect(Math.abs(value - exact), `${label ?? 'figure'}: ${value} is not ${exact} to 6 decimals`).toBeLessThanOrEqual(5e-7 + Math.abs(exact) * 1e-15);
}

/** Figures as answers write them, whose exact values add up to `exact`: each is within half a millionth, so their sum within n of them. */
export function expectSumOfFigures(actual: readonly number[], exact: number, label?: string): void {
  const sum = actual.reduce((total, value) => total + value, 0);
  expect(Math.abs(sum - exact), `${label ?? 'sum'}: ${actual.join(' + ')} is not ${exact}`).toBeLessThanOrEqual(actual.length * 5e-7 + 1e-12);
}
