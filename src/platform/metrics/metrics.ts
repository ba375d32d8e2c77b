import { Counter, Histogram, Registry } from 'prom-client';
import type { BackgroundJob, BackgroundJobs } from '../background.js';
import type { CacheUsage } from '../cache/versioned-cache.js';
import type { ChangeVersionName } from '../db/schema.js';
import { shareWithPrimary } from './cluster.js';
import { collector, registerCollector, type Sample } from './collector.js';
import { createHttpRequestSeries, type HttpRequestSeries } from './http-requests.js';
import { processMetrics } from './process-metrics.js';
import { type UpstreamMetrics, upstreamSeries } from './upstream.js';
import { type WebhookMetrics, webhookSeries } from './webhooks.js';

const CHANGE_NAMES: readonly ChangeVersionName[] = ['clients', 'data'];

/**
 * Every cache namespace's lookups, by namespace name (the read cache's `snapshots`, `idLists`,
 * `items`, `pages`; the client directory's `clients`). The caches count in plain numbers
 * (versioned-cache.ts); this is read once per scrape.
 */
export type CacheLookups = () => Readonly<Record<string, Pick<CacheUsage, 'hits' | 'misses'>>>;

/** What the error handler is given: one count per 401, by its reason. */
export interface AuthFailureCounter {
  inc(reason: string): void;
}

/** One label set of a counter, looked up once and kept by its user. */
export interface CounterChild {
  inc(): void;
}

/**
 * Every series this service records besides the process's own, and the registry to scrape.
 * As a background job it adds the process's metrics to the registry and, in a cluster worker,
 * offers the registry to the primary: building a context (the CLI does) starts no collector.
 */
export interface Metrics extends BackgroundJob {
  /** This app's series and, once started, the process's: what a scrape of this process shows. */
  readonly registry: Registry;
  readonly http: HttpRequestSeries;
  /** 401s answered, by their `reason`. */
  readonly authFailures: AuthFailureCounter;
  /**
   * The counter of one tier and window, for the rate limiter to keep; see
   * rate_limit_rejections_total. The tier is the account's (modules/auth TIERS).
   */
  rateLimitRejections(tier: string, window: string): CounterChild;
  /** How long a query waited for a database connection. */
  connectionWait(seconds: number): void;
  /** How long after its commit this process saw a change made by another process. */
  changeLag(name: ChangeVersionName, seconds: number): void;
  /** One call to a client's check endpoint (or one refused by its cap), by outcome, and how long it took. */
  outboundCall(outcome: OutboundOutcome, seconds: number): void;
  /** The upstream feed's last success, rows imported, errors by kind, quota and lease. */
  readonly upstream: UpstreamMetrics;
  /** The webhook dispatcher's outcomes, latency, disabled endpoints and backlog. */
  readonly webhooks: WebhookMetrics;
}

/** How an outbound call ended: answered, an unusable answer, refused by the address rules, failed, timed out, or over the client's cap. */
export const OUTBOUND_OUTCOMES = ['answered', 'unusable', 'refused', 'failed', 'timeout', 'capped'] as const;
export type OutboundOutcome = (typeof OUTBOUND_OUTCOMES)[number];

/**
 * The series of one app (one per process in production; tests build many, each with its own
 * counts). Label children are created once and kept, so recording is a map lookup at most;
 * label sets known in advance are created at 0, so that `rate()` and `increase()` see a series
 * from its first increment on, and a query by label finds a 0 rather than nothing.
 */
export interface MetricsDeps {
  caches: CacheLookups;
  /** The closed list of 401 reasons (the auth module's): each series exists from 0. */
  authFailureReasons: readonly string[];
  /** Where the metrics register as background work (the process's collectors). */
  background: BackgroundJobs;
}

export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  const http = createHttpRequestSeries(registry);
  registerCollector(registry, cacheLookupsCollector(deps.caches));
  // Registered in the order a scrape lists them.
  const byReason = authFailureSeries(registry, deps.authFailureReasons);
  const rateLimitRejections = rateLimitSeries(registry);
  const connectionWaits = new Histogram({
    name: 'db_pool_wait_seconds',
    help: 'Time a query waited for a database connection: a pool connection on PostgreSQL, the one connection on SQLite.',
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const lagByName = changeLagSeries(registry);
  const outbound = outboundSeries(registry);
  const upstream = upstreamSeries(registry);
  const webhooks = webhookSeries(registry);

  return deps.background.own({
    name: 'metrics',
    registry,
    http,
    authFailures: { inc: (reason) => byReason.get(reason)?.inc() },
    rateLimitRejections,
    connectionWait: (seconds) => connectionWaits.observe(seconds),
    changeLag: (name, seconds) => lagByName.get(name)?.observe(seconds),
    outboundCall: outbound,
    upstream,
    webhooks,

    start() {
      // The process's collectors start at the first start in the process and run until it exits
      // (prom-client cannot stop them); every app of the process shows the same ones.
      for (const metric of processMetrics()) registry.registerMetric(metric);
      shareWithPrimary(registry);
    },
    // Nothing to stop: the process's collectors outlive any one app, and the registry stays
    // shared (it still counts) until the worker exits.
    stop() {},
  });
}

/** `auth_failures_total{reason}`: a child per reason of the closed list, each from 0. */
function authFailureSeries(registry: Registry, reasons: readonly string[]): Map<string, CounterChild> {
  const authFailures = new Counter({
    name: 'auth_failures_total',
    help: 'Requests answered 401, by reason (the reason field of the error body).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const byReason = new Map(reasons.map((reason) => [reason, authFailures.labels({ reason })] as const));
  for (const child of byReason.values()) child.inc(0);
  return byReason;
}

/** `rate_limit_rejections_total{tier,window}`: the child of one tier and window, created when first asked for. */
function rateLimitSeries(registry: Registry): Metrics['rateLimitRejections'] {
  const rateLimits = new Counter({
    name: 'rate_limit_rejections_total',
    // Without samples until the limiter first refuses in a tier and window (decision 0050).
    help: 'Requests refused 429 by the rate limiter, by tier and limit window.',
    labelNames: ['tier', 'window'] as const,
    registers: [registry],
  });
  const rateLimitChildren = new Map<string, CounterChild>();
  return (tier, window) => {
    // Asked once per tier and window by the limiter, which keeps the child: not a hot path.
    const key = `${tier}\u0000${window}`;
    let child = rateLimitChildren.get(key);
    if (child === undefined) {
      const labelled = rateLimits.labels({ tier, window });
      labelled.inc(0);
      child = { inc: () => labelled.inc() };
      rateLimitChildren.set(key, child);
    }
    return child;
  };
}

/** `change_feed_lag_seconds{name}`: a child per version name, each from 0. */
function changeLagSeries(registry: Registry) {
  const changeLags = new Histogram({
    name: 'change_feed_lag_seconds',
    help: 'Time from the commit of a change made by another process to this process seeing it, by version name.',
    labelNames: ['name'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 5, 10, 30],
    registers: [registry],
  });
  const lagByName = new Map(CHANGE_NAMES.map((name) => [name, changeLags.labels({ name })] as const));
  for (const name of CHANGE_NAMES) changeLags.zero({ name });
  return lagByName;
}

/** `outbound_calls_total{outcome}` (each outcome from 0) and `outbound_call_duration_seconds`. */
function outboundSeries(registry: Registry): Metrics['outboundCall'] {
  const outboundCalls = new Counter({
    name: 'outbound_calls_total',
    help: "Calls to clients' check endpoints, by outcome (capped: refused by the client's calls per minute, never sent).",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const outboundDurations = new Histogram({
    name: 'outbound_call_duration_seconds',
    help: "Time from sending a call to a client's check endpoint to its outcome, for the calls sent.",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const outboundByOutcome = new Map(OUTBOUND_OUTCOMES.map((outcome) => [outcome, outboundCalls.labels({ outcome })] as const));
  for (const child of outboundByOutcome.values()) child.inc(0);
  return (outcome, seconds) => {
    outboundByOutcome.get(outcome)?.inc();
    if (outcome !== 'capped') outboundDurations.observe(seconds);
  };
}

/**
 * `read_cache_requests_total{namespace,result}`: the caches' own counts, rendered at scrape
 * time. Every namespace is a series from the start. A reset does nothing: the counts belong to
 * the caches, which count from their creation.
 */
function cacheLookupsCollector(caches: CacheLookups) {
  const metric = { name: 'read_cache_requests_total', help: 'Cache lookups, by cache namespace and result (hit or miss).', type: 'counter', aggregator: 'sum' } as const;
  return collector(metric, () => {}, () => {
    const values: Sample[] = [];
    for (const [namespace, { hits, misses }] of Object.entries(caches())) {
      values.push({ labels: { namespace, result: 'hit' }, value: hits }, { labels: { namespace, result: 'miss' }, value: misses });
    }
    return values;
  });
}
