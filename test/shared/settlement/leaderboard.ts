import { expect } from 'vitest';
import type { Finish, OutrightGrade } from '../../../src/shared/settlement/outrights.js';

// A leaderboard and a way to read grades, shared by the outright grading tests.

export const placed = (participant: string, position: number): Finish => ({ participant, position, status: 'finished' });

/**
 * A golf leaderboard with ties, ranked as golf ranks them (1, T2, 4, T5, 8, T9, 13): B and C share
 * 2nd and 3rd, E, F and G 5th to 7th, I to L 9th to 12th. N missed the cut, O withdrew during play,
 * P was disqualified, Q never teed off, and R is not named at all.
 */
export const golf: Finish[] = [
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
export function short(g: OutrightGrade): string {
  if (g.outcome !== 'dead_heat') return g.outcome;
  const { places_left: left, tied } = g.numbers;
  expect(g.factor).toBeCloseTo((left ?? 0) / (tied ?? 1), 15);
  return `dead_heat ${left}/${tied}`;
}
