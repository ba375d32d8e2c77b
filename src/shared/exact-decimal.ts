/**
 * Exact arithmetic on the decimal a double stands for. A double is read as the shortest decimal
 * that gives it back (what String(value) writes: 1.91 is "1.91", 5.4350000000000005 is
 * "5.4350000000000005"), and the arithmetic runs on integers (BigInt), so that halves are halves:
 * 100 / 0.32 is 312.5 here, where floating point gives 312.49999999999994.
 */

/** A positive rational n/d in lowest terms. */
export interface Ratio {
  n: bigint;
  d: bigint;
}

/**
 * The exact value of the shortest decimal that reads back as `value` (what String(value) writes,
 * "1.91" or "1e+21"); undefined for a value that is not a positive finite number.
 */
export function exactValue(value: number): Ratio | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const [mantissa = '0', exponent = '0'] = String(value).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const shift = Number(exponent) - fraction.length;
  const digits = BigInt(whole + fraction);
  return shift >= 0 ? reduced(digits * 10n ** BigInt(shift), 1n) : reduced(digits, 10n ** BigInt(-shift));
}

export function reduced(n: bigint, d: bigint): Ratio {
  const divisor = gcd(n, d);
  return { n: n / divisor, d: d / divisor };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** a / b rounded to the nearest integer, halves away from zero (a, b > 0). */
export function roundedQuotient(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/**
 * `value` to `places` decimals, a half away from zero, on the exact decimal it stands for:
 * 1.0000005 is 1.000001 and −1.0000005 is −1.000001 to 6 (floating point makes the first
 * 1000000.4999999999 millionths). The result is the double nearest the rounded decimal; a value
 * that is not finite is given back as it is, and nothing rounds to −0.
 */
export function roundedTo(value: number, places: number): number {
  const exact = exactValue(Math.abs(value));
  if (exact === undefined) return Number.isFinite(value) ? 0 : value;
  const units = roundedQuotient(10n ** BigInt(places) * exact.n, exact.d);
  const rounded = Number(`${units}e-${places}`);
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}
