/**
 * The roots of the one-parameter equations that the power and Shin de-vig methods solve. Both are
 * plain iterations with a step budget: the caller turns "no root within the budget" into a typed
 * reason instead of a price that is only nearly right.
 */

/** Ample for either iteration: bisection from a width of 1 reaches 1e-15 in 50 steps, Newton in a few. */
export const DEFAULT_MAX_STEPS = 200;

/**
 * The x in [lo, hi] where f changes sign, by bisection, to within 1e-15 (the parameters solved for
 * live between −1 and a few units, so an absolute tolerance is a relative one). Bisection needs no
 * derivative and cannot leave the bracket, so it converges wherever f is continuous. Undefined when
 * f(lo) and f(hi) have the same sign (or either is NaN), or when the budget runs out.
 */
export function bisect(f: (x: number) => number, lo: number, hi: number, maxSteps = DEFAULT_MAX_STEPS): number | undefined {
  let fLo = f(lo);
  const fHi = f(hi);
  if (fLo === 0) return lo;
  if (fHi === 0) return hi;
  if (!(fLo * fHi < 0)) return undefined;
  for (let step = 0; step < maxSteps; step++) {
    const mid = lo + (hi - lo) / 2;
    if (hi - lo <= 1e-15) return mid;
    const fMid = f(mid);
    if (fMid === 0) return mid;
    if (fMid * fLo > 0) [lo, fLo] = [mid, fMid];
    else hi = mid;
  }
  return undefined;
}

/**
 * A root of a convex, decreasing f by Newton's method from a start where f > 0. On such a function
 * each tangent meets zero at or before the root, so the iterates climb to it without overshooting
 * and the method cannot diverge. A step that no longer climbs is rounding noise at the root: on a
 * flat function the noise in f ÷ f′ can exceed any fixed tolerance on the step, so that is where
 * the iteration stops. Undefined when the budget runs out or a step is not a number.
 */
export function newtonFromBelow(f: (x: number) => { value: number; slope: number }, start: number, maxSteps = DEFAULT_MAX_STEPS): number | undefined {
  let x = start;
  for (let step = 0; step < maxSteps; step++) {
    const { value, slope } = f(x);
    const move = value / slope;
    if (!Number.isFinite(move)) return value === 0 ? x : undefined;
    const next = x - move;
    if (!(next > x) || -move <= 1e-15 * Math.abs(next)) return next > x ? next : x;
    x = next;
  }
  return undefined;
}
