import { DAY_MS, type DayRange, utcDay } from '../../platform/time.js';

/** The first and the last day of a range of UTC days, both included, as YYYY-MM-DD: how usage rows name their days. */
export function firstAndLastDay(range: DayRange): { from: string; to: string } {
  return { from: utcDay(range.start), to: utcDay(range.end - DAY_MS) };
}

/** Every day of a range of UTC days, oldest first. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let ms = range.start; ms < range.end; ms += DAY_MS) days.push(utcDay(ms));
  return days;
}
