import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../../platform/background.js';
import type { Clock } from '../../../platform/clock.js';
import type { SourceImporter } from '../source-batch.js';
import { readTheOddsApi } from '../the-odds-api/the-odds-api.reader.js';
import { backoffMs } from './upstream.backoff.js';
import { createSeenRows } from './upstream.changes.js';
import { createUpstreamClient, type UpstreamErrorKind, type UpstreamQuota } from './upstream.client.js';
import type { LeasesRepository } from './leases.repository.js';
import { createUpstreamMetrics } from './upstream.metrics.js';
import type { UpstreamSettings } from './upstream.settings.js';

/** What /readyz shows of the feed; it never changes the readiness status. */
export interface UpstreamDetails {
  /** `polling`: this node holds the lease and its last round went well; `failing`: it did not; `standby`: another node polls; `starting`: no round yet. */
  state: 'starting' | 'polling' | 'failing' | 'standby';
  last_success: string | null;
  last_error: { kind: UpstreamErrorKind; at: string } | null;
  requests_remaining: number | null;
  rows_imported: number;
}

/** Follows an upstream answering in The Odds API v4's shape, importing what changed (decision 0301). */
export interface UpstreamFeed extends BackgroundJob {
  /** One round: each sport's odds and scores, if this node holds the lease. Resolves to the wait before the next round. */
  poll(log: JobLog): Promise<number>;
  details(): UpstreamDetails;
  /** Gives the lease up (a stopped job does; the CLI when it ends). */
  release(): Promise<void>;
}

export interface UpstreamFeedDeps {
  settings: UpstreamSettings;
  importer: SourceImporter;
  leases: LeasesRepository;
  clock: Clock;
  /** The app's registry: the feed's series are scraped with the others. */
  registry: Registry;
  /** Where the feed registers as background work; the CLI, which runs rounds itself, passes none. */
  background?: BackgroundJobs;
  /** The jitter's source (tests fix it). */
  random?: () => number;
}

const LEASE = 'upstream:the-odds-api';
/** Errors worth waiting longer for: the upstream is overloaded, limiting us, or unreachable. */
const BACK_OFF: ReadonlySet<UpstreamErrorKind> = new Set(['rate-limited', 'server', 'timeout', 'network']);
const ENDPOINTS = [
  { kind: 'odds', path: (sport: string) => `/v4/sports/${encodeURIComponent(sport)}/odds` },
  // daysFrom=1: the games completed in the last day, whose final scores are what we grade on.
  { kind: 'scores', path: (sport: string) => `/v4/sports/${encodeURIComponent(sport)}/scores` },
] as const;

export function createUpstreamFeed(deps: UpstreamFeedDeps): UpstreamFeed {
  const { settings, importer, leases, clock } = deps;
  const random = deps.random ?? Math.random;
  const client = createUpstreamClient(settings);
  const metrics = createUpstreamMetrics(deps.registry);
  const seen = createSeenRows();
  const holder = randomUUID();
  // Long enough for a whole round to end before another node may take over; short enough that one does soon after this node dies.
  const leaseMs = 2 * settings.intervalMs + settings.sports.length * ENDPOINTS.length * settings.timeoutMs;
  const details: UpstreamDetails = { state: 'starting', last_success: null, last_error: null, requests_remaining: null, rows_imported: 0 };
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let round: Promise<unknown> | undefined;

  const queryOf = (kind: 'odds' | 'scores'): Record<string, string> =>
    kind === 'odds' ? { regions: settings.regions, markets: settings.markets, oddsFormat: 'decimal', dateFormat: 'iso' } : { daysFrom: '1', dateFormat: 'iso' };

  const fail = (log: JobLog, kind: UpstreamErrorKind, message: string, fields: Record<string, unknown>) => {
    metrics.failed(kind);
    details.last_error = { kind, at: new Date(clock.now()).toISOString() };
    log.warn({ kind, ...fields }, client.redact(message));
  };

  const noteQuota = (quota: UpstreamQuota) => {
    metrics.quota(quota);
    if (quota.remaining !== undefined) details.requests_remaining = quota.remaining;
  };

  /** One answer read and imported: false when the round must stop and back off. */
  async function follow(log: JobLog, sport: string, endpoint: (typeof ENDPOINTS)[number]): Promise<{ ok: boolean; backOff?: number }> {
    const answer = await client.get(endpoint.path(sport), queryOf(endpoint.kind));
    noteQuota(answer.quota);
    if (!answer.ok) {
      fail(log, answer.kind, `upstream feed: ${answer.message}`, { sport, endpoint: endpoint.kind });
      return BACK_OFF.has(answer.kind) ? { ok: false, backOff: answer.retryAfterMs ?? 0 } : { ok: false };
    }
    const batch = readTheOddsApi(answer.body, { oddsFormat: 'decimal', kind: endpoint.kind });
    if (batch.problems.some((p) => p.row === 0)) {
      fail(log, 'malformed', `upstream feed: the ${endpoint.kind} answer is not in The Odds API's shape`, { sport, endpoint: endpoint.kind });
      return { ok: false };
    }
    const [first] = batch.problems;
    if (first !== undefined) {
      fail(log, 'rows', `upstream feed: ${batch.problems.length} invalid item(s) left out, the first at item ${first.row}, ${first.column}: ${first.message}`, { sport, endpoint: endpoint.kind });
    }
    const changed = seen.changed(endpoint.kind, batch.rows);
    if (changed.length === 0) return { ok: first === undefined };
    try {
      await importer.importBatch({ ...batch, rows: changed, problems: [] }, { skipInvalid: true });
    } catch (error) {
      fail(log, 'import', `upstream feed: the import failed: ${error instanceof Error ? error.message : String(error)}`, { sport, endpoint: endpoint.kind });
      return { ok: false };
    }
    seen.remember(endpoint.kind, changed);
    metrics.imported(changed.length);
    details.rows_imported += changed.length;
    return { ok: first === undefined };
  }

  async function poll(log: JobLog): Promise<number> {
    const now = clock.now();
    let held: boolean;
    try {
      held = await leases.take(LEASE, holder, now, now + leaseMs);
    } catch (error) {
      log.warn({ err: error }, 'upstream feed: the lease could not be taken; trying again at the next interval');
      return settings.intervalMs;
    }
    metrics.leased(held);
    if (!held) {
      // Another node polls: what this one saw is no guide to what that one imported.
      if (details.state !== 'standby') seen.clear();
      details.state = 'standby';
      return settings.intervalMs;
    }
    let allOk = true;
    for (const sport of settings.sports) {
      for (const endpoint of ENDPOINTS) {
        const outcome = await follow(log, sport, endpoint);
        allOk &&= outcome.ok;
        if (outcome.backOff !== undefined) {
          failures += 1;
          details.state = 'failing';
          return backoffMs(settings.intervalMs, failures, random, outcome.backOff);
        }
      }
    }
    failures = 0;
    details.state = allOk ? 'polling' : 'failing';
    if (allOk) {
      metrics.succeeded(clock.now());
      details.last_success = new Date(clock.now()).toISOString();
    }
    return settings.intervalMs;
  }

  const feed: UpstreamFeed = {
    name: 'upstream feed',
    poll,
    details: () => ({ ...details }),
    release: () => leases.release(LEASE, holder).catch(() => {}),
    start(log) {
      if (running) return;
      running = true;
      const next = (ms: number) => {
        if (!running) return;
        timer = setTimeout(() => {
          round = poll(log).then(next, (error: unknown) => {
            log.error({ err: error }, 'upstream feed: a round failed');
            next(settings.intervalMs);
          });
        }, ms);
        timer.unref();
      };
      next(0);
    },
    async stop() {
      if (!running) return;
      running = false;
      clearTimeout(timer);
      // A round under way ends first: its import is not cut in two.
      await round;
      await feed.release();
    },
  };
  return deps.background ? deps.background.own(feed) : feed;
}
