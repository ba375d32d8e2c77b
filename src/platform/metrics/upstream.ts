import { Counter, Gauge, type Registry } from 'prom-client';
/** Why a request to the upstream feed brought nothing usable, or what failed after it: the `kind` label of upstream_errors_total. */
export const UPSTREAM_ERRORS = ['rate-limited', 'server', 'refused', 'timeout', 'network', 'malformed', 'rows', 'import'] as const;
export type UpstreamErrorKind = (typeof UPSTREAM_ERRORS)[number];

/** The quota an upstream answer reports (x-requests-remaining, x-requests-used), when it does. */
export interface UpstreamQuota {
  remaining?: number;
  used?: number;
}

/**
 * The upstream feed's series (modules/sources), each from 0 whether a feed is configured or not,
 * so that a dashboard finds them on every node. No label carries the key or a URL.
 */
export interface UpstreamMetrics {
  succeeded(atMs: number): void;
  imported(rows: number): void;
  failed(kind: UpstreamErrorKind): void;
  quota(quota: UpstreamQuota): void;
  leased(held: boolean): void;
}

export function upstreamSeries(registry: Registry): UpstreamMetrics {
  const lastSuccess = new Gauge({
    name: 'upstream_last_success_timestamp_seconds',
    help: 'When a poll round of the upstream feed last ended with every answer read (0: never on this node).',
    registers: [registry],
    aggregator: 'max',
  });
  const rows = new Counter({ name: 'upstream_rows_imported_total', help: 'Rows the upstream feed handed the importer: the events whose odds or scores changed.', registers: [registry] });
  const errors = new Counter({
    name: 'upstream_errors_total',
    help: 'Failed upstream requests and imports, by kind (rate-limited, server, refused, timeout, network, malformed answer, invalid rows, import).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const remaining = new Gauge({ name: 'upstream_requests_remaining', help: 'The upstream quota left, as its last answer said (x-requests-remaining).', registers: [registry], aggregator: 'min' });
  const used = new Gauge({ name: 'upstream_requests_used', help: 'The upstream quota used, as its last answer said (x-requests-used).', registers: [registry], aggregator: 'max' });
  const lease = new Gauge({ name: 'upstream_lease_held', help: '1 while this node holds the upstream feed lease and polls; 0 while another does.', registers: [registry], aggregator: 'max' });
  const byKind = new Map(UPSTREAM_ERRORS.map((kind) => [kind, errors.labels({ kind })] as const));
  for (const child of byKind.values()) child.inc(0);
  lastSuccess.set(0);
  lease.set(0);
  return {
    succeeded: (atMs) => lastSuccess.set(atMs / 1000),
    imported: (count) => rows.inc(count),
    failed: (kind) => byKind.get(kind)?.inc(),
    quota(quota) {
      if (quota.remaining !== undefined) remaining.set(quota.remaining);
      if (quota.used !== undefined) used.set(quota.used);
    },
    leased: (held) => lease.set(held ? 1 : 0),
  };
}
