import type { Clock } from '../../platform/clock.js';
import type { CursorSource, HistoryWork } from '../history/index.js';
import { gradesOf } from './signals.grading.js';
import { type SignalGradeUpdate, signalsRepository } from './signals.repository.js';

/** The grader's cursor over the grades (feed_cursors.name), made by its migration. */
export const SIGNALS_GRADES_CURSOR = 'signals: grades';

type GradeRow = { id: number; event_id: number };

/**
 * The grades as a cursor source: their ids are given in commit order, since every grading holds
 * the data-write lock from its first write to its commit, as the price history's writers do.
 */
export const GRADES_SOURCE: CursorSource<GradeRow> = {
  after: (db, afterId, limit) => signalsRepository.gradesAfter(db, afterId, limit),
  idOf: (row) => row.id,
  newest: (db) => signalsRepository.newestGrade(db),
};

/**
 * The signals' grader (decision 0321): after a grading commits (a first grade, or a re-grade that
 * supersedes one), every signal of the events it graded is graded again from the current grades,
 * with its closing-line value; what changed is written in the transaction that moves its cursor.
 */
export function signalsGraderWork(deps: { clock: Clock }): HistoryWork<SignalGradeUpdate[], GradeRow> {
  return {
    name: SIGNALS_GRADES_CURSOR,
    async compute(db, rows) {
      const signals = await signalsRepository.ofEvents(db, [...new Set(rows.map((row) => row.event_id))]);
      const grades = await gradesOf(db, deps.clock.now(), signals);
      return signals.flatMap((signal, i) => {
        const grade = grades[i];
        if (grade === undefined) return [];
        const same = grade.outcome === signal.outcome && grade.profit === numberOrNull(signal.profit) && grade.clv_pct === numberOrNull(signal.clv_pct) && grade.closing_price === numberOrNull(signal.closing_price);
        return same ? [] : [{ id: Number(signal.id), ...grade }];
      });
    },
    store: (trx, updates) => signalsRepository.grade(trx, updates),
    committed: async () => {},
  };
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));
