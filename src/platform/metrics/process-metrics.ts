import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';

/**
 * prom-client's default gauges whose names end in `_total`: promtool's lint refuses a gauge with
 * a counter's suffix, and each is the sum of the labelled gauge beside it
 * (`sum(nodejs_active_handles)`), so nothing is lost by leaving them out.
 */
const LINT_FAILING_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let shared: readonly Metric[] | undefined;

/**
 * The process's own figures: prom-client's default metrics (CPU, memory, file descriptors,
 * handles, event-loop delay, GC pauses, Node.js version) and the two gauges the hand-written
 * /metrics had. Made once per process, at the first call, and shared by every app the process
 * builds: the collectors behind them (an event-loop delay monitor, a GC observer) describe the
 * process, and a test file that builds ten apps must not start ten of them. Each app's
 * registry registers these same objects.
 */
export function processMetrics(): readonly Metric[] {
  if (shared) return shared;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of LINT_FAILING_DEFAULTS) registry.removeSingleMetric(name);

  new Gauge({
    name: 'nodejs_heap_used_bytes',
    help: 'V8 heap in use, in bytes.',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  new Gauge({
    name: 'process_uptime_seconds',
    help: 'Seconds since the process started.',
    registers: [registry],
    // Across the workers of a node: the oldest one's, i.e. how long the node has been serving.
    aggregator: 'max',
    collect() {
      this.set(process.uptime());
    },
  });
  shared = registry.getMetricsAsArray().flatMap(({ name }) => registry.getSingleMetric(name) ?? []);
  return shared;
}
