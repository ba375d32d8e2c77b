import { wallClockFormatter, zoneOffsetAt } from '../../../platform/time.js';

/**
 * football-data.co.uk dates and kick-off times, which are UK local time. The offset of each
 * instant comes from Intl (the runtime's time-zone database), so a match on either side of the
 * last Sunday of March or October gets GMT or BST as it was played.
 */

const LONDON = wallClockFormatter('Europe/London');

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The UK offset at an instant, in ms (0 or 3,600,000). */
function londonOffset(instant: number): number {
  return zoneOffsetAt(LONDON, instant);
}

/**
 * The instant of a UK wall-clock time. The offset is taken at a first guess and again at the
 * instant it gives: the second is right on both sides of a change (no match kicks off in the hour
 * between 01:00 and 02:00 that a change skips or repeats).
 */
export function ukInstant(date: CalendarDate, hour: number, minute: number): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const guess = wall - londonOffset(wall);
  return wall - londonOffset(guess);
}

const DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/;

/** `dd/mm/yy` (90–99 are 1990s, the rest 2000s: the files start in 1993/94) or `dd/mm/yyyy`; undefined when not a calendar date. */
export function parseDate(text: string): CalendarDate | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [day, month, written] = [Number(match[1]), Number(match[2]), match[3] ?? ''];
  const short = Number(written);
  const year = written.length === 4 ? short : short >= 90 ? 1900 + short : 2000 + short;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

const TIME = /^(\d{1,2}):(\d{2})$/;

/** `hh:mm`, 24-hour; undefined when not a time of day. */
export function parseTime(text: string): { hour: number; minute: number } | undefined {
  const match = TIME.exec(text);
  if (!match) return undefined;
  const [hour, minute] = [Number(match[1]), Number(match[2])];
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

/** YYYY-MM-DD. */
export function isoDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
