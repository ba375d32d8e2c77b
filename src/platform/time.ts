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

/** The wall clock of an IANA time zone, to the second (a RangeError when the runtime does not know the zone). */
export function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** Wall-clock fields of an instant in the formatter's zone, read back as if they were UTC. */
export function wallClockAsUtc(formatter: Intl.DateTimeFormat, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** The formatter's zone's offset from UTC at an instant, in ms: the wall clock read as UTC, minus the instant (to the second). */
export function zoneOffsetAt(formatter: Intl.DateTimeFormat, instant: number): number {
  return wallClockAsUtc(formatter, instant) - Math.floor(instant / SECOND_MS) * SECOND_MS;
}
