import { Type } from 'typebox';
import { METRICS_CONTENT_TYPE } from '../../platform/http/metrics.js';
import type { ModuleRoutes } from '../../platform/http/types.js';

/**
 * GET /metrics for Prometheus. No authentication, like /healthz beside it: it holds only
 * counts per route template and status, latencies and memory figures — no id, key, token or
 * client name — and scrapers seldom carry credentials. Keep it off the public edge if the
 * traffic figures themselves are sensitive.
 */
export const metricsRoutes: ModuleRoutes = async (app) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Text exposition format 0.0.4: `http_requests_total{method,route,status_code}`, `http_request_duration_seconds` (histogram), ' +
          '`process_resident_memory_bytes`, `nodejs_heap_used_bytes`, `process_uptime_seconds`. Counted per process.',
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition.' }) },
      },
    },
    async (_request, reply) => reply.type(METRICS_CONTENT_TYPE).send(app.metrics.render()),
  );
};
