/** How the answer writes its prices: the `oddsFormat` the request asked for. */
export type TheOddsApiFormat = 'decimal' | 'american';

/**
 * A price of the answer as a decimal price, or undefined when it cannot be one. American odds
 * convert exactly: +150 pays 150 on 100 staked (2.5), −200 pays 100 on 200 staked (1.5); no
 * American price lies strictly between −100 and +100.
 */
export function decimalPrice(value: unknown, format: TheOddsApiFormat): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  if (format === 'decimal') return value > 1 ? value : undefined;
  if (value >= 100) return 1 + value / 100;
  if (value <= -100) return 1 + 100 / -value;
  return undefined;
}
