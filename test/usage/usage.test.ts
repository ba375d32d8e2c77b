import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageRepository, purgeOldUsage } from '../../src/modules/usage/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';
import { TEN_PAST_NOON } from '../limits/limits-helpers.js';

interface UsageBody {
  tier: string;
  limits: { per_minute: number | null; per_day: number | null };
  current: Record<'minute' | 'day', { used: number | null; remaining: number | null; resets_at: string }>;
  days: Array<{ date: string; requests: number; charged: number; by_group: Record<string, number> }>;
}

describe.each(DIALECTS)('usage a client and an operator can see (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let asClient: Caller;

  beforeAll(async () => {
    t = await harness({ dialect, env: { USAGE_FLUSH_MS: '600000' } });
    client = await t.client({ tier: 'pro' });
    asClient = t.as(client);
  });
  afterAll(async () => t.close());

  it('counts every charged call by day and route group: stored counts and the ones not yet written', async () => {
    // Yesterday's requests are written; today's still in memory.
    t.clock.set(TEN_PAST_NOON - 86_400_000);
    await asClient.get('/v1/references/sports');
    await t.ctx.meter.flush();
    t.clock.set(TEN_PAST_NOON);
    await asClient.get('/v1/references/sports');
    await asClient.get('/v1/references/teams');
    await asClient.post('/v1/events/upcoming-events', {});
    await asClient.post('/v1/odds/upcoming-odds-by-event', { event_id: 1 });
    await asClient.post('/v1/trends/flows', {});
    await asClient.get('/v1/account/config');

    const res = await asClient.get('/v1/account/usage');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const usage = res.json<UsageBody>();
    expect(usage).toMatchObject({ tier: 'pro', limits: { per_minute: 600, per_day: 200_000 } });
    expect(usage.current).toEqual({
      minute: { used: 7, remaining: 593, resets_at: '2030-01-15T12:01:00.000Z' },
      day: { used: 5, remaining: 199_995, resets_at: '2030-01-16T00:00:00.000Z' },
    });
    expect(usage.days).toHaveLength(30);
    expect(usage.days[0]?.date).toBe('2029-12-17');
    expect(usage.days.slice(-2)).toEqual([
      { date: '2030-01-14', requests: 1, charged: 1, by_group: { references: 1, events: 0, odds: 0, trends: 0, results: 0, account: 0 }, webhook_deliveries: 0 },
      { date: '2030-01-15', requests: 7, charged: 5, by_group: { references: 2, events: 1, odds: 1, trends: 1, results: 0, account: 2 }, webhook_deliveries: 0 },
    ]);

    const admin = await t.admin.get(`/admin/v1/clients/${client.clientId}/usage?start_date=2030-01-14&end_date=2030-01-15`);
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json<UsageBody>().days.map((d) => d.requests)).toEqual([1, 7]);
  });

  it('validates the range: ISO dates, end not before start, at most 366 days', async () => {
    expectError(await asClient.get('/v1/account/usage?start_date=2030-01-15&end_date=2030-01-14'), 422, 'VALIDATION_ERROR', { field: 'end_date', rule: 'minimum' });
    expectError(await asClient.get('/v1/account/usage?start_date=2028-01-01&end_date=2030-01-15'), 422, 'VALIDATION_ERROR', { field: 'end_date', rule: 'maximum' });
    expectError(await asClient.get('/v1/account/usage?start_date=2030-02-30'), 422, 'VALIDATION_ERROR', 'start_date');
    expectError(await asClient.get('/v1/account/usage?end_date=15.01.2030'), 422, 'VALIDATION_ERROR', 'end_date');
    // Found by the fuzz test: year 0 answered 200 with days that are no YYYY-MM-DD ("-000001-12-03").
    expectError(await asClient.get('/v1/account/usage?end_date=0000-01-01'), 422, 'VALIDATION_ERROR', { field: 'end_date', rule: 'minimum' });
    expectError(await asClient.get('/v1/account/usage?start_date=1969-12-31&end_date=1970-01-02'), 422, 'VALIDATION_ERROR', { field: 'start_date', rule: 'minimum' });
    const first = await asClient.get('/v1/account/usage?end_date=1970-01-02');
    expect(first.json<UsageBody>().days.map((d) => d.date)).toEqual(['1970-01-01', '1970-01-02']);
    const year = await asClient.get('/v1/account/usage?start_date=2029-01-01&end_date=2030-01-01');
    expect(year.json<UsageBody>().days).toHaveLength(366);
    expectError(await asClient.get('/v1/account/usage?start_date=2029-01-01&end_date=2030-01-02'), 422, 'VALIDATION_ERROR', { field: 'end_date', rule: 'maximum' });
    const month = await asClient.get('/v1/account/usage?end_date=2030-01-15');
    expect(month.json<UsageBody>().days.map((d) => d.date)).toEqual(expect.arrayContaining(['2029-12-17', '2030-01-15']));
    expect(month.json<UsageBody>().days).toHaveLength(30);
    const one = await asClient.get('/v1/account/usage?start_date=2030-01-15&end_date=2030-01-15');
    expect(one.json<UsageBody>().days.map((d) => d.date)).toEqual(['2030-01-15']);
  });

  it('the operator: 404 for an unknown client, and the top clients by requests, paginated', async () => {
    expectError(await t.admin.get('/admin/v1/clients/5b8f2a9e-0000-4000-8000-000000000000/usage'), 404, 'NOT_FOUND');
    const busy = await t.client({ tier: 'enterprise', name: 'Busy' });
    for (let i = 0; i < 20; i += 1) await t.as(busy).get('/v1/references/sports');
    await t.ctx.meter.flush();
    const page = await t.admin.get('/admin/v1/usage?start_date=2030-01-01&end_date=2030-01-31&page_size=1');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toEqual({
      results: [{ client_id: busy.clientId, name: 'Busy', tier: 'enterprise', requests: 20 }],
      total_count: 2,
      page: 1,
      page_size: 1,
      total_pages: 2,
    });
    const second = await t.admin.get('/admin/v1/usage?start_date=2030-01-01&end_date=2030-01-31&page=2&page_size=1');
    expect(second.json<{ results: Array<{ client_id: string }> }>().results.map((r) => r.client_id)).toEqual([client.clientId]);
  });

  it('a write that fails keeps its counts for the next flush', async () => {
    const before = (await t.ctx.usage.report(await t.ctx.clients.get(client.clientId), { start: Date.parse('2030-01-15'), end: Date.parse('2030-01-16') })).days[0]?.requests ?? 0;
    await asClient.get('/v1/references/sports');
    await sql`alter table usage_daily rename to usage_daily_away`.execute(t.database.db);
    try {
      await t.ctx.meter.flush();
    } finally {
      await sql`alter table usage_daily_away rename to usage_daily`.execute(t.database.db);
    }
    expect(t.logs()).toMatch(/writing usage counts failed; they are kept for the next flush/);
    await t.ctx.meter.flush();
    const rows = await createUsageRepository(t.database.db).ofClient(client.clientId, '2030-01-15', '2030-01-15');
    expect(rows.reduce((sum, r) => sum + r.requests, 0)).toBe(before + 1);
  });

  it('rows older than USAGE_RETENTION_DAYS are purged', async () => {
    const repository = createUsageRepository(t.database.db);
    await repository.add([
      { clientId: client.clientId, day: '2028-12-10', hour: Date.parse('2028-12-10T05:00:00Z'), group: 'odds', requests: 3 },
      { clientId: client.clientId, day: '2028-12-11', hour: Date.parse('2028-12-11T05:00:00Z'), group: 'odds', requests: 4 },
    ]);
    // 400 days before 2030-01-15 is 2028-12-11: that day stays, the one before goes.
    expect(await purgeOldUsage(repository, t.clock, 400)).toBe(1);
    expect((await repository.ofClient(client.clientId, '2028-01-01', '2028-12-31')).map((r) => r.day)).toEqual(['2028-12-11']);
  });
});
