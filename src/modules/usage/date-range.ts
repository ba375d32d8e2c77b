import { DAY_MS, utcDay } from '../../platform/time.js';
import { type DateRangeQuery, utcDays } from '../../shared/date-range.js';

/** A range of whole UTC days, both ends included, as YYYY-MM-DD: how usage rows name their days. */
export interface DayRange {
  from: string;
  to: string;
}

/** The query's range by the one date-range rule every endpoint follows. */
export function dayRangeOf(query: DateRangeQuery, now: number): DayRange {
  const { start, end } = utcDays(query, now);
  return { from: utcDay(start), to: utcDay(end - DAY_MS) };
}

/** Every day of a range, oldest first. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(range.from); ms <= Date.parse(range.to); ms += DAY_MS) days.push(utcDay(ms));
  return days;
}
