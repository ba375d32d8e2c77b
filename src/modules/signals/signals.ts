import type { Kysely } from 'kysely';
import type { BackgroundJobs } from '../../platform/background.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { Schema } from '../../platform/db/schema.js';
import { createCursorProcessor, createHistoryProcessor, type HistoryProcessor, processorsInOrder, type ProcessorsInOrder, type RecentChanges } from '../history/index.js';
import type { MiddlesOf } from './signals.candidates.js';
import { signalsDetectorWork } from './signals.detector.js';
import { GRADES_SOURCE, signalsGraderWork } from './signals.grader.js';
import { middlesFrom } from './signals.middles.js';
import { MOVES_SOURCE, moveSignalsWork } from './signals.moves.js';

export interface SignalsDeps {
  db: Kysely<Schema>;
  clock: Clock;
  changes: ChangeFeed;
  background: BackgroundJobs;
  /** A value bet is a signal from this EV% (SIGNALS_MIN_EV_PCT). */
  minEvPct: number;
  /** How often every node runs them on its own, for what a node that died left. */
  everyMs: number;
  recent?: RecentChanges;
  /** The middles of some markets (default: the odds module's, as the edges endpoint finds them). */
  middles?: MiddlesOf;
}

/**
 * The signals' record (decision 0321): the detector over the price history and the grader over
 * the grades, two background processors run after the imports and gradings that feed them, on
 * the node that made them, and on every node on a timer; and the steam moves and drops, read from
 * the moves table the odds module fills (signals.moves.ts), by a cursor of their own.
 */
export interface Signals extends ProcessorsInOrder {
  readonly detector: HistoryProcessor;
  readonly moves: HistoryProcessor;
  readonly grader: HistoryProcessor;
}

/**
 * The detector runs on this node's imports at most once per this window (a leading run, then a
 * trailing one): a busy feed makes one run a second, each over the markets of every import since,
 * and an edge that comes and goes within one window is not recorded (decision 0332).
 */
const DETECT_WINDOW_MS = 1_000;
/** The detector's work is per market touched: a window's imports are taken together, so each market is computed once. */
const DETECT_BATCH = 10_000;

export function createSignals(deps: SignalsDeps): Signals {
  const { db, clock, changes, background, everyMs } = deps;
  const detector = createHistoryProcessor({
    db,
    changes,
    background,
    everyMs,
    windowMs: DETECT_WINDOW_MS,
    batch: DETECT_BATCH,
    work: signalsDetectorWork({ clock, minEdge: deps.minEvPct / 100, middles: deps.middles ?? middlesFrom(db) }),
    ...(deps.recent === undefined ? {} : { recent: deps.recent }),
  });
  // Gradings move the data version: the grader wakes with the detector, and reads only grades after its cursor.
  const grader = createCursorProcessor({ db, changes, background, everyMs, windowMs: DETECT_WINDOW_MS, work: signalsGraderWork({ clock }), source: GRADES_SOURCE, wakeOn: 'data' });
  const moves = createCursorProcessor({ db, changes, background, everyMs, windowMs: DETECT_WINDOW_MS, work: moveSignalsWork({ clock }), source: MOVES_SOURCE, wakeOn: 'moves' });
  // Recorded first (the detector and the moves), then graded.
  return { detector, moves, grader, ...processorsInOrder([detector, moves, grader]) };
}
