import { DatabaseUnavailableError } from './unavailable.js';

const PAUSE_MS = 250;

/**
 * Runs `step` again while SQLite answers SQLITE_BUSY: another process held the write lock for
 * longer than busy_timeout — on a first start, another node importing the demo dataset, which
 * takes seconds on a loaded machine. Each step retried this way must be idempotent (the
 * first-start steps are: they check inside their transaction). Gives up after `withinMs`.
 */
export async function retryWhileBusy<T>(step: () => Promise<T>, withinMs = 120_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }
}

/**
 * SQLITE_BUSY itself (a statement inside a transaction fails at once), or a statement outside one
 * that waited its whole busyWaitMs for the lock (the dialect gives up then, sqlite-dialect.ts): on a
 * first start the demo import of another node can hold the lock longer than that.
 */
function isBusy(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return error.reason === 'busy';
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('SQLITE_BUSY');
}
