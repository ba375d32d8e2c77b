import { roundedTo } from './exact-decimal.js';

/**
 * Computed figures as answers write them (docs/api.md#basics): a number the service computes
 * from others (a median price, a fair probability, a hold, an EV%, a stake) is written to 6
 * decimals, a half away from zero, where floating point leaves digits that no input had (the median
 * of 5.43 and 5.44 is 5.4350000000000005). A value a feed imported is written as imported and never
 * comes here. The computations keep every digit: only the answer is rounded, so that a comparison
 * (an EV% against `min_edge`, an order) is the same as before the figures were rounded.
 */
export const FIGURE_DECIMALS = 6;

const SCALE = 10 ** FIGURE_DECIMALS;
/** Below this, `value × SCALE` is a double whose fraction still has bits. */
const FAST_LIMIT = 2 ** 52;

/** `value` to 6 decimals, a half away from zero, on the exact decimal it stands for. */
export function figure(value: number): number {
  const scaled = Math.abs(value) * SCALE;
  if (scaled < FAST_LIMIT) {
    // The product is within scaled × 2^-52 of the exact decimal × SCALE. Further than that from a
    // half, both round to the same integer, and the double arithmetic is exact enough; at a half,
    // the exact path decides (a board page rounds thousands of figures, and the exact path's strings
    // and BigInts cost far more than a multiplication).
    const fraction = scaled - Math.floor(scaled);
    if (Math.abs(fraction - 0.5) > scaled * 2 ** -50) {
      const units = Math.round(scaled);
      return units === 0 ? 0 : (Math.sign(value) * units) / SCALE;
    }
  }
  return roundedTo(value, FIGURE_DECIMALS);
}

export function figureOrNull(value: number | null): number | null {
  return value === null ? null : figure(value);
}
