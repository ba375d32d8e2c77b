import { validationError } from '../../platform/errors.js';
import { MAX_RANGE_DAYS, type UsageQuery } from './usage.schemas.js';
import { DAY_MS, utcDay } from '../../platform/time.js';

/** A range of whole UTC days, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

/** No usage is older than the clock's epoch; a day before it is a mistake, and would not print as YYYY-MM-DD. */
export const EARLIEST_DAY = '1970-01-01';

/** The query's range: end_date defaults to today, start_date to the 30 days ending there (not before EARLIEST_DAY). */
export function dayRangeOf(query: UsageQuery, now: number): DayRange {
  for (const field of ['start_date', 'end_date'] as const) {
    const day = query[field];
    if (day !== undefined && day < EARLIEST_DAY) throw validationError(field, 'minimum', `${field} must be ${EARLIEST_DAY} or later`);
  }
  const to = query.end_date ?? utcDay(now);
  const from = query.start_date ?? maxDay(utcDay(Date.parse(to) - 29 * DAY_MS), EARLIEST_DAY);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw validationError('end_date', 'minimum', 'end_date must not be before start_date');
  if (days > MAX_RANGE_DAYS) throw validationError('end_date', 'maximum', `a range covers at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}

/** Every day of a range, oldest first. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(range.from); ms <= Date.parse(range.to); ms += DAY_MS) days.push(utcDay(ms));
  return days;
}
