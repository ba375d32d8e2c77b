import { randomUUID } from 'node:crypto';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../platform/background.js';
import { createBatches } from '../../platform/batches.js';
import { LruCache } from '../../platform/cache/lru.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { Clock } from '../../platform/clock.js';
import type { WebhookMetrics } from '../../platform/metrics/webhooks.js';
import type { AttemptVerdict, Delivery, SettledAttempt, WebhookDispatchRepository } from './webhook-dispatch.repository.js';
import { nextAttemptAt } from './webhook.retries.js';
import type { WebhookSender } from './webhook.sender.js';
import type { AttemptOutcome, WebhookEndpoint, WebhookEventType } from './webhook.types.js';

/**
 * Sends the deliveries: on every node, each attempt by exactly one (a lease per delivery), each
 * endpoint strictly in sequence order (its head only), several endpoints at once (decision 0310).
 */
export interface WebhookDispatcher extends BackgroundJob {
  /** Sends every delivery due now, and what each success makes due, then counts the backlog; resolves once none is left. Runs share one pass. */
  run(): Promise<void>;
  /**
   * Sends one delivery now, whatever its state, under its lease (null: another attempt holds it).
   * A success delivers a pending one and a 410 disables its endpoint; a failure leaves its schedule.
   */
  sendNow(delivery: Delivery, endpoint: WebhookEndpoint): Promise<AttemptOutcome | null>;
}

export interface WebhookDispatcherDeps {
  repository: WebhookDispatchRepository;
  sender: WebhookSender;
  /** Opens the endpoints' sealed secrets (the service's token cipher). */
  cipher: { open(sealed: string): string };
  clock: Clock;
  changes: ChangeFeed;
  metrics: WebhookMetrics;
  background: BackgroundJobs;
  /** A delivery acknowledged (2xx): counted in the client's usage. */
  delivered(clientId: string, now: number): void;
  /** The sender's deadline: a lease outlives it by LEASE_MARGIN_MS. */
  timeoutMs: number;
  /** Endpoints sent to at once by this node. */
  concurrency: number;
  /** How often due retries are looked for without a signal. */
  everyMs: number;
  random?: () => number;
  /** This node's name on its leases (default: a random one per dispatcher). */
  holder?: string;
}

/** What a lease adds to the sender's deadline: the attempt's record is written before another node may take it. */
export const LEASE_MARGIN_MS = 30_000;

interface DispatchState {
  /** The attempt under way per endpoint: one at a time each. */
  inFlight: Map<string, Promise<void>>;
  running: Promise<void> | undefined;
  again: boolean;
  timer: NodeJS.Timeout | undefined;
  log: JobLog | undefined;
  /** When the backlog gauge was last counted (performance.now()). */
  countedAt: number;
}

/** How often a pass that does not end (a busy feed) counts the backlog for the gauge. */
const BACKLOG_EVERY_MS = 1_000;

export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const holder = deps.holder ?? `node-${randomUUID()}`;
  const random = deps.random ?? Math.random;
  const state: DispatchState = { inFlight: new Map(), running: undefined, again: false, timer: undefined, log: undefined, countedAt: 0 };

  // Attempts that end together are recorded in one transaction.
  const settle = createBatches<SettledAttempt>((attempts) => deps.repository.settle(attempts));
  const opened = openedSecrets(deps.cipher);
  const attempt = async (delivery: Delivery, endpoint: WebhookEndpoint, manual: boolean): Promise<AttemptOutcome> => {
    const outcome = await send(deps, opened, delivery, endpoint);
    const verdict = verdictOf(outcome, delivery, manual, random);
    await settle({ delivery, endpoint, holder, outcome, verdict });
    observe(deps, endpoint, delivery, outcome, verdict);
    return outcome;
  };

  const dispatcher: WebhookDispatcher = {
    name: 'webhook dispatcher',

    run() {
      state.again = true;
      if (state.running !== undefined) return state.running;
      state.running = (async () => {
        try {
          while (state.again) {
            state.again = false;
            await drain(deps, state, holder, (delivery, endpoint) => attempt(delivery, endpoint, false));
            // Counted inside the loop: a run() asked meanwhile still gets its pass.
            if (!state.again) await countBacklog(deps, state);
          }
        } finally {
          // Cleared in the same turn as the last look at `again`: a run() asked after it starts a new pass,
          // never one that joins a pass already past its end (a delivery made due then would wait for the timer).
          state.running = undefined;
        }
      })();
      return state.running;
    },

    async sendNow(delivery, endpoint) {
      const now = deps.clock.now();
      const claimed = await deps.repository.claim([delivery.id], holder, now, now + deps.timeoutMs + LEASE_MARGIN_MS, { anyState: true, enabledOnly: false });
      if (!claimed.has(delivery.id)) return null;
      return attempt(delivery, endpoint, true);
    },

    start(log) {
      state.log = log;
      if (state.timer !== undefined) return;
      const wake = () => void dispatcher.run().catch((error: unknown) => state.log?.warn({ err: error }, 'webhook dispatch failed'));
      deps.changes.onChange('webhooks', wake);
      state.timer = setInterval(wake, deps.everyMs);
      state.timer.unref();
      wake();
    },

    async stop() {
      if (state.timer !== undefined) clearInterval(state.timer);
      state.timer = undefined;
      state.log = undefined;
      await state.running?.catch(() => {});
    },
  };
  return deps.background.own(dispatcher);
}

/**
 * Claims the due heads of endpoints not in flight, up to the concurrency, and sends each; goes on
 * as attempts end (a delivered head makes the next one due) until nothing is due or claimable.
 */
async function drain(
  deps: WebhookDispatcherDeps,
  state: DispatchState,
  holder: string,
  attempt: (delivery: Delivery, endpoint: WebhookEndpoint) => Promise<AttemptOutcome>,
): Promise<void> {
  const failures: unknown[] = [];
  for (;;) {
    const free = deps.concurrency - state.inFlight.size;
    let started = 0;
    let busy: string[] = [];
    if (free > 0) {
      const now = deps.clock.now();
      busy = [...state.inFlight.keys()];
      const heads = await deps.repository.dueHeads(now, busy, free);
      const claimed = await deps.repository.claim(
        heads.map(({ delivery }) => delivery.id),
        holder,
        now,
        now + deps.timeoutMs + LEASE_MARGIN_MS,
      );
      for (const { delivery, endpoint } of heads) {
        if (!claimed.has(delivery.id)) continue;
        started += 1;
        const work = attempt(delivery, endpoint)
          .then(() => undefined)
          .catch((error: unknown) => void failures.push(error))
          .finally(() => state.inFlight.delete(endpoint.id));
        state.inFlight.set(endpoint.id, work);
      }
    }
    // Nothing in flight is the end only when the last look left no endpoint out and started
    // nothing: an attempt that ended during the look, or started and ended already, may have made
    // its endpoint's next delivery due, and that look could not see it.
    if (state.inFlight.size === 0) {
      if (busy.length === 0 && started === 0) break;
      continue;
    }
    // A pass a busy feed keeps going still shows its backlog on the gauge.
    if (performance.now() - state.countedAt >= BACKLOG_EVERY_MS) await countBacklog(deps, state);
    // Nothing new to start: wait for an attempt to end, which may make its endpoint's next delivery due.
    if (started === 0 || state.inFlight.size >= deps.concurrency) await Promise.race(state.inFlight.values());
  }
  if (failures.length > 0) throw failures[0];
}

async function countBacklog(deps: WebhookDispatcherDeps, state: DispatchState): Promise<void> {
  state.countedAt = performance.now();
  deps.metrics.backlog(await deps.repository.backlog());
}

/** Signs with the current secret, and the previous one while it has not expired (a rotation). */
async function send(deps: WebhookDispatcherDeps, opened: (sealed: string) => string, delivery: Delivery, endpoint: WebhookEndpoint): Promise<AttemptOutcome> {
  const now = deps.clock.now();
  const secrets = [opened(endpoint.secretSealed)];
  if (endpoint.previousSecretSealed !== null && (endpoint.previousSecretExpiresAt ?? 0) > now) secrets.push(opened(endpoint.previousSecretSealed));
  try {
    return await deps.sender.send(endpoint.url, secrets, { id: delivery.id, type: delivery.type as WebhookEventType | 'webhook.test', dataJson: delivery.data });
  } catch (error) {
    // The outbound guard answers every failure as a result; anything thrown still counts as a failed attempt.
    return { attemptedAt: now, statusCode: null, latencyMs: 0, responseExcerpt: '', error: error instanceof Error ? error.message : 'sending failed' };
  }
}

/**
 * The endpoints' secrets, each opened once while in use: a busy feed sends each endpoint several
 * deliveries a second, each of which opened (decrypted) its secrets again. A sealed text names one
 * secret for good (a rotation seals a new one), so what is kept is never stale.
 */
function openedSecrets(cipher: { open(sealed: string): string }): (sealed: string) => string {
  const kept = new LruCache<string, string>(SECRETS_KEPT);
  return (sealed) => kept.getOrMake(sealed, (text) => cipher.open(text));
}

/** Secrets kept opened: a current and a previous one for each of a few hundred endpoints. */
const SECRETS_KEPT = 1_024;

/**
 * 2xx: delivered. 410: the endpoint is gone, disabled at once. Anything else (another status, a
 * 3xx, which is never followed, no answer in time, a refused address) is retried on the schedule
 * until it is spent, and then the endpoint is disabled.
 */
function verdictOf(outcome: AttemptOutcome, delivery: Delivery, manual: boolean, random: () => number): AttemptVerdict {
  const status = outcome.statusCode;
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'disable', reason: 'gone' };
  if (manual) return { kind: 'recorded' };
  const next = nextAttemptAt(delivery.attempts + 1, outcome.attemptedAt, random);
  return next === null ? { kind: 'disable', reason: 'retries_exhausted' } : { kind: 'retry', nextAttemptAt: next };
}

function observe(deps: WebhookDispatcherDeps, endpoint: WebhookEndpoint, delivery: Delivery, outcome: AttemptOutcome, verdict: AttemptVerdict): void {
  const { metrics } = deps;
  if (verdict.kind === 'delivered') {
    metrics.outcome('delivered');
    // Commit to 2xx of a first delivery: a replay or a test delivery says nothing of that path.
    if (delivery.deliveredAt === null && delivery.state === 'pending') metrics.latency(Math.max(0, outcome.attemptedAt + outcome.latencyMs - delivery.changedAt) / 1000);
    deps.delivered(endpoint.clientId, outcome.attemptedAt);
    return;
  }
  if (verdict.kind === 'disable') {
    metrics.outcome(verdict.reason === 'gone' ? 'gone' : 'exhausted');
    metrics.disabled(verdict.reason);
    return;
  }
  metrics.outcome('failed');
}
