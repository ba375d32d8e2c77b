import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Devig, DEVIG_METHODS, type DevigMethod, devig } from '../../../src/shared/pricing/devig.js';

// De-vig of markets with many outcomes (outrights: a race, a tournament, a season's winner), on
// the functions themselves, to 1e-9. Pure: runs once, not per dialect.

const SIZES = [2, 3, 20, 150, 1000] as const;
const HOLDS = [0.15, 0.25, 0.4] as const;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * An outright book as books make them: the field's chances fall off as 1/rank^1.1 (in a field of
 * 150, a favourite at about 4.5 and the last runner at about 700), marked up with a favourite–longshot
 * bias (r ∝ p^0.92, so long shots carry more of the hold) to a hold of `hold`, and rounded to
 * hundredths. The rounding moves the hold a little; the laws hold for the prices as rounded.
 */
function outrightBook(n: number, hold: number, decay = 1.1): number[] {
  const weights = Array.from({ length: n }, (_, i) => (i + 1) ** -decay);
  const total = sum(weights);
  const biased = weights.map((w) => (w / total) ** 0.92);
  const scale = (1 + hold) / sum(biased);
  return biased.map((b) => Math.max(1.01, Math.round(100 / (b * scale)) / 100));
}

/** A fair result, or a failure that names the reason. */
function fair(prices: readonly number[], method: DevigMethod): Extract<Devig, { ok: true }> {
  const result = devig(prices, method);
  if (!result.ok) throw new Error(`${method} of ${prices.length} prices gave no fair price: ${result.reason}`);
  return result;
}

/** The laws of docs/data.md: the probabilities add up to 1, keep the prices' order, and the prices are their inverses. */
function expectLaws(prices: readonly number[], result: Extract<Devig, { ok: true }>): void {
  expect(result.probabilities).toHaveLength(prices.length);
  expect(Math.abs(sum(result.probabilities) - 1)).toBeLessThan(1e-9);
  expect(Math.abs(result.hold - (sum(prices.map((d) => 1 / d)) - 1))).toBeLessThan(1e-12);
  result.prices.forEach((d, i) => expect(Math.abs(d * (result.probabilities[i] ?? 0) - 1)).toBeLessThan(1e-12));
  // Sorted by price, the probabilities fall: strictly between different prices, not at all between equal ones.
  const order = prices.map((_, i) => i).sort((a, b) => (prices[a] ?? 0) - (prices[b] ?? 0));
  for (let j = 1; j < order.length; j++) {
    const [a, b] = [order[j - 1] ?? 0, order[j] ?? 0];
    const [p, q] = [result.probabilities[a] ?? Number.NaN, result.probabilities[b] ?? Number.NaN];
    if ((prices[a] ?? 0) < (prices[b] ?? 0)) expect(p).toBeGreaterThan(q);
    else expect(p).toBe(q);
  }
}

/** Additive gives no price exactly when a long shot's r is at most the share every outcome gives up. */
function additiveHasNoPrice(prices: readonly number[]): boolean {
  const implied = prices.map((d) => 1 / d);
  return Math.min(...implied) - (sum(implied) - 1) / implied.length <= 0;
}

describe('every method on outright books of 2 to 1,000 outcomes, holds of 15 to 40 %', () => {
  const cases = SIZES.flatMap((n) => HOLDS.flatMap((hold) => DEVIG_METHODS.map((method) => ({ n, hold, method }))));
  it.each(cases)('$n outcomes, hold $hold, $method', ({ n, hold, method }) => {
    const prices = outrightBook(n, hold);
    const result = devig(prices, method);
    if (method === 'additive' && additiveHasNoPrice(prices)) {
      // The one failure docs/data.md gives a long field: a long shot's r below its share of the hold.
      expect(result).toMatchObject({ ok: false, reason: 'non_positive_probability' });
      return;
    }
    expect(result.ok, result.ok ? '' : result.reason).toBe(true);
    if (result.ok) expectLaws(prices, result);
  });

  it('additive prices a long field whose longest shot stays above its share of the hold', () => {
    // 150 runners at 15 %: the last at 754.12 (r = 0.00133) against a share of 0.00100 each.
    const prices = outrightBook(150, 0.15);
    expect(additiveHasNoPrice(prices)).toBe(false);
    expectLaws(prices, fair(prices, 'additive'));
    // The same field at 40 %: the last at 619.46 (r = 0.00161) against a share of 0.00267 each.
    expect(devig(outrightBook(150, 0.4), 'additive')).toMatchObject({ ok: false, reason: 'non_positive_probability' });
  });

  it.each(DEVIG_METHODS)('%s: a book that prices 149 of 150 runners has no fair price', (method) => {
    const prices: Array<number | undefined> = outrightBook(150, 0.25);
    prices[77] = undefined;
    expect(devig(prices, method)).toEqual({ ok: false, method, reason: 'incomplete_market', hold: null });
  });

  it('the solvers converge well inside their budget on 150 and 1,000 runners: Shin in 60 steps, power in 30', () => {
    for (const n of [150, 1000]) {
      for (const hold of HOLDS) {
        expect(devig(outrightBook(n, hold), 'shin', { maxSteps: 60 }).ok).toBe(true);
        expect(devig(outrightBook(n, hold), 'power', { maxSteps: 30 }).ok).toBe(true);
      }
    }
  });
});

/**
 * A generated outright book: 2 to 200 outcomes whose chances fall off at a random rate (a field
 * from evenly matched to one with a clear favourite and runners at 1,000 and more), with a hold of
 * 15 to 40 %, a favourite–longshot bias and some noise per outcome, rounded to hundredths.
 */
const generatedBook = fc
  .record({
    n: fc.oneof(fc.constantFrom(2, 3, 20, 150), fc.integer({ min: 2, max: 200 })),
    decay: fc.double({ min: 0, max: 1.6, noNaN: true }),
    hold: fc.double({ min: 0.15, max: 0.4, noNaN: true }),
    bias: fc.double({ min: 0.85, max: 1, noNaN: true }),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 2 }),
  })
  .map(({ n, decay, hold, bias, seed }) => {
    let state = seed;
    const noise = () => {
      state = (state * 16807) % 2147483647;
      return 0.95 + (0.1 * state) / 2147483647;
    };
    const weights = Array.from({ length: n }, (_, i) => (i + 1) ** -decay * noise());
    const total = sum(weights);
    const biased = weights.map((w) => (w / total) ** bias);
    const scale = (1 + hold) / sum(biased);
    return biased.map((b) => Math.max(1.01, Math.round(100 / (b * scale)) / 100));
  });

describe('laws over generated outright books', () => {
  it.each(DEVIG_METHODS)('%s: probabilities add up to 1 within 1e-9 and keep the prices’ order', (method) => {
    fc.assert(
      fc.property(generatedBook, (prices) => {
        const result = devig(prices, method);
        if (method === 'additive' && additiveHasNoPrice(prices)) expect(result).toMatchObject({ ok: false, reason: 'non_positive_probability' });
        else if (!result.ok) throw new Error(`${method}: ${result.reason} on ${prices.join(', ')}`);
        else expectLaws(prices, result);
      }),
      { numRuns: 200 },
    );
  });

  it('Shin and power never fail to converge on fields of 150 to 400 at any accepted prices', () => {
    const price = fc.oneof(fc.double({ min: 1.01, max: 1_000_001, noNaN: true }), fc.integer({ min: 101, max: 100_000 }).map((c) => c / 100));
    fc.assert(
      fc.property(fc.array(price, { minLength: 150, maxLength: 400 }), (prices) => {
        for (const method of ['shin', 'power'] as const) {
          const result = devig(prices, method);
          // Power may find a probability too small for a finite price (a hold of thousands of percent
          // pushes k up): docs/data.md's non_positive_probability; never no_convergence.
          if (!result.ok) expect([method, result.reason]).toEqual(['power', 'non_positive_probability']);
          else expect(Math.abs(sum(result.probabilities) - 1)).toBeLessThan(1e-9);
        }
      }),
      { numRuns: 100 },
    );
  });
});

/** Fair probabilities of 2 to 200 outcomes, each at least 1/199,001 (weights of 1 to 1,000). */
const fairField = fc.array(fc.double({ min: 1, max: 1000, noNaN: true }), { minLength: 2, maxLength: 200 }).map((weights) => {
  const total = sum(weights);
  return weights.map((w) => w / total);
});

/** The book's prices of implied probabilities r, when every one is a price (r below 1, as a favourite at 0.9 with a hold of 0.4 is not). */
function pricesOf(r: readonly number[]): number[] {
  fc.pre(r.every((x) => x < 1));
  return r.map((x) => 1 / x);
}

/** `actual` is `expected` within 1e-9 of each (relatively: a long shot's small probability keeps its digits). */
function expectRecovered(actual: readonly number[], expected: readonly number[]): void {
  expected.forEach((p, i) => expect(Math.abs((actual[i] ?? Number.NaN) - p) / p).toBeLessThan(1e-9));
}

describe('each method recovers the fair probabilities from a book made by its own model', () => {
  it('multiplicative: r = p × (1 + hold)', () => {
    fc.assert(
      fc.property(fairField, fc.double({ min: 0.15, max: 0.4, noNaN: true }), (p, hold) => {
        expectRecovered(fair(pricesOf(p.map((x) => x * (1 + hold))), 'multiplicative').probabilities, p);
      }),
    );
  });

  it('additive: r = p + hold / n', () => {
    fc.assert(
      fc.property(fairField, fc.double({ min: 0.15, max: 0.4, noNaN: true }), (p, hold) => {
        expectRecovered(fair(pricesOf(p.map((x) => x + hold / p.length)), 'additive').probabilities, p);
      }),
    );
  });

  it('power: r = p^(1/k), and k itself', () => {
    fc.assert(
      fc.property(fairField, fc.double({ min: 1, max: 1.5, noNaN: true }), (p, k) => {
        const result = fair(pricesOf(p.map((x) => x ** (1 / k))), 'power');
        expectRecovered(result.probabilities, p);
        expect(Math.abs((result.k ?? Number.NaN) - k)).toBeLessThan(1e-9);
      }),
    );
  });

  it('shin: r_i = √(z p_i + (1 − z) p_i²) × Σ_j √(z p_j + (1 − z) p_j²) (Shin 1993), and z itself', () => {
    fc.assert(
      fc.property(fairField, fc.double({ min: 0.001, max: 0.2, noNaN: true }), (p, z) => {
        const roots = p.map((x) => Math.sqrt(z * x + (1 - z) * x * x));
        const result = fair(pricesOf(roots.map((root) => root * sum(roots))), 'shin');
        expectRecovered(result.probabilities, p);
        expect(Math.abs((result.z ?? Number.NaN) - z)).toBeLessThan(1e-9);
      }),
    );
  });
});

describe('closed forms', () => {
  const equal = SIZES.flatMap((n) => HOLDS.map((hold) => ({ n, hold })));
  it.each(equal)('$n equal prices at a hold of $hold: 1/n each by every method, k = ln n ÷ ln(n ÷ (1 + hold)), z = hold ÷ (n − 1)', ({ n, hold }) => {
    const prices = Array.from({ length: n }, () => n / (1 + hold));
    for (const method of DEVIG_METHODS) {
      const result = fair(prices, method);
      expect(new Set(result.probabilities).size).toBe(1);
      expect(Math.abs((result.probabilities[0] ?? 0) - 1 / n)).toBeLessThan(1e-12);
      if (method === 'power') expect(Math.abs((result.k ?? 0) - Math.log(n) / Math.log(n / (1 + hold)))).toBeLessThan(1e-9);
      if (method === 'shin') expect(Math.abs((result.z ?? 0) - hold / (n - 1))).toBeLessThan(1e-9);
    }
  });

  it.each(HOLDS)('two outcomes at a hold of %d: Shin equals additive, p = r − hold / 2', (hold) => {
    for (const favourite of [0.5, 0.6, 0.7, 0.75, 0.79]) {
      const prices = [1 / (favourite + hold / 2), 1 / (1 - favourite + hold / 2)];
      const [shin, additive] = [fair(prices, 'shin'), fair(prices, 'additive')];
      expectRecovered(shin.probabilities, [favourite, 1 - favourite]);
      expectRecovered(shin.probabilities, additive.probabilities);
    }
  });

  it.each([20, 150])('on an outright book of %i, each method’s own relation holds between r and p', (n) => {
    const prices = outrightBook(n, 0.25, 0.5);
    const r = prices.map((d) => 1 / d);
    const hold = sum(r) - 1;
    const [multiplicative, additive, power, shin] = DEVIG_METHODS.map((method) => fair(prices, method));
    r.forEach((ri, i) => {
      // multiplicative: p_i / r_i is one number, 1 / (1 + hold);
      expect(Math.abs((multiplicative?.probabilities[i] ?? 0) / ri - 1 / (1 + hold))).toBeLessThan(1e-12);
      // additive: each gives up hold / n;
      expect(Math.abs(ri - (additive?.probabilities[i] ?? 0) - hold / n)).toBeLessThan(1e-12);
      // power: ln p_i / ln r_i is k;
      expect(Math.abs(Math.log(power?.probabilities[i] ?? 0) / Math.log(ri) - (power?.k ?? 0))).toBeLessThan(1e-9);
      // shin: r_i² / Σr = z p_i + (1 − z) p_i², the model read forwards.
      const [p, z] = [shin?.probabilities[i] ?? 0, shin?.z ?? 0];
      expect(Math.abs((ri * ri) / (1 + hold) - (z * p + (1 - z) * p * p)) / (ri * ri)).toBeLessThan(1e-9);
    });
  });
});

/** `actual` rounds to `printed` at `decimals`: within half a unit of its last decimal. */
function expectPrinted(actual: readonly number[], printed: readonly number[], decimals: number): void {
  printed.forEach((value, i) => expect(Math.abs((actual[i] ?? Number.NaN) - value)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12));
}

describe('the worked examples of docs/data.md#de-vig-for-many-outcomes', () => {
  it('a 6-runner race at a hold of 18.35 %', () => {
    const prices = [2.25, 3.25, 5.5, 8, 13, 21];
    const [multiplicative, additive, power, shin] = DEVIG_METHODS.map((method) => fair(prices, method));
    expectPrinted([multiplicative?.hold ?? Number.NaN], [0.1835], 4);
    expectPrinted(multiplicative?.probabilities ?? [], [0.3755, 0.26, 0.1536, 0.1056, 0.065, 0.0402], 4);
    expectPrinted(multiplicative?.prices ?? [], [2.663, 3.846, 6.509, 9.468, 15.385, 24.853], 3);
    expectPrinted(additive?.probabilities ?? [], [0.4139, 0.2771, 0.1512, 0.0944, 0.0463, 0.017], 4);
    expectPrinted(additive?.prices ?? [], [2.416, 3.609, 6.612, 10.591, 21.58, 58.699], 3);
    expectPrinted(power?.probabilities ?? [], [0.4019, 0.2658, 0.1471, 0.0966, 0.0559, 0.0326], 4);
    expectPrinted(power?.prices ?? [], [2.488, 3.762, 6.796, 10.356, 17.873, 30.643], 3);
    expectPrinted([power?.k ?? Number.NaN], [1.1241], 4);
    expectPrinted(shin?.probabilities ?? [], [0.397, 0.269, 0.1515, 0.0988, 0.0548, 0.0288], 4);
    expectPrinted(shin?.prices ?? [], [2.519, 3.717, 6.6, 10.123, 18.264, 34.664], 3);
    expectPrinted([shin?.z ?? Number.NaN], [0.0387], 4);
  });

  it('a 150-runner golf field at a hold of 25 %, and at 15 %', () => {
    const prices = outrightBook(150, 0.25);
    const runners = [0, 1, 9, 49, 99, 149];
    const at = (values: readonly number[]) => runners.map((i) => values[i] ?? Number.NaN);
    expectPrinted(at(prices), [4.36, 8.78, 44.77, 228.23, 460.28, 693.79], 2);
    const [multiplicative, additive, power, shin] = DEVIG_METHODS.map((method) => devig(prices, method));
    expectPrinted([multiplicative?.hold ?? Number.NaN], [0.2498], 4);
    expect(multiplicative?.ok && power?.ok && shin?.ok).toBe(true);
    if (!(multiplicative?.ok && power?.ok && shin?.ok)) return;
    expectPrinted(at(multiplicative.prices), [5.45, 10.97, 55.95, 285.24, 575.26, 867.1], 2);
    expectPrinted(at(power.prices), [4.77, 10.04, 56.57, 318.76, 671.21, 1037.6], 2);
    expectPrinted(at(shin.prices), [4.89, 9.9, 52.47, 324.99, 827.87, 1544.45], 2);
    expectPrinted([power.k ?? Number.NaN, shin.z ?? Number.NaN], [1.0615, 0.0019], 4);
    expect(additive).toMatchObject({ ok: false, reason: 'non_positive_probability' });
    const share = multiplicative.hold / 150;
    expect(prices.filter((d) => 1 / d <= share)).toHaveLength(20);
    expect(Math.min(...prices.filter((d) => 1 / d <= share))).toBe(604.93);
    expect(outrightBook(150, 0.15).at(-1)).toBe(754.12);
    expect(devig(outrightBook(150, 0.15), 'additive').ok).toBe(true);
  });
});
