import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEVIG_METHODS, devig, holdOf } from '../../../src/shared/pricing/devig.js';
import { MAX_PRICE_DECIMAL } from '../../../src/shared/odds-format.js';
import { expectedValuePct } from '../../../src/shared/pricing/edges.js';

// Laws every de-vig method keeps, over generated markets, to 1e-9. Pure: runs once, not per dialect.

const RUNS = { numRuns: 500 };

/** A book's market as books quote it: 2 to 8 outcomes, prices in hundredths from 1.01 to 50.00. */
const market = fc.array(
  fc.integer({ min: 101, max: 5000 }).map((cents) => cents / 100),
  { minLength: 2, maxLength: 8 },
);

/** Any prices above 1, as doubles, long shots and near-certainties included. */
const anyMarket = fc.array(fc.double({ min: 1.000001, max: 10_000, noNaN: true }), { minLength: 2, maxLength: 12 });

/**
 * A market as a book makes one: fair probabilities, marked up by a margin of 0 to 30 % and some
 * noise per outcome, rounded to hundredths (at least 1.01).
 */
const bookMarket = fc
  .tuple(
    fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0.95, max: 1.05, noNaN: true })), { minLength: 2, maxLength: 10 }),
    fc.double({ min: 0, max: 0.3, noNaN: true }),
  )
  .map(([outcomes, margin]) => {
    const total = outcomes.reduce((a, [w]) => a + w, 0);
    return outcomes.map(([w, noise]) => Math.max(1.01, Math.round((100 * total) / (w * (1 + margin) * noise)) / 100));
  });

/** A market without margin: prices 1/p of probabilities that add up to 1 (up to rounding). */
const fairMarket = fc
  .array(fc.integer({ min: 1, max: 1000 }), { minLength: 2, maxLength: 8 })
  .map((weights) => {
    const total = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => total / w);
  })
  .filter((prices) => prices.every((d) => d > 1));

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe('de-vig laws', () => {
  it.each(DEVIG_METHODS)('%s: the fair probabilities add up to 1, and the prices are their inverses', (method) => {
    fc.assert(
      fc.property(anyMarket, (prices) => {
        const result = devig(prices, method);
        // Valid prices fail only by a probability ≤ 0 (additive, on long shots) or one that underflows
        // (power, in markets of near-certainties such as 1.000001 three times): never by the solver.
        if (!result.ok) return (method === 'additive' || method === 'power') && result.reason === 'non_positive_probability';
        expect(Math.abs(sum(result.probabilities) - 1)).toBeLessThan(1e-9);
        expect(result.hold).toBeCloseTo(sum(prices.map((d) => 1 / d)) - 1, 12);
        result.prices.forEach((fairPrice, i) => expect(fairPrice * (result.probabilities[i] ?? 0)).toBeCloseTo(1, 12));
        return true;
      }),
      RUNS,
    );
  });

  it.each(DEVIG_METHODS)('%s keeps the order of the prices: a longer price never gets a larger probability', (method) => {
    fc.assert(
      fc.property(fc.oneof(market, bookMarket), (prices) => {
        const result = devig(prices, method);
        if (!result.ok) return method === 'additive';
        prices.forEach((a, i) =>
          prices.forEach((b, j) => {
            const [p, q] = [result.probabilities[i] ?? Number.NaN, result.probabilities[j] ?? Number.NaN];
            if (a < b) expect(p).toBeGreaterThan(q);
            if (a === b) expect(p).toBe(q);
          }),
        );
        return true;
      }),
      RUNS,
    );
  });

  it('at zero margin every method gives back the implied probabilities, Shin with z = 0 and power with k = 1', () => {
    fc.assert(
      fc.property(fairMarket, (prices) => {
        const implied = prices.map((d) => 1 / d);
        for (const method of DEVIG_METHODS) {
          const result = devig(prices, method);
          expect(result.ok).toBe(true);
          if (result.ok) result.probabilities.forEach((p, i) => expect(Math.abs(p - (implied[i] ?? 0))).toBeLessThan(1e-9));
          if (result.ok && method === 'shin') expect(Math.abs(result.z ?? 1)).toBeLessThan(1e-9);
          if (result.ok && method === 'power') expect(Math.abs((result.k ?? 0) - 1)).toBeLessThan(1e-9);
        }
      }),
      RUNS,
    );
  });

  it('Shin and additive coincide on two-way markets (Clarke, Kovalchik & Ingram 2017)', () => {
    fc.assert(
      fc.property(fc.tuple(fc.double({ min: 1.001, max: 1000, noNaN: true }), fc.double({ min: 1.001, max: 1000, noNaN: true })), (prices) => {
        const [shin, additive] = [devig(prices, 'shin'), devig(prices, 'additive')];
        expect(shin.ok && additive.ok).toBe(true);
        if (shin.ok && additive.ok) shin.probabilities.forEach((p, i) => expect(Math.abs(p - (additive.probabilities[i] ?? 0))).toBeLessThan(1e-9));
      }),
      RUNS,
    );
  });

  it('on markets as books make them, multiplicative, power and Shin always give a fair price, power with Σ r^k = 1', () => {
    fc.assert(
      fc.property(bookMarket, (prices) => {
        for (const method of ['multiplicative', 'power', 'shin'] as const) expect(devig(prices, method).ok).toBe(true);
        const power = devig(prices, 'power');
        if (power.ok) expect(Math.abs(sum(prices.map((d) => (1 / d) ** (power.k ?? Number.NaN))) - 1)).toBeLessThan(1e-9);
      }),
      RUNS,
    );
  });

  it('the expected value of a fair price at its fair probability is 0', () => {
    fc.assert(
      fc.property(fc.oneof(market, bookMarket), fc.constantFrom(...DEVIG_METHODS), (prices, method) => {
        const result = devig(prices, method);
        if (result.ok) result.prices.forEach((d, i) => expect(Math.abs(expectedValuePct(d, result.probabilities[i] ?? 0))).toBeLessThan(1e-9));
      }),
      RUNS,
    );
  });

  it('a book that pays out more than it takes (a negative hold) still de-vigs, continuously through 0', () => {
    const result = devig([2.1, 2.1], 'shin');
    expect(result).toMatchObject({ ok: true, probabilities: [0.5, 0.5], hold: expect.closeTo(-0.047619, 6) });
    expect(result.ok && (result.z ?? 0) < 0).toBe(true);
    const power = devig([2.1, 2.1], 'power');
    expect(power.ok && (power.k ?? 1) < 1).toBe(true);
  });
});

describe('markets without a fair price say why', () => {
  it.each(DEVIG_METHODS)('%s: an incomplete market, or a price that is not above 1', (method) => {
    expect(devig([2.0, undefined], method)).toEqual({ ok: false, method, reason: 'incomplete_market', hold: null });
    expect(devig([1.9, null, 3.4], method)).toEqual({ ok: false, method, reason: 'incomplete_market', hold: null });
    expect(devig([1.9], method)).toEqual({ ok: false, method, reason: 'incomplete_market', hold: null });
    expect(devig([], method)).toEqual({ ok: false, method, reason: 'incomplete_market', hold: null });
    for (const bad of [1, 0.5, 0, -2, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(devig([bad, 2], method)).toEqual({ ok: false, method, reason: 'invalid_price', hold: null });
    }
    expect(holdOf([2.0, undefined])).toBeUndefined();
  });

  it('shin converges over the whole accepted range of prices, up to MAX_PRICE_DECIMAL: no_convergence is never its answer', () => {
    const price = fc.oneof(
      fc.constantFrom(1 + Number.EPSILON, 1.0000001, MAX_PRICE_DECIMAL),
      fc.double({ min: 1, max: MAX_PRICE_DECIMAL, noNaN: true, minExcluded: true }),
      fc.double({ min: 1, max: 2, noNaN: true, minExcluded: true }),
    );
    fc.assert(
      fc.property(fc.array(price, { minLength: 2, maxLength: 12 }), (prices) => {
        const result = devig(prices, 'shin');
        expect(result.ok, prices.join(', ')).toBe(true);
        if (result.ok) expect(Math.abs(sum(result.probabilities) - 1)).toBeLessThan(1e-9);
      }),
      { numRuns: 3_000 },
    );
    for (const prices of [[MAX_PRICE_DECIMAL, 1.01], [MAX_PRICE_DECIMAL, MAX_PRICE_DECIMAL], [1 + Number.EPSILON, MAX_PRICE_DECIMAL], [1 + Number.EPSILON, 1 + Number.EPSILON, MAX_PRICE_DECIMAL]]) {
      expect(devig(prices, 'shin').ok, prices.join(', ')).toBe(true);
    }
  });

  it.each(['power', 'shin'] as const)('%s: no root within the solver’s budget is no_convergence, with the hold', (method) => {
    expect(devig([2.7, 2.3, 4.4], method, { maxSteps: 1 })).toEqual({ ok: false, method, reason: 'no_convergence', hold: expect.closeTo(0.0324257, 6) });
    expect(devig([2.7, 2.3, 4.4], method).ok).toBe(true);
  });
});
