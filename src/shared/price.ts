/**
 * Prices are stored once, as decimal odds; the other formats are derived when an item is
 * rendered, so they can never disagree.
 */

/** American odds of a decimal price: d ≥ 2 → +round((d−1)×100), else −round(100/(d−1)). */
export function americanOf(decimal: number): number {
  if (decimal >= 2) return Math.round((decimal - 1) * 100);
  // Imports reject prices ≤ 1; 0 keeps the field an integer should one slip through.
  if (decimal <= 1) return 0;
  return -Math.round(100 / (decimal - 1));
}

/** The probability a price implies, 1/d, to 4 decimals. */
export function impliedProbabilityOf(decimal: number): number {
  return Math.round(10_000 / decimal) / 10_000;
}
