import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';

/**
 * One scrape of the API port shows the whole node, whichever worker takes it. The worker that
 * takes the scrape asks the primary over IPC; the primary gathers every worker's registry with
 * prom-client's AggregatorRegistry (which asks each worker over IPC in turn) and answers with the
 * sum. Counters and histograms are summed; prom-client's default metrics carry their own rule
 * (e.g. the event-loop delay is averaged, its maximum is the maximum).
 *
 * prom-client gives up on a worker that does not answer within 5 s; a worker waits a little
 * longer than that for the primary, so that the primary's answer (the sum, or its error) decides.
 */
const SCRAPE_TIMEOUT_MS = 6000;

const SCRAPE = 'sportsdata:metrics:scrape';
const SCRAPED = 'sportsdata:metrics:scraped';

interface ScrapeRequest {
  type: typeof SCRAPE;
  id: number;
}

interface ScrapeAnswer {
  type: typeof SCRAPED;
  id: number;
  metrics?: string;
  error?: string;
}

export interface MetricsAggregator {
  stop(): void;
}

/**
 * In the cluster primary, before or after forking: answers the workers' scrape requests with
 * the metrics of every worker, summed.
 */
export function startMetricsAggregator(): MetricsAggregator {
  const aggregator = new AggregatorRegistry<PrometheusContentType>();
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isMessage<ScrapeRequest>(message, SCRAPE)) return;
    aggregator.clusterMetrics().then(
      (metrics) => answer(worker, { type: SCRAPED, id: message.id, metrics }),
      (error: unknown) => answer(worker, { type: SCRAPED, id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  };
  cluster.on('message', onMessage);
  return { stop: () => void cluster.off('message', onMessage) };
}

function answer(worker: Worker, message: ScrapeAnswer): void {
  // The worker may have died while the others were asked; it no longer needs the answer.
  if (worker.isConnected()) worker.send(message, undefined, () => {});
}

/**
 * In a cluster worker: lets the primary's AggregatorRegistry read this registry. prom-client
 * installs its worker-side listener when an AggregatorRegistry is constructed, once per process.
 */
export function shareWithPrimary(registry: Registry): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries(registry);
  new AggregatorRegistry<PrometheusContentType>();
}

export interface NodeMetrics {
  /** The exposition text. */
  text: string;
  /** `node`: every worker of the node, summed; `process`: this process only. */
  scope: 'node' | 'process';
  /** Why a worker answered with its own metrics only: the primary did not answer. */
  fallback?: Error;
}

/**
 * The metrics a scrape of this process answers with: the whole node's when this process is a
 * cluster worker, else its own. A worker whose primary does not answer falls back to its own
 * registry — see docs/decisions/0050-metrics-with-prom-client.md for what that costs a rate().
 */
export async function nodeMetrics(registry: Registry, timeoutMs = SCRAPE_TIMEOUT_MS): Promise<NodeMetrics> {
  if (!cluster.isWorker || !process.connected) return { text: await registry.metrics(), scope: 'process' };
  try {
    return { text: await askPrimary(timeoutMs), scope: 'node' };
  } catch (error) {
    const fallback = error instanceof Error ? error : new Error(String(error));
    return { text: await registry.metrics(), scope: 'process', fallback };
  }
}

let nextId = 0;

function askPrimary(timeoutMs: number): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const finish = (error: Error | undefined, text = '') => {
      clearTimeout(timer);
      process.off('message', onMessage);
      if (error) reject(error);
      else resolve(text);
    };
    const onMessage = (message: unknown) => {
      if (!isMessage<ScrapeAnswer>(message, SCRAPED) || message.id !== id) return;
      if (typeof message.metrics === 'string') finish(undefined, message.metrics);
      else finish(new Error(`the primary could not gather the workers' metrics: ${message.error ?? 'no reason given'}`));
    };
    const timer = setTimeout(() => finish(new Error(`the primary did not answer within ${timeoutMs} ms`)), timeoutMs);
    process.on('message', onMessage);
    const request: ScrapeRequest = { type: SCRAPE, id };
    process.send?.(request, undefined, {}, (error) => {
      if (error) finish(error);
    });
  });
}

function isMessage<T extends { type: string; id: number }>(value: unknown, type: T['type']): value is T {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === type && 'id' in value && typeof value.id === 'number';
}
