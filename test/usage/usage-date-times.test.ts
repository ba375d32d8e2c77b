import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { TEN_PAST_NOON } from '../limits/limits-helpers.js';

interface UsageDays {
  days: Array<{ date: string }>;
}

/** Odditt's client sends the usage range as date-times (naive ones without an offset): each stands for its UTC day. */
describe.each(DIALECTS)('GET /v1/account/usage with date-times (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  const daysOf = async (query: string) => {
    t.clock.set(TEN_PAST_NOON);
    const res = await t.as(await t.client({ tier: 'pro' })).get<UsageDays>(`/v1/account/usage?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const days = res.json().days.map((d) => d.date);
    return [days[0], days.at(-1), days.length];
  };

  it('a date-time counts from its UTC day: naive is UTC, an offset moves it to its UTC day', async () => {
    expect(await daysOf('start_date=2030-01-10&end_date=2030-01-12')).toEqual(['2030-01-10', '2030-01-12', 3]);
    // The Python client's format: %Y-%m-%dT%H:%M:%S.%f, and %z (+0100) when the datetime has a zone.
    expect(await daysOf('start_date=2030-01-10T23:59:59.999999&end_date=2030-01-12T00:00:00.000000')).toEqual(['2030-01-10', '2030-01-12', 3]);
    expect(await daysOf(`start_date=${encodeURIComponent('2030-01-11T00:30:00.000000+0100')}&end_date=2030-01-12T22:00:00Z`)).toEqual(['2030-01-10', '2030-01-12', 3]);
    expect(await daysOf(`start_date=${encodeURIComponent('2030-01-10T20:00:00-05:00')}&end_date=${encodeURIComponent('2030-01-12T10:00+02')}`)).toEqual([
      '2030-01-11',
      '2030-01-12',
      2,
    ]);
    expect(await daysOf('end_date=2030-01-12T10:00')).toEqual(['2029-12-14', '2030-01-12', 30]);
  });

  it('a malformed or impossible day or date-time is 422 naming the field; the range rule holds', async () => {
    t.clock.set(TEN_PAST_NOON);
    const caller = t.as(await t.client({ tier: 'pro' }));
    expectError(await caller.get('/v1/account/usage?start_date=2030-01-10T25'), 422, 'VALIDATION_ERROR', 'start_date');
    expectError(await caller.get('/v1/account/usage?end_date=yesterday'), 422, 'VALIDATION_ERROR', 'end_date');
    expectError(await caller.get('/v1/account/usage?start_date=2030-02-30T10:00:00'), 422, 'VALIDATION_ERROR', 'start_date');
    expectError(await caller.get('/v1/account/usage?end_date=2030-01-12T25:00:00'), 422, 'VALIDATION_ERROR', 'end_date');
    expectError(await caller.get('/v1/account/usage?start_date=2030-01-12T10:00:00&end_date=2030-01-11T23:00:00'), 422, 'VALIDATION_ERROR', 'end_date');
    expectError(await caller.get('/v1/account/usage?start_date=1969-12-31T23:00:00'), 422, 'VALIDATION_ERROR', 'start_date');
  });
});
