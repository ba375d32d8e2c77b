import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { validationError } from '../../platform/errors.js';
import { oldestChangeAt } from './history.repository.js';

/**
 * Reading the history as of an instant (`as_of`): what it can answer for. Before the oldest change
 * kept, the history no longer knows the prices then; after now it does not know them yet.
 */
export interface AsOfBounds {
  /** The oldest change kept; null when the history is empty. */
  oldest: Date | null;
}

/** The bounds an `as_of` must lie within, as the history holds them now. */
export async function asOfBounds(db: Kysely<Schema>): Promise<AsOfBounds> {
  const oldest = await oldestChangeAt(db);
  return { oldest: oldest === null ? null : new Date(oldest) };
}

/**
 * 422 unless `asOf` lies in [oldest change kept, now], the message stating both bounds. An empty
 * history has no instant to answer for: every `as_of` is refused, the oldest bound then named as now.
 */
export function checkAsOf(asOf: Date, bounds: AsOfBounds, now: Date): void {
  const oldest = bounds.oldest ?? now;
  if (asOf.getTime() >= oldest.getTime() && asOf.getTime() <= now.getTime() && bounds.oldest !== null) return;
  throw validationError('as_of', 'range', `as_of must be between ${oldest.toISOString()} and now (${now.toISOString()})`);
}
