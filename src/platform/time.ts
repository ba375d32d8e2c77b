/** Lengths of time in milliseconds, and the UTC day, defined once for every module. */

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Whole days as instants: from the first instant of the first day (included) to the first instant
 * of the day after the last (excluded), epoch ms. UTC days or a time zone's, one shape for both.
 */
export interface DayRange {
  start: number;
  end: number;
}

/** The UTC day of an instant, as YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
