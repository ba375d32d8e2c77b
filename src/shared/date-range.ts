import { Type } from 'typebox';
import { validationError } from '../platform/errors.js';
import { DAY_MS } from '../platform/time.js';

/**
 * A range of whole UTC days, as the historical endpoints take it (`start_date`, `end_date`, both
 * YYYY-MM-DD and both included). Shared by the historical events list and the odds exports, so
 * that one range means the same days in both (docs/decisions/0124).
 */

/** Without start_date, the range reaches this many days back from end_date. */
export const DEFAULT_RANGE_DAYS = 30;
/** A season, and a leap day: a wider range is 422. */
export const MAX_RANGE_DAYS = 366;

export interface UtcDays {
  /** 00:00 UTC of start_date, epoch ms (included). */
  start: number;
  /** 00:00 UTC of the day after end_date, epoch ms (excluded). */
  end: number;
}

export interface DateRangeQuery {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** The two query parameters, described once. */
export const dateRangeProperties = (what: string) => ({
  start_date: Type.Optional(
    Type.String({ format: 'date', description: `First day (UTC, YYYY-MM-DD, included) of ${what}. Default: ${DEFAULT_RANGE_DAYS} days before end_date.` }),
  ),
  end_date: Type.Optional(
    Type.String({
      format: 'date',
      description: `Last day (UTC, YYYY-MM-DD, included) of ${what}. Default: today. At most ${MAX_RANGE_DAYS} days after start_date, and not before it.`,
    }),
  ),
});

/** The days asked for, with the defaults filled in; 422 for a range that ends before it starts or is too wide. */
export function utcDays(query: DateRangeQuery, now: number): UtcDays {
  const end = (query.end_date === undefined ? Math.floor(now / DAY_MS) * DAY_MS : dayOf(query.end_date, 'end_date')) + DAY_MS;
  const start = query.start_date === undefined ? end - (DEFAULT_RANGE_DAYS + 1) * DAY_MS : dayOf(query.start_date, 'start_date');
  if (end <= start) {
    throw validationError('end_date', 'formatMinimum', `end_date${query.end_date === undefined ? ' (default today)' : ''} must not be before start_date`);
  }
  if (end - start > MAX_RANGE_DAYS * DAY_MS) {
    throw validationError('start_date', 'range', `start_date and end_date may span at most ${MAX_RANGE_DAYS} days`);
  }
  return { start, end };
}

function dayOf(date: string, field: string): number {
  const day = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(day)) throw validationError(field, 'format', `${field} must be a date, YYYY-MM-DD`);
  return day;
}
