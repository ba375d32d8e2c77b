import fc from 'fast-check';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { OutrightGradeNumbers } from '../../../src/shared/settlement/outright-numbers.schema.js';
import { type Finish, gradeEachWay, gradeMatchup, gradePlaces, type OutrightGrade, returnOf } from '../../../src/shared/settlement/outrights.js';

// Hand-worked tables for the markets of a competition with many participants. Pure: runs once, not per dialect.

const placed = (participant: string, position: number): Finish => ({ participant, position, status: 'finished' });

/**
 * A golf leaderboard with ties, ranked as golf ranks them (1, T2, 4, T5, 8, T9, 13): B and C share
 * 2nd and 3rd, E, F and G 5th to 7th, I to L 9th to 12th. N missed the cut, O withdrew during play,
 * P was disqualified, Q never teed off, and R is not named at all.
 */
const golf: Finish[] = [
  placed('A', 1),
  placed('B', 2),
  placed('C', 2),
  placed('D', 4),
  placed('E', 5),
  placed('F', 5),
  placed('G', 5),
  placed('H', 8),
  placed('I', 9),
  placed('J', 9),
  placed('K', 9),
  placed('L', 9),
  placed('M', 13),
  { participant: 'N', position: null, status: 'finished' },
  { participant: 'O', position: null, status: 'withdrawn' },
  { participant: 'P', position: null, status: 'disqualified' },
  { participant: 'Q', position: null, status: 'non_starter' },
];

/** The outcome and factor, as one word: `won`, `lost`, `void`, `dead_heat 1/3`. */
function short(g: OutrightGrade): string {
  if (g.outcome !== 'dead_heat') return g.outcome;
  const { places_left: left, tied } = g.numbers;
  expect(g.factor).toBeCloseTo((left ?? 0) / (tied ?? 1), 15);
  return `dead_heat ${left}/${tied}`;
}

type Case = [participant: string, places: number, expected: string, factor: number];

describe('winner, podium and top-N on a golf leaderboard with ties', () => {
  it.each<Case>([
    ['A', 1, 'won', 1],
    ['B', 1, 'lost', 0],
    ['A', 3, 'won', 1],
    ['B', 3, 'won', 1], // two tied for 2nd with places 2 and 3 left: both inside
    ['C', 3, 'won', 1],
    ['D', 3, 'lost', 0],
    ['D', 5, 'won', 1],
    ['E', 5, 'dead_heat 1/3', 1 / 3], // three tied for 5th in a top-5: one place for three
    ['F', 5, 'dead_heat 1/3', 1 / 3],
    ['G', 5, 'dead_heat 1/3', 1 / 3],
    ['H', 5, 'lost', 0],
    ['E', 10, 'won', 1],
    ['H', 10, 'won', 1],
    ['I', 10, 'dead_heat 2/4', 1 / 2], // four tied for 9th in a top-10: places 9 and 10 for four
    ['L', 10, 'dead_heat 2/4', 1 / 2],
    ['M', 10, 'lost', 0],
    ['M', 20, 'won', 1],
    ['L', 20, 'won', 1],
  ])('%s, first %i: %s', (participant, places, expected, factor) => {
    const grade = gradePlaces(participant, places, golf);
    expect(short(grade)).toBe(expected);
    expect(grade.factor).toBeCloseTo(factor, 15);
  });

  it.each<Case>([
    ['N', 20, 'lost', 0], // missed the cut: took part, not placed
    ['O', 20, 'lost', 0], // withdrew after starting
    ['P', 20, 'lost', 0], // disqualified
    ['R', 20, 'lost', 0], // not named: took part, not placed
    ['Q', 1, 'void', 0], // never started: the stake is returned
    ['Q', 20, 'void', 0],
  ])('%s, first %i: %s', (participant, places, expected, factor) => {
    const grade = gradePlaces(participant, places, golf);
    expect(short(grade)).toBe(expected);
    expect(grade.factor).toBe(factor);
  });

  it('gives the numbers it used', () => {
    expect(gradePlaces('E', 5, golf)).toEqual({
      outcome: 'dead_heat',
      factor: 1 / 3,
      numbers: { position: 5, status: 'finished', places: 5, ahead: 4, tied: 3, places_left: 1, rivals: null },
    });
    expect(gradePlaces('Q', 1, golf).numbers).toEqual({ position: null, status: 'non_starter', places: 1, ahead: null, tied: null, places_left: null, rivals: null });
    expect(gradePlaces('R', 1, golf).numbers.status).toBeNull();
    expect(gradePlaces('H', 5, golf).numbers).toMatchObject({ ahead: 7, tied: 1, places_left: 0 });
  });
});

describe('the table of docs/data.md#dead-heats', () => {
  type Row = [bet: string, participant: string, places: number, ahead: number, tied: number, placesLeft: number, expected: string];
  it.each<Row>([
    ['A to win', 'A', 1, 0, 1, 1, 'won'],
    ['B to win', 'B', 1, 1, 2, 0, 'lost'],
    ['B on the podium', 'B', 3, 1, 2, 2, 'won'],
    ['E top 5', 'E', 5, 4, 3, 1, 'dead_heat 1/3'],
    ['D top 5', 'D', 5, 3, 1, 2, 'won'],
    ['H top 10', 'H', 10, 7, 1, 3, 'won'],
    ['I top 10', 'I', 10, 8, 4, 2, 'dead_heat 2/4'],
    ['M top 20', 'M', 20, 12, 1, 8, 'won'],
  ])('%s', (_, participant, places, ahead, tied, placesLeft, expected) => {
    const grade = gradePlaces(participant, places, golf);
    expect(grade.numbers).toMatchObject({ ahead, tied, places_left: placesLeft });
    expect(short(grade)).toBe(expected);
  });

  it('E top 5 at 4.50 returns 1.50 per unit', () => expect(returnOf(gradePlaces('E', 5, golf), 4.5)).toBeCloseTo(1.5, 15));
});

describe('dead heats elsewhere in the order', () => {
  it('two tied for 1st share a winner bet: half the stake each', () => {
    const field = [placed('X', 1), placed('Y', 1), placed('Z', 3)];
    expect(short(gradePlaces('X', 1, field))).toBe('dead_heat 1/2');
    expect(short(gradePlaces('Y', 1, field))).toBe('dead_heat 1/2');
    expect(short(gradePlaces('Z', 1, field))).toBe('lost');
    expect(short(gradePlaces('Z', 3, field))).toBe('won');
  });

  it('two tied for 4th in a top-5 are both inside: places 4 and 5 for two', () => {
    const field = [placed('A', 1), placed('B', 2), placed('C', 3), placed('D', 4), placed('E', 4), placed('F', 6)];
    expect(gradePlaces('D', 5, field)).toMatchObject({ outcome: 'won', factor: 1, numbers: { ahead: 3, tied: 2, places_left: 2 } });
    expect(gradePlaces('E', 5, field).outcome).toBe('won');
    expect(gradePlaces('F', 5, field).outcome).toBe('lost');
  });

  it('a ranking that does not skip after ties (1, 2, 2, 3) is read by the count ahead', () => {
    const dense = [placed('A', 1), placed('B', 2), placed('C', 2), placed('D', 3)];
    expect(short(gradePlaces('D', 3, dense))).toBe('lost'); // places 1 to 3 went to A, B and C
    expect(short(gradePlaces('C', 3, dense))).toBe('won');
  });

  it('results that name only the first few are read by the position', () => {
    const partial = [placed('A', 1), placed('B', 2), placed('C', 7)];
    expect(short(gradePlaces('C', 5, partial))).toBe('lost');
    expect(short(gradePlaces('C', 10, partial))).toBe('won');
  });

  it('a withdrawn or disqualified participant holds no place, whatever position the feed gives it', () => {
    const field: Finish[] = [
      { participant: 'W', position: 1, status: 'withdrawn' },
      { participant: 'V', position: 1, status: 'disqualified' },
      placed('X', 1),
      placed('Y', 2),
    ];
    expect(short(gradePlaces('W', 1, field))).toBe('lost');
    expect(short(gradePlaces('V', 1, field))).toBe('lost');
    expect(gradePlaces('X', 1, field)).toMatchObject({ outcome: 'won', factor: 1, numbers: { tied: 1 } });
  });

  it('the places must be a whole number of at least 1', () => {
    for (const places of [0, -1, 2.5, Number.NaN]) expect(() => gradePlaces('A', places, golf)).toThrow(RangeError);
  });
});

describe('each-way: a win part at the price and a place part at a fraction of the odds', () => {
  type EachWayCase = [participant: string, win: string, place: string, returned: number];
  // 21.0 each way at 1/5 the odds for 5 places: the place part is 1 + 20 / 5 = 5.0. The return is per
  // unit on each part (two units staked in all).
  it.each<EachWayCase>([
    ['A', 'won', 'won', 21 + 5], // won: both parts
    ['B', 'lost', 'won', 5], // tied 2nd: placed
    ['D', 'lost', 'won', 5],
    ['E', 'lost', 'dead_heat 1/3', 5 / 3], // three tied for 5th: a third of the place part at 5.0
    ['H', 'lost', 'lost', 0],
    ['O', 'lost', 'lost', 0], // withdrawn
    ['Q', 'void', 'void', 2], // never started: both stakes back
  ])('%s: win %s, place %s, returns %d of 2', (participant, win, place, returned) => {
    const grade = gradeEachWay(participant, 5, 1 / 5, 21, golf);
    expect(grade.place.place_price).toBe(5);
    expect([short(grade.win), short(grade.place)]).toEqual([win, place]);
    expect(returnOf(grade.win, 21) + returnOf(grade.place, grade.place.place_price)).toBeCloseTo(returned, 12);
  });

  it('a dead heat for 1st halves the win part and leaves the place part whole: 9.0 at 1/4 for 3 places', () => {
    const field = [placed('X', 1), placed('Y', 1), placed('Z', 3)];
    const grade = gradeEachWay('X', 3, 1 / 4, 9, field);
    expect(grade.win).toMatchObject({ outcome: 'dead_heat', factor: 1 / 2 });
    expect(grade.place).toMatchObject({ outcome: 'won', factor: 1, place_price: 3 });
    expect(returnOf(grade.win, 9) + returnOf(grade.place, grade.place.place_price)).toBe(4.5 + 3);
  });

  it('the terms must make sense', () => {
    for (const fraction of [0, -0.2, 1.5, Number.NaN]) expect(() => gradeEachWay('A', 5, fraction, 21, golf)).toThrow(RangeError);
    for (const price of [1, 0.5, Number.POSITIVE_INFINITY]) expect(() => gradeEachWay('A', 5, 1 / 5, price, golf)).toThrow(RangeError);
    expect(() => gradeEachWay('A', 0, 1 / 5, 21, golf)).toThrow(RangeError);
  });
});

describe('matchups between participants: the best finisher wins', () => {
  type MatchupCase = [participant: string, rivals: string[], expected: string];
  it.each<MatchupCase>([
    ['A', ['B'], 'won'],
    ['B', ['A'], 'lost'],
    ['B', ['C'], 'dead_heat 1/2'], // tied for 2nd
    ['E', ['F', 'G'], 'dead_heat 1/3'], // three-way, all tied for 5th
    ['E', ['F', 'H'], 'dead_heat 1/2'], // E and F tie for best of the three
    ['H', ['E', 'F'], 'lost'],
    ['D', ['E', 'M'], 'won'],
    ['D', ['Q'], 'void'], // a non-starter voids the matchup, for every side
    ['Q', ['D'], 'void'],
    ['A', ['B', 'Q'], 'void'],
    ['M', ['N'], 'won'], // placed beats missed the cut
    ['N', ['O'], 'won'], // finished (missed the cut) beats withdrew
    ['N', ['P'], 'won'], // and beats disqualified
    ['R', ['O'], 'won'], // not named: took part and finished unplaced
    ['O', ['P'], 'dead_heat 1/2'], // neither finished, no positions: a tie
    ['N', ['R'], 'dead_heat 1/2'], // neither placed
  ])('%s against %j: %s', (participant, rivals, expected) => {
    expect(short(gradeMatchup(participant, rivals, golf))).toBe(expected);
  });

  it('among those who did not finish, the position the results give still counts', () => {
    const race: Finish[] = [placed('S', 1), { participant: 'T', position: 18, status: 'withdrawn' }, { participant: 'U', position: 19, status: 'withdrawn' }];
    expect(short(gradeMatchup('T', ['U'], race))).toBe('won');
    expect(short(gradeMatchup('S', ['T'], race))).toBe('won');
    expect(short(gradeMatchup('U', ['S', 'T'], race))).toBe('lost');
  });

  it('gives the numbers it used, the rivals included', () => {
    expect(gradeMatchup('E', ['F', 'H'], golf)).toEqual({
      outcome: 'dead_heat',
      factor: 1 / 2,
      numbers: {
        position: 5,
        status: 'finished',
        places: 1,
        ahead: 0,
        tied: 2,
        places_left: 1,
        rivals: [
          { participant: 'F', position: 5, status: 'finished' },
          { participant: 'H', position: 8, status: 'finished' },
        ],
      },
    });
    expect(gradeMatchup('R', ['Q'], golf).numbers.rivals).toEqual([{ participant: 'Q', position: null, status: 'non_starter' }]);
  });

  it('a matchup needs a rival, and names each participant once', () => {
    expect(() => gradeMatchup('A', [], golf)).toThrow(RangeError);
    expect(() => gradeMatchup('A', ['A'], golf)).toThrow(RangeError);
    expect(() => gradeMatchup('A', ['B', 'B'], golf)).toThrow(RangeError);
  });
});

describe('what a grade returns', () => {
  it('the price when won, nothing when lost, the stake when void, the factor of the price in a dead heat', () => {
    expect(returnOf({ outcome: 'won', factor: 1 }, 4)).toBe(4);
    expect(returnOf({ outcome: 'lost', factor: 0 }, 4)).toBe(0);
    expect(returnOf({ outcome: 'void', factor: 0 }, 4)).toBe(1);
    expect(returnOf({ outcome: 'dead_heat', factor: 1 / 3 }, 4.5)).toBeCloseTo(1.5, 15);
  });
});

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

  it('the numbers of every grade fit the schema the wire shows them by', () => {
    fc.assert(
      fc.property(field, fc.integer({ min: 1, max: 25 }), (finishes, places) => {
        const names = [...finishes.map((f) => f.participant), 'not named'];
        for (const name of names) {
          expect(Value.Check(OutrightGradeNumbers, gradePlaces(name, places, finishes).numbers)).toBe(true);
          const rival = names.find((other) => other !== name) ?? 'another';
          expect(Value.Check(OutrightGradeNumbers, gradeMatchup(name, [rival], finishes).numbers)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
    expect(Value.Check(OutrightGradeNumbers, { ...gradePlaces('A', 1, golf).numbers, extra: 1 })).toBe(false);
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
