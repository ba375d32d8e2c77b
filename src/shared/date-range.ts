import { Type } from 'typebox';
import { validationError } from '../platform/errors.js';
import { matching } from '../platform/http/validation.js';
import { DAY_MS, type DayRange, utcDay } from '../platform/time.js';

/**
 * A range of whole UTC days (`start_date`, `end_date`, both YYYY-MM-DD and both included): one rule for
 * every endpoint that takes one — the historical events list, the odds exports and the usage reports —
 * so that one range means the same days, the same default and the same errors everywhere
 * (docs/decisions/0124, 0198).
 */

/** Without start_date, the range is this many days ending at end_date (both included). */
export const DEFAULT_RANGE_DAYS = 30;
/** A year with its leap day: a wider range is 422 (end_date, `maximum`). */
export const MAX_RANGE_DAYS = 366;
/** Nothing is stored before the clock's epoch, and an earlier day would not print as YYYY-MM-DD. */
export const EARLIEST_DAY = '1970-01-01';

export interface DateRangeQuery {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

const startDescription = (what: string) =>
  `First day (UTC, YYYY-MM-DD, included) of ${what}, ${EARLIEST_DAY} or later. Default: ${DEFAULT_RANGE_DAYS - 1} days before end_date.`;
const endDescription = (what: string) =>
  `Last day (UTC, YYYY-MM-DD, included) of ${what}. Default: today. Not before start_date, and at most ${MAX_RANGE_DAYS} days from it.`;

/** The two query parameters, described once; `note` ends both descriptions. */
export const dateRangeProperties = (what: string, note = '') => ({
  start_date: Type.Optional(Type.String({ format: 'date', description: `${startDescription(what)}${note}` })),
  end_date: Type.Optional(Type.String({ format: 'date', description: `${endDescription(what)}${note}` })),
});

/**
 * A day, or an ISO 8601 date-time (`2031-05-06T18:30:00`, with `Z`, `+01:00`, `+0100` or no offset):
 * Odditt's client sends the usage range as date-times. A date-time names the UTC day it falls on.
 */
const DAY_OR_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}(:?\\d{2})?)?)?$';

/** The two query parameters, where a date-time may stand for its UTC day. */
export const dayOrDateTimeRangeProperties = (what: string) => {
  const alsoDateTime = (description: string) =>
    Type.Optional(
      Type.String({
        ...matching(DAY_OR_DATE_TIME, 'a date (YYYY-MM-DD) or an ISO 8601 date-time (YYYY-MM-DDTHH:MM[:SS], with Z, an offset or none)'),
        maxLength: 40,
        description: `${description} Also an ISO 8601 date-time, which stands for its UTC day; without an offset it is read as UTC.`,
      }),
    );
  return { start_date: alsoDateTime(startDescription(what)), end_date: alsoDateTime(endDescription(what)) };
};

/**
 * The days asked for, with the defaults filled in, from 00:00 UTC of start_date to 00:00 UTC of the
 * day after end_date; 422 for a day before the epoch, a backwards range or one too wide.
 */
export function utcDays(query: DateRangeQuery, now: number): DayRange {
  const end = (query.end_date === undefined ? Math.floor(now / DAY_MS) * DAY_MS : dayOf(query.end_date, 'end_date')) + DAY_MS;
  const start = query.start_date === undefined ? Math.max(end - DEFAULT_RANGE_DAYS * DAY_MS, 0) : dayOf(query.start_date, 'start_date');
  if (end <= start) {
    throw validationError('end_date', 'minimum', `end_date${query.end_date === undefined ? ' (default today)' : ''} must not be before start_date`);
  }
  if (end - start > MAX_RANGE_DAYS * DAY_MS) {
    throw validationError('end_date', 'maximum', `start_date and end_date may span at most ${MAX_RANGE_DAYS} days`);
  }
  return { start, end };
}

function dayOf(value: string, field: string): number {
  const date = value.slice(0, 10);
  // Date.parse rolls 2031-02-30 over to March: a day must read back as itself.
  const midnight = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(midnight) || utcDay(midnight) !== date) throw validationError(field, 'format', `${field} must be a date, YYYY-MM-DD`);
  const day = value.length === date.length ? midnight : utcMidnightOf(value, field);
  if (day < 0) throw validationError(field, 'minimum', `${field} must be ${EARLIEST_DAY} or later`);
  return day;
}

/** 00:00 UTC of the day a date-time falls on; without an offset, the date-time is UTC. */
function utcMidnightOf(dateTime: string, field: string): number {
  const offset = /(Z|[+-]\d{2}(:?\d{2})?)$/.exec(dateTime.slice(10))?.[0];
  const time = offset === undefined ? `${dateTime}Z` : `${dateTime.slice(0, dateTime.length - offset.length)}${extendedOffset(offset)}`;
  const instant = Date.parse(time);
  if (Number.isNaN(instant)) throw validationError(field, 'format', `${field} must be a date, YYYY-MM-DD, or an ISO 8601 date-time`);
  return Math.floor(instant / DAY_MS) * DAY_MS;
}

/** `+0100` and `+01` as `+01:00`, the form Date.parse reads. */
function extendedOffset(offset: string): string {
  if (offset === 'Z' || offset.includes(':')) return offset;
  return `${offset.slice(0, 3)}:${offset.slice(3) || '00'}`;
}
