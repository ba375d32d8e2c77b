import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { dataCall, limitHeaders, patchClient, TEN_PAST_NOON } from './limits-helpers.js';

describe.each(DIALECTS)('limits per tier, enforced (%s)', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness({ dialect });
  });
  afterAll(async () => t.close());

  it('a free client gets exactly 60 answers in its minute, counted down exactly, then 429; an enterprise client is unaffected; the next minute resets it', async () => {
    t.clock.set(TEN_PAST_NOON);
    const free = await t.client({ tier: 'free' });
    const enterprise = await t.client({ tier: 'enterprise' });
    for (let i = 1; i <= 60; i += 1) {
      const res = await dataCall(t, free.apiKey);
      expect(res.statusCode, res.body).toBe(200);
      expect(limitHeaders(res)).toEqual({
        policy: '"minute";q=60;w=60, "day";q=5000;w=86400',
        limit: `"minute";r=${60 - i};t=50`,
        xLimit: 60,
        xRemaining: 60 - i,
        xReset: 50,
        retryAfter: undefined,
      });
    }
    const refused = await dataCall(t, free.apiKey);
    const error = expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.message).toMatch(/60 requests per minute/);
    expect(error.message).toMatch(/free tier/);
    expect(limitHeaders(refused)).toMatchObject({ retryAfter: 50, xRemaining: 0, limit: '"minute";r=0;t=50' });

    // The enterprise client, in the same minute: its own count, its own limits, no daily cap.
    const other = await dataCall(t, enterprise.apiKey);
    expect(other.statusCode).toBe(200);
    expect(limitHeaders(other)).toMatchObject({ policy: '"minute";q=6000;w=60', limit: '"minute";r=5999;t=50', xLimit: 6000, xRemaining: 5999 });

    t.clock.advance(49_999);
    expect((await dataCall(t, free.apiKey)).statusCode).toBe(429);
    expect(limitHeaders(await dataCall(t, free.apiKey)).retryAfter).toBe(1);
    t.clock.advance(1);
    const next = await dataCall(t, free.apiKey);
    expect(next.statusCode).toBe(200);
    expect(limitHeaders(next)).toMatchObject({ xRemaining: 59, xReset: 60, limit: '"minute";r=59;t=60' });
  });

  it('charges every authenticated call whatever its answer, but not the refused ones: 401 and 429 are free', async () => {
    t.clock.set(TEN_PAST_NOON + 3_600_000);
    const client = await t.client({ tier: 'free' });
    const invalid = await t.as({ apiKey: client.apiKey }).get('/v1/references/sports?page_size=1000');
    expectError(invalid, 422, 'VALIDATION_ERROR');
    expect(limitHeaders(invalid).xRemaining).toBe(59);
    const unknown = await t.as({ apiKey: client.apiKey }).get('/v1/references/teams?league_key=nowhere');
    expectError(unknown, 404, 'NOT_FOUND');
    expect(limitHeaders(unknown).xRemaining).toBe(58);
    expect((await dataCall(t, `${client.apiKey.slice(0, -1)}${client.apiKey.endsWith('x') ? 'y' : 'x'}`)).statusCode).toBe(401);
    expect(limitHeaders(await dataCall(t, client.apiKey)).xRemaining).toBe(57);
    for (let i = 0; i < 57; i += 1) await dataCall(t, client.apiKey);
    for (let i = 0; i < 3; i += 1) expect((await dataCall(t, client.apiKey)).statusCode).toBe(429);
    const usage = await t.admin.get(`/admin/v1/clients/${client.clientId}/usage`);
    expect(usage.json<{ current: { minute: { used: number } } }>().current.minute.used).toBe(60);
  });

  it('/v1/account/* counts against the minute but never the daily quota, and shows the minute only', async () => {
    t.clock.set(TEN_PAST_NOON + 2 * 3_600_000);
    const client = await t.client({ tier: 'pro' });
    await patchClient(t, client.clientId, { daily_quota: 2 });
    expect((await dataCall(t, client.apiKey)).statusCode).toBe(200);
    const last = await dataCall(t, client.apiKey);
    expect(limitHeaders(last)).toMatchObject({ limit: '"day";r=0;t=35990', xRemaining: 598 });
    const refused = await dataCall(t, client.apiKey);
    const error = expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.message).toMatch(/daily quota exceeded: 2 requests per UTC day \(the pro tier, with a per-client override\)/);
    expect(limitHeaders(refused)).toMatchObject({ retryAfter: 35_990, limit: '"day";r=0;t=35990', xRemaining: 598 });

    const account = await t.as({ apiKey: client.apiKey }).get('/v1/account/config');
    expect(account.statusCode).toBe(200);
    expect(limitHeaders(account)).toMatchObject({ policy: '"minute";q=600;w=60', limit: '"minute";r=597;t=50', xRemaining: 597 });
  });

  it("an operator's override applies on the next request, and null returns to the tier's", async () => {
    t.clock.set(TEN_PAST_NOON + 3 * 3_600_000);
    const client = await t.client({ tier: 'pro' });
    expect(limitHeaders(await dataCall(t, client.apiKey)).xLimit).toBe(600);
    const patched = await patchClient(t, client.clientId, { rate_limit_per_minute: 2 });
    expect(patched).toMatchObject({ rate_limit_per_minute: 2, daily_quota: null, effective_limits: { per_minute: 2, per_day: 200_000 } });
    // The minute's first request was counted under the old limit: one left.
    expect(limitHeaders(await dataCall(t, client.apiKey))).toMatchObject({ xLimit: 2, xRemaining: 0 });
    const refused = await dataCall(t, client.apiKey);
    expect(expectError(refused, 429, 'RATE_LIMIT_EXCEEDED').message).toMatch(/2 requests per minute \(the pro tier, with a per-client override\)/);
    expect(await patchClient(t, client.clientId, { rate_limit_per_minute: null })).toMatchObject({ effective_limits: { per_minute: 600 } });
    expect(limitHeaders(await dataCall(t, client.apiKey))).toMatchObject({ xLimit: 600, xRemaining: 597 });
  });
});

describe.each(DIALECTS)('daily quota (%s)', (dialect) => {
  it('a per-client override of 100/day refuses the 101st request, and the usage endpoint shows 100', async () => {
    const t = await harness({ dialect, env: { USAGE_FLUSH_MS: '60000' } });
    try {
      t.clock.set(TEN_PAST_NOON);
      const client = await t.client({ tier: 'pro' });
      await patchClient(t, client.clientId, { daily_quota: 100 });
      const statuses = await Promise.all(Array.from({ length: 101 }, () => dataCall(t, client.apiKey).then((r) => r.statusCode)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
      // Another minute, the same day: still refused.
      t.clock.advance(120_000);
      expect((await dataCall(t, client.apiKey)).statusCode).toBe(429);

      const res = await t.as({ apiKey: client.apiKey }).get('/v1/account/usage');
      expect(res.statusCode, res.body).toBe(200);
      const usage = res.json<{ limits: unknown; current: { day: { used: number; remaining: number } }; days: Array<{ date: string; requests: number; charged: number; by_group: Record<string, number> }> }>();
      expect(usage.limits).toEqual({ per_minute: 600, per_day: 100 });
      expect(usage.current.day).toMatchObject({ used: 100, remaining: 0, resets_at: '2030-01-16T00:00:00.000Z' });
      const today = usage.days.at(-1);
      expect(today).toEqual({ date: '2030-01-15', requests: 101, charged: 100, by_group: { references: 100, events: 0, odds: 0, trends: 0, results: 0, account: 1 }, webhook_deliveries: 0 });
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)('limits off (%s)', (dialect) => {
  it('TIER_LIMITS with nulls: no limits, no rate-limit fields, never 429', async () => {
    const off = JSON.stringify({ free: { per_minute: null, per_day: null } });
    const t = await harness({ dialect, env: { TIER_LIMITS: off } });
    try {
      const client = await t.client({ tier: 'free' });
      for (let i = 0; i < 70; i += 1) {
        const res = await dataCall(t, client.apiKey);
        expect(res.statusCode).toBe(200);
        expect(limitHeaders(res)).toEqual({ policy: undefined, limit: undefined, xLimit: undefined, xRemaining: undefined, xReset: undefined, retryAfter: undefined });
      }
      const usage = await t.as({ apiKey: client.apiKey }).get('/v1/account/usage');
      expect(usage.json()).toMatchObject({ limits: { per_minute: null, per_day: null }, current: { minute: { used: null, remaining: null } } });
    } finally {
      await t.close();
    }
  });
});
