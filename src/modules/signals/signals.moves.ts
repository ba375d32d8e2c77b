import type { Clock } from '../../platform/clock.js';
import type { CursorSource, HistoryWork } from '../history/index.js';
import { gradesOf } from './signals.grading.js';
import type { NewSignal } from './signals.repository.js';
import { signalsRepository } from './signals.repository.js';
import { movesRepository, type OddsMove } from './signals-moves.repository.js';

/**
 * Steam moves and drops as signals (decision 0321): read from the moves table the odds module
 * fills as imports land (its detection, with its configured thresholds), by a cursor of their
 * own, and recorded as a bet on the selection at the price it moved to. A move's appearance lasts
 * its window: a move of the same kind, selection and book within it is the same appearance.

 */
export const SIGNALS_MOVES_CURSOR = 'signals: moves';

export const MOVES_SOURCE: CursorSource<OddsMove> = {
  after: (db, afterId, limit) => movesRepository.after(db, afterId, limit),
  idOf: (move) => Number(move.id),
  newest: (db) => movesRepository.newest(db),
};

/** The books of a move: a drop's one, steam's several. */
const booksOf = (move: OddsMove): number[] => (move.operator_id !== null ? [Number(move.operator_id)] : (JSON.parse(move.operator_ids) as number[]));

export function moveSignalsWork(deps: { clock: Clock }): HistoryWork<NewSignal[], OddsMove> {
  return {
    name: SIGNALS_MOVES_CURSOR,
    async compute(db, moves) {
      const found: NewSignal[] = [];
      for (const move of moves) {
        const books = booksOf(move);
        const key = `${move.kind}|${move.selection_key}|${move.operator_id ?? ''}`;
        const changedAt = Number(move.changed_at);
        const lastEnd = Math.max(await movesRepository.lastEnd(db, key) ?? -Infinity, ...found.filter((f) => f.key === key).map((f) => Number(f.ended_at)));
        if (changedAt < lastEnd) continue;
        const selection = await movesRepository.selectionOf(db, move, books);
        if (selection === undefined) continue;
        const operator = move.operator_id === null ? null : Number(move.operator_id);
        found.push({
          type: move.kind,
          key,
          event_id: Number(move.event_id),
          betting_market_id: Number(move.betting_market_id),
          selection_id: selection,
          operator_id: operator,
          position: move.position,
          line: move.line === null ? null : Number(move.line),
          price: Number(move.to_price),
          fair_probability: null,
          edge: null,
          move_size: Number(move.size),
          legs: JSON.stringify([{ selection_id: selection, operator_id: operator, price: Number(move.to_price), stake: 1 }]),
          detected_at: changedAt,
          ended_at: changedAt + Number(move.window_seconds) * 1000,
        });
      }
      const grades = await gradesOf(db, deps.clock.now(), found);
      return found.map((signal, i) => ({ ...signal, ...(grades[i] ?? {}) }));
    },
    store: (trx, made) => signalsRepository.record(trx, made, []),
    committed: async () => {},
  };
}
