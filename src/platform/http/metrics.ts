import type { App } from './types.js';

/** Upper bounds (seconds) of the latency histogram: a fast API answers in 1–10 ms. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1] as const;

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The label of requests that matched no route: the raw URL would be unbounded and may carry anything. */
const UNMATCHED_ROUTE = 'unmatched';

interface RouteSeries {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** Per-bucket (not cumulative) counts; the last slot is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

/** Counters kept in memory per process; Prometheus scrapes each node and sums. */
export interface HttpMetrics {
  observe(method: string, route: string | undefined, statusCode: number, seconds: number): void;
  /** The Prometheus text exposition format, version 0.0.4. */
  render(): string;
}

export function createHttpMetrics(): HttpMetrics {
  const series = new Map<string, RouteSeries>();

  return {
    observe(method, route, statusCode, seconds) {
      const label = route ?? UNMATCHED_ROUTE;
      const key = `${method} ${label}`;
      let entry = series.get(key);
      if (entry === undefined) {
        entry = { method, route: label, byStatus: new Map(), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
        series.set(key, entry);
      }
      entry.byStatus.set(statusCode, (entry.byStatus.get(statusCode) ?? 0) + 1);
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] ?? Infinity)) bucket++;
      entry.buckets[bucket] = (entry.buckets[bucket] ?? 0) + 1;
      entry.sum += seconds;
      entry.count++;
    },

    render() {
      const entries = [...series.values()].sort((a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method));
      const lines: string[] = [
        '# HELP http_requests_total Requests answered, by method, route template and status code.',
        '# TYPE http_requests_total counter',
      ];
      for (const s of entries) {
        for (const [status, count] of [...s.byStatus].sort(([a], [b]) => a - b)) {
          lines.push(`http_requests_total{${labels(s)},status_code="${status}"} ${count}`);
        }
      }
      lines.push('# HELP http_request_duration_seconds Time from receiving a request to answering it, by method and route template.');
      lines.push('# TYPE http_request_duration_seconds histogram');
      for (const s of entries) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i] ?? 0;
          lines.push(`http_request_duration_seconds_bucket{${labels(s)},le="${le}"} ${cumulative}`);
        });
        lines.push(`http_request_duration_seconds_bucket{${labels(s)},le="+Inf"} ${s.count}`);
        lines.push(`http_request_duration_seconds_sum{${labels(s)}} ${s.sum}`);
        lines.push(`http_request_duration_seconds_count{${labels(s)}} ${s.count}`);
      }
      const memory = process.memoryUsage();
      gauge(lines, 'process_resident_memory_bytes', 'Resident memory size in bytes.', memory.rss);
      gauge(lines, 'nodejs_heap_used_bytes', 'V8 heap in use, in bytes.', memory.heapUsed);
      gauge(lines, 'process_uptime_seconds', 'Seconds since the process started.', process.uptime());
      return `${lines.join('\n')}\n`;
    },
  };
}

/**
 * Counts every response at the root of the app (so every module's routes are counted). The
 * route label is the route template (`/admin/v1/clients/:client_id`), never the raw URL: no
 * id, key, token or query string reaches a label, and the number of series stays bounded.
 */
export function registerMetrics(app: App): HttpMetrics {
  const metrics = createHttpMetrics();
  app.decorate('metrics', metrics);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  return metrics;
}

function labels(s: RouteSeries): string {
  return `method="${escapeLabel(s.method)}",route="${escapeLabel(s.route)}"`;
}

function gauge(lines: string[], name: string, help: string, value: number): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
}

/** Label values escape backslash, double quote and newline (exposition format 0.0.4). */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Request counters and latency histograms, rendered at GET /metrics. */
    metrics: HttpMetrics;
  }
}
