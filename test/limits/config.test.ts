import { describe, expect, it } from 'vitest';
import { loadConfig, workersProblem } from '../../src/config.js';
import { DEFAULT_TIER_LIMITS } from '../../src/modules/limits/index.js';
import { BASE_ENV as BASE, refusal } from '../helpers/config.js';

describe('limits configuration', () => {
  it('defaults: the tier table limits, 1 s flushes, 400 days of usage, 100 and 10 failures a minute, no proxy trusted', () => {
    expect(loadConfig(BASE)).toMatchObject({
      tierLimits: {
        free: { perMinute: 60, perDay: 5000, webhookEndpoints: 0 },
        pro: { perMinute: 600, perDay: 200_000, webhookEndpoints: 5 },
        enterprise: { perMinute: 6000, perDay: null, webhookEndpoints: 50 },
      },
      usageFlushMs: 1000,
      usageRetentionDays: 400,
      loginFailuresPerMinute: 100,
      loginFailuresPerClientPerMinute: 10,
      trustProxy: false,
    });
  });

  it('TIER_LIMITS is merged over the defaults, field by field; null is no cap', () => {
    const config = loadConfig({ ...BASE, TIER_LIMITS: '{"pro":{"per_minute":1200,"per_day":null},"free":{"per_day":100}}' });
    expect(config.tierLimits).toEqual({
      free: { perMinute: 60, perDay: 100, webhookEndpoints: 0 },
      pro: { perMinute: 1200, perDay: null, webhookEndpoints: 5 },
      enterprise: DEFAULT_TIER_LIMITS.enterprise,
    });
  });

  it('TIER_LIMITS sets the webhook endpoints per client of a tier: 0 for none, null for no cap', () => {
    const config = loadConfig({ ...BASE, TIER_LIMITS: '{"pro":{"webhook_endpoints":0},"enterprise":{"webhook_endpoints":null},"free":{"webhook_endpoints":2}}' });
    expect(config.tierLimits.pro).toEqual({ perMinute: 600, perDay: 200_000, webhookEndpoints: 0 });
    expect(config.tierLimits.enterprise.webhookEndpoints).toBeNull();
    expect(config.tierLimits.free.webhookEndpoints).toBe(2);
    expect(refusal({ TIER_LIMITS: '{"pro":{"webhook_endpoints":-1}}' })).toMatch(/TIER_LIMITS.pro.webhook_endpoints must be an integer from 0 to 1000000000, or null/);
    expect(refusal({ TIER_LIMITS: '{"pro":{"webhooks":3}}' })).toMatch(/unknown field "webhooks" \(fields: per_minute, per_day, webhook_endpoints\)/);
  });

  it('refuses TIER_LIMITS that is not JSON, names an unknown tier or field, or holds a bad value — every problem at once', () => {
    expect(refusal({ TIER_LIMITS: '{pro:1}' })).toMatch(/TIER_LIMITS must be JSON/);
    expect(refusal({ TIER_LIMITS: '[1]' })).toMatch(/TIER_LIMITS must be a JSON object/);
    const message = refusal({ TIER_LIMITS: '{"gold":{},"pro":{"per_hour":5,"per_minute":0},"free":{"per_day":"100"},"enterprise":7}' });
    expect(message).toMatch(/unknown tier "gold"/);
    expect(message).toMatch(/TIER_LIMITS.pro: unknown field "per_hour"/);
    expect(message).toMatch(/TIER_LIMITS.pro.per_minute must be an integer from 1 to 1000000000, or null/);
    expect(message).toMatch(/TIER_LIMITS.free.per_day must be an integer/);
    expect(message).toMatch(/TIER_LIMITS.enterprise must be an object/);
  });

  it('reads and bounds USAGE_FLUSH_MS, USAGE_RETENTION_DAYS and the login-failure limits', () => {
    expect(
      loadConfig({ ...BASE, USAGE_FLUSH_MS: '250', USAGE_RETENTION_DAYS: '30', LOGIN_FAILURES_PER_MINUTE: '20', LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '3' }),
    ).toMatchObject({ usageFlushMs: 250, usageRetentionDays: 30, loginFailuresPerMinute: 20, loginFailuresPerClientPerMinute: 3 });
    expect(refusal({ USAGE_FLUSH_MS: '0' })).toMatch(/USAGE_FLUSH_MS must be an integer from 10/);
    expect(refusal({ USAGE_RETENTION_DAYS: '0' })).toMatch(/USAGE_RETENTION_DAYS/);
    expect(refusal({ LOGIN_FAILURES_PER_MINUTE: 'lots' })).toMatch(/LOGIN_FAILURES_PER_MINUTE/);
    expect(refusal({ LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '0' })).toMatch(/LOGIN_FAILURES_PER_CLIENT_PER_MINUTE/);
  });

  it('TRUST_PROXY: a hop count or addresses and CIDRs; never "true"', () => {
    expect(loadConfig({ ...BASE, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...BASE, TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ ...BASE, TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback']);
    for (const bad of ['true', '10.0.0.0/33', 'lb.internal', '11', '1.2.3.4/8/1']) expect(refusal({ TRUST_PROXY: bad }), bad).toMatch(/TRUST_PROXY must be a hop count/);
  });

  it('several workers need REDIS_URL: their counts must be one', () => {
    expect(workersProblem(1, undefined)).toBeUndefined();
    expect(workersProblem(4, 'redis://127.0.0.1:6379')).toBeUndefined();
    expect(workersProblem(2, undefined)).toMatch(/2 workers need REDIS_URL/);
  });
});
