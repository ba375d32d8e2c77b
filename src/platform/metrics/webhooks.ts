import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** How one delivery attempt ended: the `outcome` label of webhook_deliveries_total. */
export const WEBHOOK_OUTCOMES = ['delivered', 'failed', 'gone', 'exhausted'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Why the service disabled an endpoint: the `reason` label of webhook_endpoints_disabled_total. */
export const WEBHOOK_DISABLE_REASONS = ['gone', 'retries_exhausted'] as const;
export type WebhookDisableReason = (typeof WEBHOOK_DISABLE_REASONS)[number];

/** What waits to be sent. */
export interface WebhookBacklog {
  /** Deliveries pending (to send or to retry), test deliveries aside. */
  pending: number;
  /** Rare events recorded and not yet formed into deliveries. */
  outbox: number;
}

/**
 * The webhook dispatcher's series (modules/webhooks), each from 0 on every node. No label carries
 * an endpoint, a URL, a client or a secret: those are unbounded, and a URL may hold a token.
 */
export interface WebhookMetrics {
  outcome(outcome: WebhookOutcome): void;
  /** From the newest change a delivery carries being recorded to its 2xx. */
  latency(seconds: number): void;
  disabled(reason: WebhookDisableReason): void;
  /** What waits, as a dispatch pass counted it (a scrape reads no database). */
  backlog(now: WebhookBacklog): void;
}

export function webhookSeries(registry: Registry): WebhookMetrics {
  const pending = new Gauge({
    name: 'webhook_backlog_deliveries',
    help: 'Webhook deliveries pending: to send, or to retry when due (a spent schedule included), as the last dispatch pass counted.',
    registers: [registry],
    aggregator: 'max',
  });
  const outbox = new Gauge({
    name: 'webhook_outbox_rows',
    help: 'Event updates and grades recorded for webhooks and not yet formed into deliveries, as the last dispatch pass counted.',
    registers: [registry],
    aggregator: 'max',
  });
  const outcomes = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), failed (retried later), gone (410: endpoint disabled), exhausted (schedule spent: endpoint disabled).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'webhook_delivery_latency_seconds',
    help: "Time from the newest change a webhook delivery carries being recorded to the endpoint's 2xx.",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1_800, 3_600, 86_400],
    registers: [registry],
  });
  const disabled = new Counter({
    name: 'webhook_endpoints_disabled_total',
    help: 'Webhook endpoints the service disabled, by reason: gone (answered 410) or retries_exhausted.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const byOutcome = new Map(WEBHOOK_OUTCOMES.map((outcome) => [outcome, outcomes.labels({ outcome })] as const));
  for (const child of byOutcome.values()) child.inc(0);
  const byReason = new Map(WEBHOOK_DISABLE_REASONS.map((reason) => [reason, disabled.labels({ reason })] as const));
  for (const child of byReason.values()) child.inc(0);
  pending.set(0);
  outbox.set(0);
  return {
    outcome: (outcome) => byOutcome.get(outcome)?.inc(),
    latency: (seconds) => latency.observe(seconds),
    disabled: (reason) => byReason.get(reason)?.inc(),
    backlog(now) {
      pending.set(now.pending);
      outbox.set(now.outbox);
    },
  };
}
