import { describe, expect, it } from 'vitest';
import { type Finish, gradeEachWay, gradePlaces, returnOf } from '../../../src/shared/settlement/outrights.js';
import { golf, placed, short } from './leaderboard.js';

// Hand-worked tables for winner, top-N, podium and each-way bets on a competition. Pure: runs once, not per dialect.

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

describe('what a grade returns', () => {
  it('the price when won, nothing when lost, the stake when void, the factor of the price in a dead heat', () => {
    expect(returnOf({ outcome: 'won', factor: 1 }, 4)).toBe(4);
    expect(returnOf({ outcome: 'lost', factor: 0 }, 4)).toBe(0);
    expect(returnOf({ outcome: 'void', factor: 0 }, 4)).toBe(1);
    expect(returnOf({ outcome: 'dead_heat', factor: 1 / 3 }, 4.5)).toBeCloseTo(1.5, 15);
  });
});
