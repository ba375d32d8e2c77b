import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';
import { type CliDatabase, cliDatabase, sportsdata } from '../cli/cli-helpers.js';
import { startRedis } from '../helpers/redis-server.js';

describe.each(DIALECTS)('per-client overrides through the admin API (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('shows both overrides and the effective limits; null returns to the tier', async () => {
    const { clientId } = await onboardClient(t, { tier: 'enterprise' });
    const shown = await t.admin.get(`/admin/v1/clients/${clientId}`);
    expect(shown.json()).toMatchObject({ rate_limit_per_minute: null, daily_quota: null, effective_limits: { per_minute: 6000, per_day: null } });
    const changed = await t.admin.patch(`/admin/v1/clients/${clientId}`, { rate_limit_per_minute: 10, daily_quota: 1000 });
    expect(changed.json()).toMatchObject({ rate_limit_per_minute: 10, daily_quota: 1000, effective_limits: { per_minute: 10, per_day: 1000 } });
    const listed = await t.admin.get('/admin/v1/clients?page_size=100');
    expect(listed.json<{ results: Array<{ client_id: string }> }>().results.find((c) => c.client_id === clientId)).toMatchObject({ effective_limits: { per_minute: 10 } });
    const back = await t.admin.patch(`/admin/v1/clients/${clientId}`, { daily_quota: null });
    expect(back.json()).toMatchObject({ rate_limit_per_minute: 10, daily_quota: null, effective_limits: { per_minute: 10, per_day: null } });
  });

  it('refuses an override that is not an integer from 1 to 1,000,000,000 (422)', async () => {
    const { clientId } = await onboardClient(t);
    for (const value of [0, -1, 1_000_000_001]) {
      expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { rate_limit_per_minute: value }), 422, 'VALIDATION_ERROR', 'rate_limit_per_minute');
      expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { daily_quota: value }), 422, 'VALIDATION_ERROR', 'daily_quota');
    }
    // A wrong JSON type is a 400 (decision 0001).
    for (const value of [1.5, '10', true, {}]) {
      expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { rate_limit_per_minute: value }), 400, 'BAD_REQUEST', 'rate_limit_per_minute');
      expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { daily_quota: value }), 400, 'BAD_REQUEST', 'daily_quota');
    }
    expect(await t.ctx.clients.get(clientId)).toMatchObject({ rateLimitPerMinute: null, dailyQuota: null });
  });
});

describe.each(DIALECTS)('sportsdata clients update and usage (%s)', (dialect) => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
  });
  afterAll(async () => db.close());
  const run = (...args: string[]) => sportsdata(db.env, ...args);

  it('--rate-limit-per-minute and --daily-quota take an integer or "default"', async () => {
    const { account } = await db.ctx.clients.create({ name: 'Acme', tier: 'free', authMethod: 'both' });
    const set = await run('clients', 'update', account.id, '--rate-limit-per-minute', '5', '--daily-quota', '70', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ rate_limit_per_minute: 5, daily_quota: 70, effective_limits: { per_minute: 5, per_day: 70 } });
    const back = await run('clients', 'update', account.id, '--daily-quota', 'default');
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/effective_limits: +5\/minute, 5000\/day/);
    for (const bad of ['0', 'many', '1.5', '1000000001']) {
      const result = await run('clients', 'update', account.id, '--daily-quota', bad);
      expect(result.code, bad).toBe(1);
      expect(result.stderr).toMatch(/--daily-quota.*integer from 1 to 1000000000, or "default"/);
    }
  });

  it('usage CLIENT_ID prints what the admin API answers; without Redis the current windows are not visible here', async () => {
    const { account } = await db.ctx.clients.create({ name: 'Acme', tier: 'pro', authMethod: 'both' });
    // The command reports the 30 UTC days to the one it runs on, by the machine's clock: the test
    // counts on the day it starts on and expects the report to end on it, or on the next one when
    // the run crosses midnight.
    const utcDay = () => new Date().toISOString().slice(0, 10);
    const today = utcDay();
    await db.ctx.database.db.insertInto('usage_daily').values({ client_id: account.id, day: today, route_group: 'trends', requests: 42 }).execute();
    const json = await run('usage', account.id, '--json');
    const ended = utcDay();
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { current: unknown; days: Array<{ date: string; requests: number; by_group: { trends: number } }>; limits: unknown };
    expect(report.current).toBeNull();
    expect(report.limits).toEqual({ per_minute: 600, per_day: 200_000 });
    expect(report.days).toHaveLength(30);
    expect([today, ended]).toContain(report.days.at(-1)?.date);
    expect(report.days.filter((d) => d.requests > 0)).toEqual([expect.objectContaining({ date: today, requests: 42, charged: 42, by_group: expect.objectContaining({ trends: 42 }) })]);
    const text = await run('usage', account.id, '--start-date', today);
    expect(text.stdout).toMatch(/tier pro: 600 requests per minute, 200000 per day/);
    expect(text.stdout).toMatch(new RegExp(`${today} +42 +42 +0 +0 +0 +42 +0`));
    expect((await run('usage', account.id, '--start-date', '2030-13-01')).stderr).toMatch(/--start-date.*YYYY-MM-DD/);
    expect((await run('usage', '5b0e1c9e-0000-4000-8000-000000000000')).stderr).toMatch(/^error: no client with this client_id$/m);
  });

  it('with REDIS_URL, usage reads the current windows every node counts in', async () => {
    const redis = await startRedis();
    try {
      const { account } = await db.ctx.clients.create({ name: 'Acme', tier: 'free', authMethod: 'both' });
      const result = await sportsdata({ ...db.env, REDIS_URL: redis.url }, 'usage', account.id, '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ current: { minute: { used: 0, remaining: 60 }, day: { used: 0, remaining: 5000 } } });
    } finally {
      await redis.stop();
    }
  });
});
