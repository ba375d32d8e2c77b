import type { Outcome } from '../../shared/settlement/grading.js';

/** One bet a signal stands for: a book's price on a selection, with its share of the signal's one unit. */
export interface SignalLeg {
  selection_id: number;
  /** The book whose price it is; null for a move of several books (the selection's grade is every book's). */
  operator_id: number | null;
  price: number;
  /** The share of the unit staked on this leg; a signal's legs add up to 1. */
  stake: number;
}

/** A signal's own outcome, from its legs'. */
export type SignalOutcome = 'won' | 'lost' | 'push' | 'void';

/** A signal graded: its outcome and what one unit staked on it won (positive) or lost (negative). */
export interface SignalGrade {
  outcome: SignalOutcome;
  profit: number;
}

/** Returns are compared with 0 to this: stakes split by division do not add up to exactly 1. */
const TOLERANCE = 1e-9;

/** What one unit staked on a leg returns (stake included) for its outcome: quarter lines settle half the stake each way. */
export function legReturn(outcome: Outcome, price: number): number {
  switch (outcome) {
    case 'won':
      return price;
    case 'half_won':
      return (price + 1) / 2;
    case 'push':
    case 'void':
      return 1;
    case 'half_lost':
      return 0.5;
    case 'lost':
      return 0;
  }
}

/**
 * A signal's grade from its legs' outcomes (docs/data.md#signals): the unit split over the legs by
 * their stakes, profit = Σ stake × leg return − 1. Void when every leg is void (no bet stood);
 * otherwise won, lost or push as the profit is above, below or at 0. A value bet is one leg: its
 * grade is its selection's (a half win is a win, at half the profit). Undefined while a leg has no
 * outcome.
 */
export function gradeSignal(legs: readonly SignalLeg[], outcomes: ReadonlyArray<Outcome | null | undefined>): SignalGrade | undefined {
  if (legs.length === 0 || outcomes.length !== legs.length) return undefined;
  let returned = 0;
  let allVoid = true;
  for (const [i, leg] of legs.entries()) {
    const outcome = outcomes[i];
    if (outcome === null || outcome === undefined) return undefined;
    if (outcome !== 'void') allVoid = false;
    returned += leg.stake * legReturn(outcome, leg.price);
  }
  if (allVoid) return { outcome: 'void', profit: 0 };
  const profit = returned - 1;
  if (Math.abs(profit) < TOLERANCE) return { outcome: 'push', profit: 0 };
  return { outcome: profit > 0 ? 'won' : 'lost', profit };
}

/** A signal's CLV%: its legs' CLV% weighted by their stakes (one leg: its own); undefined while a leg has none. */
export function signalClv(legs: readonly SignalLeg[], clvs: ReadonlyArray<number | null | undefined>): number | undefined {
  if (legs.length === 0 || clvs.length !== legs.length) return undefined;
  let sum = 0;
  for (const [i, leg] of legs.entries()) {
    const clv = clvs[i];
    if (clv === null || clv === undefined) return undefined;
    sum += leg.stake * clv;
  }
  return sum;
}
