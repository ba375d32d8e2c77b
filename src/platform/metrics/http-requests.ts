import type { Registry } from 'prom-client';
import { type Collector, collector, registerCollector, type Sample } from './collector.js';

/** Upper bounds (seconds) of the latency histogram: a fast API answers in 1–10 ms. */
export const DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** The label of requests that matched no route: the raw URL would be unbounded and may carry anything. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface HttpRequestSeries {
  /** One answered request; `route` is the route template, undefined when no route matched. */
  observe(method: string, route: string | undefined, statusCode: number, seconds: number): void;
}

interface RouteSeries {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** Per-bucket (not cumulative) counts; the last slot is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * `http_requests_total{method,route,status_code}` and `http_request_duration_seconds{method,route}`.
 *
 * Every request records into both, so they keep plain numbers per method and route template,
 * found through two nested maps: no label string is built and nothing is allocated per request.
 * prom-client's labelled metrics hash their labels into a string on every increment (a few
 * times the cost of this); here that work happens once per series per scrape instead.
 */
export function createHttpRequestSeries(registry: Registry): HttpRequestSeries {
  const byRoute = new Map<string, Map<string, RouteSeries>>();
  const all: RouteSeries[] = [];

  const seriesOf = (method: string, route: string): RouteSeries => {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (series === undefined) {
      series = { method, route, byStatus: new Map(), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      byMethod.set(method, series);
      all.push(series);
    }
    return series;
  };
  const reset = () => {
    byRoute.clear();
    all.length = 0;
  };

  registerCollector(registry, requestsCollector(all, reset));
  registerCollector(registry, durationsCollector(all, reset));

  return {
    observe(method, route, statusCode, seconds) {
      const series = seriesOf(method, route ?? UNMATCHED_ROUTE);
      series.byStatus.set(statusCode, (series.byStatus.get(statusCode) ?? 0) + 1);
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] ?? Infinity)) bucket++;
      series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
      series.sum += seconds;
      series.count++;
    },
  };
}

function requestsCollector(all: readonly RouteSeries[], reset: () => void): Collector {
  const metric = { name: 'http_requests_total', help: 'Requests answered, by method, route template and status code.', type: 'counter', aggregator: 'sum' } as const;
  return collector(metric, reset, () => {
    const values: Sample[] = [];
    for (const s of all) {
      for (const [status, count] of s.byStatus) values.push({ labels: { method: s.method, route: s.route, status_code: status }, value: count });
    }
    return values;
  });
}

function durationsCollector(all: readonly RouteSeries[], reset: () => void): Collector {
  const name = 'http_request_duration_seconds';
  const help = 'Time from receiving a request to answering it, by method and route template.';
  return collector({ name, help, type: 'histogram', aggregator: 'sum' }, reset, () => {
    const values: Sample[] = [];
    for (const s of all) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i] ?? 0;
        values.push({ metricName: `${name}_bucket`, labels: { method: s.method, route: s.route, le }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { method: s.method, route: s.route, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${name}_sum`, labels: { method: s.method, route: s.route }, value: s.sum });
      values.push({ metricName: `${name}_count`, labels: { method: s.method, route: s.route }, value: s.count });
    }
    return values;
  });
}
