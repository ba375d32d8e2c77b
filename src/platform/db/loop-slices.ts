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

/**
 * Resolves at once while the loop has been held for less than LOOP_SLICE_MS, else after one turn of
 * the loop. "Held" is measured from the first call since the loop's last check phase (an immediate
 * callback marks it), so it may count a little more than the current task, never less: at worst a
 * turn comes early.
 */
export function loopTurnIfHeld(): Promise<void> | undefined {
  const now = performance.now();
  if (heldSince === undefined) {
    heldSince = now;
    setImmediate(turned);
    return undefined;
  }
  if (now - heldSince < LOOP_SLICE_MS) return undefined;
  heldSince = undefined;
  return turnOfTheLoop();
}
