/**
 * Grading against a line: whole and half lines compare once; a quarter line (−0.25, +0.75, 2.25)
 * is two bets of half the stake on the lines a quarter either side (−0.25 is half on 0 and half on
 * −0.5), each graded on its own, as Asian handicaps and totals settle.
 */

/** What one comparison with a line gives: the selection is ahead (won), level (push) or behind (lost). */
export type LineResult = 'won' | 'push' | 'lost';

/** The grade of a whole or quarter line; `halves_disagree` when one half wins and the other loses. */
export type LineGrade = LineResult | 'half_won' | 'half_lost' | 'halves_disagree';

/** A line of the form n + 0.25 or n + 0.75. Quarters are exact in binary, so the test is exact too. */
export function isQuarterLine(line: number): boolean {
  return Number.isInteger(line * 4) && !Number.isInteger(line * 2);
}

/** The two lines a quarter line splits into, lower first; undefined for any other line. */
export function halvesOf(line: number): [number, number] | undefined {
  return isQuarterLine(line) ? [line - 0.25, line + 0.25] : undefined;
}

/** The result of a selection whose margin over the line `line` is `marginAt(line)`. */
export function gradeAt(marginAt: (line: number) => number, line: number): LineGrade {
  const halves = halvesOf(line);
  if (halves === undefined) return resultOf(marginAt(line));
  return combine(resultOf(marginAt(halves[0])), resultOf(marginAt(halves[1])));
}

function resultOf(margin: number): LineResult {
  return margin > 0 ? 'won' : margin < 0 ? 'lost' : 'push';
}

/**
 * Two half-stake bets together. The two lines are half a point apart and one of them is whole, so
 * with whole-number scores one half can push but never win while the other loses; only a
 * fractional statistic can split them, and no single outcome describes that.
 */
export function combine(a: LineResult, b: LineResult): LineGrade {
  if (a === b) return a;
  if (a === 'push' || b === 'push') return a === 'won' || b === 'won' ? 'half_won' : 'half_lost';
  return 'halves_disagree';
}
