import { isQuarterLine } from '../settlement/lines.js';
import { arbitrageStakes } from './edges.js';

/**
 * Middles (docs/data.md#middles): an over at a low line and an under at a higher one (or a spread's
 * two sides at lines that overlap) leave a window of results in which both bets win. Each bet is
 * read as the number its market settles on being above or below a threshold: over L is above L,
 * under L below L; a spread's home side at line h is the home side's lead above −h, the away side at
 * line a that lead below a.
 */

/** A bet as a middle reads it: the settling number must be above `at`, or below it. */
export interface MiddleSide {
  way: 'above' | 'below';
  at: number;
}

/**
 * The side of a bet of side word `side` (`over`, `under`, `home`, `away`) at `line`. Undefined for
 * any other side, a missing line, or a quarter line: a quarter line is two half-stake bets, whose
 * edges would make the figures outside the window differ by result.
 */
export function middleSideOf(side: string | null, line: number | null): MiddleSide | undefined {
  if (line === null || !Number.isFinite(line) || isQuarterLine(line)) return undefined;
  switch (side) {
    case 'over':
      return { way: 'above', at: line };
    case 'under':
      return { way: 'below', at: line };
    case 'home':
      // home −3.5 wins when home − away + (−3.5) > 0: the home lead above 3.5. `+ 0` makes −0 plain 0.
      return { way: 'above', at: -line + 0 };
    case 'away':
      return { way: 'below', at: line };
    default:
      return undefined;
  }
}

/**
 * The window between a bet above `low` and one below `high`: both win for a result strictly
 * between. Scores and counts are whole numbers, so a window holds a middle only when a whole number
 * lies strictly inside it: over 2.5 with under 3.5 (3 wins both), not over 2.5 with under 3 (3 wins
 * the over and pushes the under). Undefined when there is none.
 */
export function middleWindow(low: number, high: number): { low: number; high: number } | undefined {
  return Math.floor(low) + 1 < high ? { low, high } : undefined;
}

/** The stakes of a middle's two bets and what they return outside and inside its window. */
export interface MiddleSplit {
  /** The stakes out of `total`, the bet above first: stake_i = total × (1/d_i) ÷ (1/d_1 + 1/d_2). */
  stakes: [number, number];
  /** What the stakes return on a result outside the window (one bet wins, the other loses): total ÷ (1/d_1 + 1/d_2). */
  payoutOutside: number;
  /** What they return inside it (both win): twice the payout outside. */
  payoutInside: number;
  /** (payoutOutside ÷ total − 1) × 100: usually a small loss, the price of the chance of the middle. */
  profitPctOutside: number;
  /** (payoutInside ÷ total − 1) × 100. */
  profitPctInside: number;
}

/**
 * Stakes that make the payout the same on either side of the window, whichever bet wins there:
 * s_1 × d_1 = s_2 × d_2, the arbitrage's split of two prices. Inside the window both bets pay, so
 * the return is twice that. Over 2.5 at 1.95 and under 3.5 at 1.95: 50 and 50, 97.50 outside
 * (−2.5 %), 195 inside (+95 %).
 */
export function middleStakes(priceAbove: number, priceBelow: number, total = 100): MiddleSplit {
  const split = arbitrageStakes([priceAbove, priceBelow], total);
  const [above = 0, below = 0] = split.stakes;
  return {
    stakes: [above, below],
    payoutOutside: split.payout,
    payoutInside: 2 * split.payout,
    profitPctOutside: (split.payout / total - 1) * 100,
    profitPctInside: ((2 * split.payout) / total - 1) * 100,
  };
}
