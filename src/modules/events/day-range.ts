import { LruCache } from '../../platform/cache/lru.js';
import { validationError } from '../../platform/errors.js';
import { DAY_MS, type DayRange, wallClockAsUtc, wallClockFormatter, zoneOffsetAt } from '../../platform/time.js';

/**
 * Calendar days read in an IANA time zone, as instants in UTC. Offsets come from
 * Intl.DateTimeFormat (the runtime's time-zone database), so days that are 23 or 25 hours long
 * around a DST change, and days whose midnight does not exist, come out right.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
const ranges = new LruCache<string, DayRange>(1_000);

/** The formatter of a zone, or a 422 naming `field` when the runtime does not know the zone. */
function formatterOf(timeZone: string, field: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter) return formatter;
  try {
    formatter = wallClockFormatter(timeZone);
  } catch {
    throw validationError(field, 'timezone', `${field} must be an IANA time zone such as "America/New_York"`);
  }
  // Bounded: the set of zone names is finite, but a caller could vary case or aliases.
  if (formatters.size < 1_000) formatters.set(timeZone, formatter);
  return formatter;
}

/** The local calendar day of an instant, as the epoch ms of that date's 00:00 UTC. */
function localDay(formatter: Intl.DateTimeFormat, instant: number): number {
  const wall = wallClockAsUtc(formatter, instant);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * The first instant whose local date is `day` (given as that date's 00:00 UTC). Two guesses
 * from the offsets around local midnight; the right one is the guess that falls on the day
 * while the millisecond before it does not. When midnight is skipped by a DST jump, that is
 * the jump itself.
 */
function startOfLocalDay(formatter: Intl.DateTimeFormat, day: number): number {
  const offsetAt = (instant: number) => zoneOffsetAt(formatter, instant);
  const first = day - offsetAt(day);
  const second = day - offsetAt(first);
  const candidates = [first, second].sort((a, b) => a - b);
  for (const candidate of candidates) {
    if (localDay(formatter, candidate) === day && localDay(formatter, candidate - 1) < day) return candidate;
  }
  return second;
}

/** Today's date in a zone, YYYY-MM-DD. */
export function todayIn(timeZone: string, now: number, field = 'timezone'): string {
  return new Date(localDay(formatterOf(timeZone, field), now)).toISOString().slice(0, 10);
}

/** The UTC range [start, end) of a calendar date (YYYY-MM-DD) read in `timeZone`. */
export function dayRange(date: string, timeZone: string, field = 'timezone'): DayRange {
  const cacheKey = `${date}|${timeZone}`;
  const hit = ranges.get(cacheKey);
  if (hit) return hit;
  const formatter = formatterOf(timeZone, field);
  const day = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(day)) throw validationError('event_date', 'format', 'event_date must be a date, YYYY-MM-DD');
  const range = { start: startOfLocalDay(formatter, day), end: startOfLocalDay(formatter, day + DAY_MS) };
  ranges.set(cacheKey, range);
  return range;
}
