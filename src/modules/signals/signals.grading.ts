import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Outcome } from '../../shared/settlement/grading.js';
import { closingLineValues } from '../results/index.js';
import { signalsRepository } from './signals.repository.js';
import { gradeSignal, type SignalLeg, signalClv } from './signals.settle.js';

/** What grading writes of a signal: null while its legs are not all graded. */
export interface SignalGrading {
  outcome: string | null;
  profit: number | null;
  closing_price: number | null;
  clv_pct: number | null;
  graded_at: number | null;
}

const UNGRADED: SignalGrading = { outcome: null, profit: null, closing_price: null, clv_pct: null, graded_at: null };

/** A signal's legs, as stored. */
export const legsOf = (signal: { legs: string }): SignalLeg[] => JSON.parse(signal.legs) as SignalLeg[];

/**
 * The grades of some signals from their selections' current grades (docs/data.md#signals), and,
 * once graded, their closing-line value as POST /v1/results/clv gives it: each leg's price against
 * the no-vig consensus of the books' closing prices of its market. A leg's outcome is its own
 * book's grade of the selection, else any book's (a move of several books has none of its own).
 */
export async function gradesOf(db: Kysely<Schema>, now: number, signals: ReadonlyArray<{ event_id: number; legs: string }>): Promise<SignalGrading[]> {
  if (signals.length === 0) return [];
  const eventIds = [...new Set(signals.map((signal) => Number(signal.event_id)))];
  const ownBook = new Map<string, Outcome | null>();
  const anyBook = new Map<number, Outcome | null>();
  for (const row of await signalsRepository.currentOutcomes(db, eventIds)) {
    if (row.selection_id === null) continue;
    ownBook.set(`${row.selection_id}|${row.operator_id}`, row.outcome);
    if (row.outcome !== null) anyBook.set(row.selection_id, row.outcome);
  }
  const verdicts = signals.map((signal) => {
    const legs = legsOf(signal);
    const outcomes = legs.map((leg) => (leg.operator_id === null ? undefined : ownBook.get(`${leg.selection_id}|${leg.operator_id}`)) ?? anyBook.get(leg.selection_id));
    return { legs, graded: gradeSignal(legs, outcomes) };
  });
  // Every graded leg's price against the close in one call: each event's closing history is read once for the batch, not once per signal.
  const asked = verdicts.flatMap(({ legs, graded }) => (graded === undefined ? [] : legs));
  const values =
    asked.length === 0
      ? []
      : await closingLineValues(
          db,
          now,
          asked.map((leg) => ({ event_betting_market_position_id: leg.selection_id, operator_id: leg.operator_id ?? 0, price: leg.price })),
        );
  const out: SignalGrading[] = [];
  let next = 0;
  for (const { legs, graded: done } of verdicts) {
    if (done === undefined) {
      out.push(UNGRADED);
      continue;
    }
    const own = values.slice(next, next + legs.length);
    next += legs.length;
    const clv = signalClv(
      legs,
      own.map((value) => value.clv_pct),
    );
    out.push({ outcome: done.outcome, profit: done.profit, closing_price: legs.length === 1 ? (own[0]?.closing_price ?? null) : null, clv_pct: clv ?? null, graded_at: now });
  }
  return out;
}
