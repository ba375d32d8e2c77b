import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { oldestChangeAt } from './history-bounds.repository.js';

/**
 * What an answer "as of" an instant may ask for (decision 0317): from the oldest change the price
 * history keeps to now. Before it the history cannot say what was open; after now nothing is known.
 */
export interface AsOfBounds {
  /** The earliest changed_at kept; null when the history is empty (every instant is then out of bounds). */
  oldest: Date | null;
}

/** The bounds as the history holds them now: one index step (odds_history_changed_idx). */
export async function asOfBounds(db: Kysely<Schema>): Promise<AsOfBounds> {
  const oldest = await oldestChangeAt(db);
  return { oldest: oldest === null ? null : new Date(oldest) };
}

/** 422 VALIDATION_ERROR on `as_of` when the instant is before the oldest change kept or after `now`, stating both bounds. */
export function checkAsOf(asOf: Date, bounds: AsOfBounds, now: Date): void {
  const at = asOf.getTime();
  if (bounds.oldest !== null && at >= bounds.oldest.getTime() && at <= now.getTime()) return;
  const oldest = bounds.oldest === null ? 'the oldest change kept (none is kept yet)' : bounds.oldest.toISOString();
  throw new ApiError('VALIDATION_ERROR', `as_of must be between ${oldest} and now (${now.toISOString()})`, { details: [{ field: 'as_of', rule: 'range' }] });
}
