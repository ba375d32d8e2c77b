import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import { METRICS_CONTENT_TYPE } from '../../platform/http/metrics.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { nodeMetrics } from '../../platform/metrics/cluster.js';

/**
 * GET /metrics for Prometheus. No authentication, like /healthz beside it: it holds only
 * counts per route template, status and reason, latencies and process figures — no id, key,
 * token or client name — and scrapers seldom carry credentials. Keep it off the public edge if
 * the traffic figures themselves are sensitive.
 */
export const metricsRoutes: ModuleRoutes<{ registry: Registry }> = async (app, { registry }) => {
  app.get(
    '/metrics',
    {
      config: { policy: { auth: 'none', cache: 'no-store' } },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Text exposition format 0.0.4, for the whole node: with `serve --workers N` the worker that takes the scrape answers with ' +
          'every worker summed. Series: `http_requests_total{method,route,status_code}`, `http_request_duration_seconds{method,route}` (histogram), ' +
          '`auth_failures_total{reason}`, `rate_limit_rejections_total{tier,window}`, `read_cache_requests_total{namespace,result}`, ' +
          '`db_pool_wait_seconds` (histogram), `change_feed_lag_seconds{name}` (histogram), `outbound_calls_total{outcome}`, ' +
          '`outbound_call_duration_seconds` (histogram), `upstream_last_success_timestamp_seconds`, `upstream_rows_imported_total`, ' +
          '`upstream_errors_total{kind}`, `upstream_requests_remaining`, `upstream_requests_used`, `upstream_lease_held`, ' +
          '`webhook_backlog_deliveries`, `webhook_outbox_rows`, `webhook_deliveries_total{outcome}`, `webhook_delivery_latency_seconds` (histogram), ' +
          '`webhook_endpoints_disabled_total{reason}`, `process_uptime_seconds`, `nodejs_heap_used_bytes`, ' +
          "and prom-client's default process metrics (`process_*`, `nodejs_*`: CPU, memory, file descriptors, event-loop delay, GC).",
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition.' }) },
      },
    },
    async (request, reply) => {
      const scrape = await nodeMetrics(registry);
      if (scrape.fallback) request.log.warn({ err: scrape.fallback }, "metrics: the primary did not answer; this scrape shows this worker's counts only");
      return reply.type(METRICS_CONTENT_TYPE).send(scrape.text);
    },
  );
};
