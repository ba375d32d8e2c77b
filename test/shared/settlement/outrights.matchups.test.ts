import { describe, expect, it } from 'vitest';
import { type Finish, gradeMatchup } from '../../../src/shared/settlement/outrights.js';
import { golf, placed, short } from './leaderboard.js';

// Hand-worked tables for matchups between a competition's participants. Pure: runs once, not per dialect.

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
