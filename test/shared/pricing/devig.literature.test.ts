import { describe, expect, it } from 'vitest';
import { decimalOfAmerican } from '../../../src/shared/odds-format.js';
import { DEFAULT_DEVIG_METHOD, type Devig, type DevigMethod, devig, holdOf } from '../../../src/shared/pricing/devig.js';

// Each method against worked examples published by others, to the precision they were printed
// with. Pure arithmetic (no database): this file runs once, not per dialect.

/** The fair result, or a failure that names the reason. */
function fair(prices: number[], method: DevigMethod): Extract<Devig, { ok: true }> {
  const result = devig(prices, method);
  if (!result.ok) throw new Error(`${method} of ${prices.join('/')} gave no fair price: ${result.reason}`);
  return result;
}

/** `actual` equals `printed` as far as `printed` goes: within half a unit of its last decimal. */
function expectPrinted(actual: readonly number[], printed: readonly number[], decimals: number): void {
  expect(actual).toHaveLength(printed.length);
  printed.forEach((value, i) => expect(Math.abs((actual[i] ?? Number.NaN) - value)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-15));
}

describe('de-vig against published worked examples', () => {
  // penaltyblog's "Implied Odds" notebook (http://docs.pena.lt/y/implied/implied.html), odds
  // 2.7 / 2.3 / 4.4 (home / draw / away), every method printed by numpy to 8 decimals.
  describe('a three-way market, all four methods (penaltyblog)', () => {
    const odds = [2.7, 2.3, 4.4];
    it('the margin', () => expect(holdOf(odds)).toBeCloseTo(0.03242570633874986, 15));
    it('multiplicative', () => expectPrinted(fair(odds, 'multiplicative').probabilities, [0.35873804, 0.42112726, 0.2201347], 8));
    it('additive', () => expectPrinted(fair(odds, 'additive').probabilities, [0.3595618, 0.42397404, 0.21646416], 8));
    it('power, with its exponent k', () => {
      const result = fair(odds, 'power');
      expectPrinted(result.probabilities, [0.3591711, 0.42373075, 0.21709815], 8);
      // Printed with every digit of a double, but a root is only as exact as the solver that found
      // it: the two agree to 1e-11.
      expect(Math.abs((result.k ?? 0) - 1.0309132393169356)).toBeLessThan(1e-9);
    });
    it('shin, with its insider share z', () => {
      const result = fair(odds, 'shin');
      expectPrinted(result.probabilities, [0.35934392, 0.42324385, 0.21741223], 8);
      expect(Math.abs((result.z ?? 0) - 0.016236442857291165)).toBeLessThan(1e-9);
    });
  });

  // The Python package `shin` (https://github.com/mberk/shin, README), which iterates until z moves
  // less than 1e-12: its figures hold to that, not to all 17 digits it prints.
  it('Shin, three-way (mberk/shin): 2.6 / 2.4 / 4.3', () => {
    const result = fair([2.6, 2.4, 4.3], 'shin');
    expectPrinted(result.probabilities, [0.37299406033208965, 0.4047794109200184, 0.2222265287474275], 11);
    expect(Math.abs((result.z ?? 0) - 0.01694251276407055)).toBeLessThan(1e-11);
  });

  // Two outcomes: `shin` computes z in closed form (Štrumbelj 2014), so its figures are exact; and
  // Clarke, Kovalchik & Ingram, "Adjusting Bookmaker's Odds to Allow for Overround" (American
  // Journal of Sports Science 5(6), 2017, doi:10.11648/j.ajss.20170506.12) show that Shin and the
  // additive method coincide for two outcomes, so the same figures check the additive method.
  it.each(['shin', 'additive'] as const)('%s, two-way (mberk/shin): 1.5 / 2.74', (method) => {
    const result = fair([1.5, 2.74], method);
    expectPrinted(result.probabilities, [0.6508515815085157, 0.3491484184914841], 14);
    if (method === 'shin') expect(Math.abs((result.z ?? 0) - 0.03172728540646625)).toBeLessThan(1e-14);
  });

  // The R package `implied` by Jonas C. Lindstrøm (https://github.com/opisthokonta/implied,
  // README): three football matches, home / draw / away, printed to 7 decimals (margins to 8).
  // Its "wpo" method (Buchdahl's margin weights proportional to the odds, p = (n − M·O)/(n·O))
  // is the additive formula rewritten: 1/O − M/n. (Its power and Shin figures for the same odds
  // differ from ours, penaltyblog's and mberk/shin's in the 6th–7th decimal: that version stopped
  // its root finder at a looser tolerance. They are not used.)
  describe('three-way markets of the `implied` package', () => {
    const matches: Array<{ odds: number[]; margin: number; basic: number[]; wpo: number[] }> = [
      { odds: [4.2, 3.7, 1.95], margin: 0.02118602, basic: [0.2331556, 0.2646631, 0.5021813], wpo: [0.2310332, 0.2632083, 0.5057585] },
      { odds: [2.45, 3.7, 2.9], margin: 0.02326112, basic: [0.3988848, 0.2641264, 0.3369888], wpo: [0.4004096, 0.2625166, 0.3370739] },
      { odds: [2.05, 3.2, 3.8], margin: 0.06346277, basic: [0.4586948, 0.2938514, 0.2474538], wpo: [0.4666506, 0.2913457, 0.2420036] },
    ];
    it.each(matches)('$odds', ({ odds, margin, basic, wpo }) => {
      expectPrinted([holdOf(odds) ?? Number.NaN], [margin], 8);
      expectPrinted(fair(odds, 'multiplicative').probabilities, basic, 7);
      expectPrinted(fair(odds, 'additive').probabilities, wpo, 7);
    });
  });

  // "How to calculate honest odds" (https://gamblers-united.com/how-to-calculate-honest-odds-animals-guide-sports-betting/):
  // 1.25 and 3 imply 80 % and 33.33 %; scaled to 100 % they are 70.59 % and 29.41 %, fair odds 1.417 and 3.4.
  it('multiplicative, two-way (gamblers-united): 1.25 / 3', () => {
    const result = fair([1.25, 3], 'multiplicative');
    expectPrinted(result.probabilities.map((p) => p * 100), [70.59, 29.41], 2);
    expectPrinted(result.prices, [1.417, 3.4], 3);
  });

  // The no-vig calculator of BettorStack (https://bettorstack.com/no-vig-calculator/): two sides at
  // −110 imply 52.38 % each, 104.76 % together, a vig of 4.76 %; the fair odds are evens.
  it('the hold of −110 / −110 is 4.76 % and the fair price evens (BettorStack)', () => {
    const side = decimalOfAmerican(-110) ?? Number.NaN;
    expectPrinted([(holdOf([side, side]) ?? Number.NaN) * 100], [4.76], 2);
    for (const method of ['multiplicative', 'additive', 'power', 'shin'] as const) {
      expectPrinted(fair([side, side], method).prices, [2, 2], 12);
    }
  });

  // Clarke et al. (2017), reproduced in the `implied` package's vignette: six runners implying
  // 0.870, 0.2, 0.1, 0.05, 0.02 and 0.01 (a margin of 25 %). Taking 0.25/6 from each leaves the two
  // longest shots below zero: the additive method has no fair price; the others do.
  it('additive gives no fair price where a long shot would go below zero (Clarke et al.)', () => {
    const odds = [0.87, 0.2, 0.1, 0.05, 0.02, 0.01].map((r) => 1 / r);
    expect(devig(odds, 'additive')).toEqual({ ok: false, method: 'additive', reason: 'non_positive_probability', hold: expect.closeTo(0.25, 12) });
    for (const method of ['multiplicative', 'power', 'shin'] as const) expect(fair(odds, method).probabilities.every((p) => p > 0)).toBe(true);
  });

  // No printed two-way example of the power method turned up; this one is exact by construction:
  // 0.6² + 0.8² = 1, so prices 1/0.6 and 1/0.8 de-vig with k = 2 to 0.36 and 0.64.
  it('power, two-way, exact by construction: k = 2', () => {
    const result = fair([1 / 0.6, 1.25], 'power');
    expect(result.k).toBeCloseTo(2, 12);
    expectPrinted(result.probabilities, [0.36, 0.64], 12);
  });

  it('multiplicative is the default method', () => {
    expect(DEFAULT_DEVIG_METHOD).toBe('multiplicative');
    expect(devig([2.7, 2.3, 4.4])).toEqual(devig([2.7, 2.3, 4.4], 'multiplicative'));
  });
});
