import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finish, gradeMatchup, gradePlaces } from '../../../src/shared/settlement/outrights.js';
import { golf } from './leaderboard.js';

// Laws of outright grading over generated fields. Pure: runs once, not per dialect.

/**
 * A field ranked as competitions rank them: scores with ties (lower is better), each participant's
 * position 1 + the number with a better score; some did not finish or start.
 */
const field = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.constantFrom('finished', 'finished', 'finished', 'finished', 'withdrawn', 'disqualified', 'non_starter', 'unplaced')), {
    minLength: 1,
    maxLength: 60,
  })
  .map((entries) =>
    entries.map(([score, status], i): Finish => {
      const position = 1 + entries.filter(([other, s]) => s === 'finished' && other < score).length;
      if (status === 'unplaced') return { participant: `p${i}`, position: null, status: 'finished' };
      return { participant: `p${i}`, position: status === 'finished' ? position : null, status };
    }),
  );

describe('laws of the dead-heat rule, over generated fields', () => {
  it('the places are shared out exactly: the factors of the field add up to the places filled', () => {
    fc.assert(
      fc.property(field, fc.integer({ min: 1, max: 25 }), (finishes, places) => {
        const grades = finishes.map((f) => gradePlaces(f.participant, places, finishes));
        const placedCount = finishes.filter((f) => f.status === 'finished' && f.position !== null).length;
        const shared = grades.reduce((total, g) => total + g.factor, 0);
        expect(shared).toBeCloseTo(Math.min(places, placedCount), 9);
        for (const g of grades) expect(g.factor >= 0 && g.factor <= 1).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a matchup pays exactly one win between its participants, or is void for all', () => {
    fc.assert(
      fc.property(
        field.filter((f) => f.length >= 3),
        fc.boolean(),
        (finishes, threeWay) => {
          const group = finishes.slice(0, threeWay ? 3 : 2).map((f) => f.participant);
          const grades = group.map((p) => gradeMatchup(p, group.filter((q) => q !== p), finishes));
          if (grades.some((g) => g.outcome === 'void')) expect(grades.every((g) => g.outcome === 'void')).toBe(true);
          else expect(grades.reduce((total, g) => total + g.factor, 0)).toBeCloseTo(1, 12);
        },
      ),
      { numRuns: 300 },
    );
  });
});
