import { describe, expect, it } from 'vitest';
import { createUsageRepository, purgeOldHours } from '../../src/modules/usage/index.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { TEN_PAST_NOON } from '../limits/limits-helpers.js';

interface HoursBody {
  date: string;
  limits: { per_minute: number | null; per_day: number | null };
  hours: Array<{ hour: string; requests: number; by_group: Record<string, number> }>;
  refusals: Array<{ minute: string; window: string; refusals: number }>;
}

interface DaysBody {
  days: Array<{ date: string; requests: number }>;
}

const HOUR_MS = 3_600_000;

describe.each(DIALECTS)('usage per hour and the 429s a client got (%s)', (dialect) => {
  // The free tier at 3 a minute, so that a 429 is four calls away.
  const h = forSuite(() => harness({ dialect, env: { USAGE_FLUSH_MS: '600000', TIER_LIMITS: '{"free":{"per_minute":3,"per_day":1000}}' } }));

  it('counts charged calls per hour and group, stored or not yet written, equal to the day; a 429 is listed with its minute and window', async () => {
    const client = await h.client({ tier: 'free' });
    const asClient = h.as(client);
    // Two calls in the 11:00 hour, written; then three at 12:00, the fourth refused.
    h.clock.set(TEN_PAST_NOON - HOUR_MS);
    await asClient.ok('/v1/references/sports');
    await asClient.ok('/v1/account/config');
    await h.ctx.meter.flush();
    h.clock.set(TEN_PAST_NOON);
    for (let i = 0; i < 3; i++) await asClient.ok('/v1/references/teams');
    expectError(await asClient.get('/v1/references/teams'), 429, 'RATE_LIMIT_EXCEEDED');
    h.clock.set(TEN_PAST_NOON + 60_000);

    const hours = await asClient.ok<HoursBody>('/v1/account/usage/hours');
    expect(hours.date).toBe('2030-01-15');
    expect(hours.limits).toEqual({ per_minute: 3, per_day: 1000 });
    expect(hours.hours).toHaveLength(24);
    expect(hours.hours[11]).toEqual({ hour: '2030-01-15T11:00:00.000Z', requests: 2, by_group: { references: 1, events: 0, odds: 0, trends: 0, results: 0, account: 1 } });
    // This very call is the account call of the 12:00 hour.
    expect(hours.hours[12]).toEqual({ hour: '2030-01-15T12:00:00.000Z', requests: 4, by_group: { references: 3, events: 0, odds: 0, trends: 0, results: 0, account: 1 } });
    expect(hours.refusals).toEqual([{ minute: '2030-01-15T12:00:00.000Z', window: 'minute', refusals: 1 }]);

    // The same once written, and the hours add up to the day's count (which counts its own call too).
    await h.ctx.meter.flush();
    const written = await asClient.ok<HoursBody>('/v1/account/usage/hours?date=2030-01-15');
    expect(written.refusals).toEqual(hours.refusals);
    const days = await asClient.ok<DaysBody>('/v1/account/usage?start_date=2030-01-15&end_date=2030-01-15');
    expect(written.hours.reduce((sum, x) => sum + x.requests, 0) + 1).toBe(days.days[0]?.requests);

    // The operator sees what the client sees; another day is empty.
    const admin = await h.admin.ok<HoursBody>(`/admin/v1/clients/${client.clientId}/usage/hours?date=2030-01-15`);
    expect(admin.refusals).toEqual(hours.refusals);
    expect(admin.hours[11]?.requests).toBe(2);
    h.clock.set(TEN_PAST_NOON + 120_000); // a fresh minute: three a minute is the limit
    const other = await asClient.ok<HoursBody>('/v1/account/usage/hours?date=2030-01-10');
    expect(other.hours.every((x) => x.requests === 0) && other.refusals.length === 0).toBe(true);
    expectError(await asClient.get('/v1/account/usage/hours?date=yesterday'), 422, 'VALIDATION_ERROR');
  });

  it('hourly counts and refusals older than USAGE_HOURLY_RETENTION_DAYS are purged, the daily counts kept', async () => {
    const client = await h.client({ tier: 'pro' });
    const repository = createUsageRepository(h.database.db);
    const old = Date.parse('2029-12-01T05:00:00Z');
    const recent = Date.parse('2030-01-01T05:00:00Z');
    await repository.add(
      [
        { clientId: client.clientId, day: '2029-12-01', hour: old, group: 'odds', requests: 3 },
        { clientId: client.clientId, day: '2030-01-01', hour: recent, group: 'odds', requests: 4 },
      ],
      [{ clientId: client.clientId, minute: old, window: 'day', refusals: 2 }],
    );
    h.clock.set(TEN_PAST_NOON);
    // 35 days before 2030-01-15T12:00 is 2029-12-11: December 1st goes, January 1st stays.
    expect(await purgeOldHours(repository, h.clock, 35)).toBe(2);
    expect((await repository.hoursOfClient(client.clientId, 0, Date.parse('2031-01-01'))).map((r) => r.hour)).toEqual([recent]);
    expect(await repository.refusalsOfClient(client.clientId, 0, Date.parse('2031-01-01'))).toEqual([]);
    expect((await repository.ofClient(client.clientId, '2029-12-01', '2029-12-01')).map((r) => r.requests)).toEqual([3]);
  });
});
