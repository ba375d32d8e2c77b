import type { Metric, Registry } from 'prom-client';

/** One sample: `metricName` names a histogram's `_bucket`, `_sum` or `_count` line. */
export interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** A series that keeps its own numbers and renders them when scraped. */
export interface Collector {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  /** How the cluster primary combines workers: counts add up. */
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: 'counter' | 'histogram'; aggregator: 'sum'; values: Sample[] }>;
  reset(): void;
}

/**
 * Registers a collector with a prom-client registry, which reads only name, help, type,
 * aggregator, get() and reset() of what it holds — prom-client's own AggregatorRegistry
 * registers plain objects of this shape. Its type declarations admit only its four metric
 * classes (and declare `type` as a number where the runtime uses 'counter'), hence the cast.
 */
export function registerCollector(registry: Registry, collector: Collector): void {
  registry.registerMetric(collector as unknown as Metric);
}

/** A collector of `metric` whose samples `samples()` computes at each scrape. */
export function collector(metric: Pick<Collector, 'name' | 'help' | 'type' | 'aggregator'>, reset: () => void, samples: () => Sample[]): Collector {
  return { ...metric, reset, get: async () => ({ ...metric, values: samples() }) };
}
