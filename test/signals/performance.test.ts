import { describe, expect, it } from 'vitest';
import { edgeBucketOf, meanInterval, performanceOf, wilsonInterval } from '../../src/modules/signals/signals.performance.js';
import { gradeSignal, legReturn, signalClv } from '../../src/modules/signals/signals.settle.js';

/** The sums' arithmetic against figures worked by hand (docs/data.md#signals shows the same). */
describe('signal grades and performance sums', () => {
  it('grades one leg as its selection: a win returns price − 1, a loss −1, a push and a void 0, a half win half the profit', () => {
    const leg = [{ selection_id: 1, operator_id: 1, price: 2.1, stake: 1 }];
    expect(gradeSignal(leg, ['won'])?.outcome).toBe('won');
    expect(gradeSignal(leg, ['won'])?.profit).toBeCloseTo(1.1, 12);
    expect(gradeSignal(leg, ['lost'])).toEqual({ outcome: 'lost', profit: -1 });
    expect(gradeSignal(leg, ['push'])).toEqual({ outcome: 'push', profit: 0 });
    expect(gradeSignal(leg, ['void'])).toEqual({ outcome: 'void', profit: 0 });
    expect(gradeSignal(leg, ['half_won'])?.profit).toBeCloseTo(0.55, 12);
    expect(gradeSignal(leg, ['half_lost'])).toEqual({ outcome: 'lost', profit: -0.5 });
    expect(gradeSignal(leg, [null])).toBeUndefined();
    expect(legReturn('won', 3)).toBe(3);
  });

  it('grades an arbitrage as the unit split by its stakes: won by its margin whichever side wins', () => {
    const sum = 1 / 2.15 + 1 / 1.95;
    const legs = [
      { selection_id: 1, operator_id: 3, price: 2.15, stake: 1 / 2.15 / sum },
      { selection_id: 2, operator_id: 1, price: 1.95, stake: 1 / 1.95 / sum },
    ];
    for (const outcomes of [['won', 'lost'], ['lost', 'won']] as const) {
      const graded = gradeSignal(legs, outcomes);
      expect(graded?.outcome).toBe('won');
      expect(graded?.profit).toBeCloseTo(0.022560975609756, 12);
    }
    expect(gradeSignal(legs, ['void', 'void'])).toEqual({ outcome: 'void', profit: 0 });
    // CLV weighted by stake: 7.5% and −2.5% at 0.4756… and 0.5243… is 2.256098%.
    expect(signalClv(legs, [7.5, -2.5])).toBeCloseTo(2.256097560975609, 12);
    expect(signalClv(legs, [7.5, null])).toBeUndefined();
  });

  it('the Wilson interval of 2 in 4 and 3 in 4, and none of 0 trials', () => {
    const half = wilsonInterval(2, 4);
    expect(half?.low).toBeCloseTo(0.150035708820171, 12);
    expect(half?.high).toBeCloseTo(0.849964291179829, 12);
    const three = wilsonInterval(3, 4);
    expect(three?.low).toBeCloseTo(0.300636052442637, 12);
    expect(three?.high).toBeCloseTo(0.954413937355364, 12);
    expect(wilsonInterval(0, 3)?.low).toBe(0);
    expect(wilsonInterval(0, 3)?.high).toBeCloseTo(0.561506080449018, 12);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('the ROI interval is mean ± 1.96 × s ÷ √n with the sample standard deviation, none below two', () => {
    const { mean, interval } = meanInterval([1.1, -1, 0, 0.95, -1]);
    expect(mean).toBeCloseTo(0.01, 12);
    expect(interval?.low).toBeCloseTo(-0.878725469422363, 12);
    expect(interval?.high).toBeCloseTo(0.898725469422363, 12);
    expect(meanInterval([0.5])).toEqual({ mean: 0.5, interval: null });
    expect(meanInterval([])).toEqual({ mean: null, interval: null });
  });

  it('sums a slate: pushes and voids out of the hit rate, voids out of the ROI, pending counted apart', () => {
    const stats = performanceOf([
      { outcome: 'won', profit: 1.1, clv_pct: 5 },
      { outcome: 'lost', profit: -1, clv_pct: 10 },
      { outcome: 'push', profit: 0, clv_pct: null },
      { outcome: 'won', profit: 0.95, clv_pct: -1 },
      { outcome: 'lost', profit: -1, clv_pct: 2 },
      { outcome: 'void', profit: 0, clv_pct: 3 },
      { outcome: null, profit: null, clv_pct: null },
    ]);
    expect(stats).toMatchObject({ count: 7, won: 2, lost: 2, push: 1, void: 1, pending: 1, hit_rate: 0.5, clv_count: 5 });
    expect(stats.hit_rate_interval?.low).toBeCloseTo(0.150035708820171, 12);
    expect(stats.roi).toBeCloseTo(0.01, 12);
    expect(stats.roi_interval?.low).toBeCloseTo(-0.878725469422363, 12);
    expect(stats.mean_clv_pct).toBeCloseTo(3.8, 12);
  });

  it('edge buckets: 0–2%, 2–5%, 5–10%, 10% and up, each from its low bound; a move has none', () => {
    expect([0, 0.0199, 0.02, 0.0499, 0.05, 0.0999, 0.1, 0.35].map(edgeBucketOf)).toEqual(['0-2%', '0-2%', '2-5%', '2-5%', '5-10%', '5-10%', '10%+', '10%+']);
    expect(edgeBucketOf(null)).toBeUndefined();
    expect(edgeBucketOf(-0.01)).toBeUndefined();
  });
});
