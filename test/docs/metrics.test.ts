import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { onboardClient, type OnboardedClient } from '../helpers/clients.js';

describe.each(DIALECTS)('GET /metrics (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let accessToken: string;
  let text: string;

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await onboardClient(t);
    accessToken = (await t.login(client)).access_token;

    const requests = [
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/v1/account/config', headers: { 'x-api-key': client.apiKey } },
      { method: 'GET', url: `/v1/account/config?api_key=${client.apiKey}`, headers: { authorization: `Bearer ${accessToken}` } },
      { method: 'GET', url: '/v1/account/config', headers: { 'x-api-key': `${client.apiKey}x` } },
      { method: 'GET', url: `/admin/v1/clients/${client.clientId}`, headers: adminHeaders },
      { method: 'GET', url: `/v1/no-such-route/${client.clientId}?token=${accessToken}` },
    ] as const;
    for (const request of requests) await t.app.inject(request);

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    text = res.body;
  });
  afterAll(async () => t.close());

  it('counts requests by method, route template and status code', () => {
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('http_requests_total{method="GET",route="/healthz",status_code="200"} 2');
    expect(text).toContain('http_requests_total{method="POST",route="/v1/auth/login",status_code="200"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/account/config",status_code="200"} 1');
    // A parameter the endpoint does not take (here a credential in the URL) is refused (decision 0071).
    expect(text).toContain('http_requests_total{method="GET",route="/v1/account/config",status_code="422"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/account/config",status_code="401"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/admin/v1/clients/:client_id",status_code="200"} 1');
    // A request that matched no route is counted under one label, not under its URL.
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status_code="404"} 1');
  });

  it('has a latency histogram per route, with buckets from 1 ms to 1 s', () => {
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const buckets = [...text.matchAll(/^http_request_duration_seconds_bucket\{method="GET",route="\/healthz",le="([^"]+)"\} (\d+)$/gm)];
    expect(buckets.map((m) => m[1])).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '+Inf']);
    const counts = buckets.map((m) => Number(m[2]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b)); // cumulative
    expect(counts.at(-1)).toBe(2);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/healthz"\} 2$/m);
    expect(text).toMatch(/^http_request_duration_seconds_sum\{method="GET",route="\/healthz"\} [0-9.e-]+$/m);
  });

  it('reports memory and uptime of the process', () => {
    for (const gauge of ['process_resident_memory_bytes', 'nodejs_heap_used_bytes', 'process_uptime_seconds']) {
      expect(text).toContain(`# TYPE ${gauge} gauge`);
      expect(text).toMatch(new RegExp(`^${gauge} [0-9.e+]+$`, 'm'));
      expect(Number(new RegExp(`^${gauge} (.+)$`, 'm').exec(text)?.[1])).toBeGreaterThan(0);
    }
  });

  it('never shows a credential, an id or a raw URL', () => {
    for (const secret of [client.apiKey, client.clientSecret, accessToken, TEST_ADMIN_TOKEN, client.clientId, client.tenantId]) {
      expect(text.includes(secret)).toBe(false);
      expect(text.includes(secret.slice(0, 12))).toBe(false);
    }
    expect(text).not.toContain('no-such-route');
    expect(text).not.toContain('?');
  });

  it('is a well-formed exposition: every sample line is a known metric with a numeric value', () => {
    // Our series by name; prom-client's default process metrics by their two prefixes.
    const known =
      /^(http_requests_total|http_request_duration_seconds_(bucket|sum|count)|auth_failures_total|rate_limit_rejections_total|read_cache_requests_total|db_pool_wait_seconds_(bucket|sum|count)|change_feed_lag_seconds_(bucket|sum|count)|outbound_calls_total|outbound_call_duration_seconds_(bucket|sum|count)|upstream_last_success_timestamp_seconds|upstream_rows_imported_total|upstream_errors_total|upstream_requests_remaining|upstream_requests_used|upstream_lease_held|webhook_backlog_deliveries|webhook_outbox_rows|webhook_deliveries_total|webhook_delivery_latency_seconds_(bucket|sum|count)|webhook_endpoints_disabled_total|process_[a-z_]+|nodejs_[a-z0-9_]+)(\{[^}]*\})? ([0-9.e+-]+|Nan|NaN|[+-]Inf)$/;
    for (const line of text.trimEnd().split('\n')) {
      if (line === '') continue; // prom-client separates metric families with a blank line
      if (line.startsWith('#')) expect(line).toMatch(/^# (HELP|TYPE) [a-z0-9_]+ .+$/);
      else expect(line).toMatch(known);
    }
  });
});
