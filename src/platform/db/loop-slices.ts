import { setImmediate as turnOfTheLoop } from 'node:timers/promises';

/**
 * How long synchronous SQLite work may hold the event loop before it gives the loop a turn. Under
 * it, statements run back to back; over it, the next statement waits for one turn, in which reads,
 * I/O and timers run. A turn before every statement kept the loop free but let 20 readers' answers
 * into every gap of an import, so that a 500-row import took several times as long (decision 0292).
 */
export const LOOP_SLICE_MS = 3;

/** When this code first saw the loop held without a turn since; undefined once a turn has come. */
let heldSince: number | undefined;

const turned = () => {
  heldSince = undefined;
};

/** Starts the count at `now`; the loop's next check phase (an immediate callback) ends it. */
function holdFrom(now: number): void {
  heldSince = now;
  setImmediate(turned);
}

/**
 * Resolves at once while the loop has been held for less than LOOP_SLICE_MS, else after one turn of
 * the loop. "Held" is measured from the first call since the loop's last check phase, or from the
 * end of the turn this function gave: work that resumes after its turn is counted from its first
 * instant, so a statement after a slice of work gives a turn every time, not every other time.
 * While foreground work runs (inForeground), it holds the loop to its end.
 */
export function loopTurnIfHeld(): Promise<void> | undefined {
  if (foreground.running > 0) return undefined;
  const now = performance.now();
  if (heldSince === undefined) {
    holdFrom(now);
    return undefined;
  }
  if (now - heldSince < LOOP_SLICE_MS) return undefined;
  heldSince = undefined;
  return turnOfTheLoop().then(() => {
    if (heldSince === undefined) holdFrom(performance.now());
  });
}

/**
 * Foreground first (the import thread on SQLite, decision 0335): a thread whose imports answer a
 * waiting client and whose other work (the history processors) answers nobody lets the imports
 * run from their first statement to their commit while the rest waits. Interleaved a slice each,
 * the work after the imports doubled and tripled an import's time. Off unless a thread puts it on:
 * a serving thread's turns are its readers'.
 */
const foreground: { enabled: boolean; running: number; waiting: Array<() => void> } = { enabled: false, running: 0, waiting: [] };

/** Puts this thread's foreground first (or, `false`, back beside the rest): for a thread whose background work takes no lock its foreground needs. */
export function putForegroundFirst(on = true): void {
  foreground.enabled = on;
}

/** Runs `work` as foreground: while it runs, background work waits at its next backgroundTurn. */
export async function inForeground<T>(work: () => Promise<T>): Promise<T> {
  if (!foreground.enabled) return work();
  foreground.running += 1;
  try {
    return await work();
  } finally {
    foreground.running -= 1;
    if (foreground.running === 0) for (const resume of foreground.waiting.splice(0)) resume();
  }
}

/**
 * Where background work may wait without holding anything foreground work needs (a read outside a
 * transaction, a step of its own computation): after the foreground work running now, if any, else
 * as loopTurnIfHeld.
 */
export function backgroundTurn(): Promise<void> | undefined {
  if (foreground.running > 0) return new Promise((resume) => foreground.waiting.push(resume));
  return loopTurnIfHeld();
}
