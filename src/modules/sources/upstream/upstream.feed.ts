import { randomUUID } from 'node:crypto';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../../platform/background.js';
import type { Clock } from '../../../platform/clock.js';
import type { UpstreamErrorKind, UpstreamMetrics } from '../../../platform/metrics/upstream.js';
import type { SourceImporter } from '../source-batch.js';
import { backoffMs } from './upstream.backoff.js';
import { createUpstreamClient } from './upstream.client.js';
import { createAnswerFollower, ENDPOINTS } from './upstream.follow.js';
import type { LeasesRepository } from '../../../platform/db/leases.repository.js';
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
  /** The app's series of the feed (Metrics.upstream). */
  metrics: UpstreamMetrics;
  /** Where the feed registers as background work. The CLI's context never starts it: `sportsdata feed` runs the rounds itself. */
  background?: BackgroundJobs;
  /** The jitter's source (tests fix it). */
  random?: () => number;
}

const LEASE = 'upstream:the-odds-api';

export function createUpstreamFeed(deps: UpstreamFeedDeps): UpstreamFeed {
  const { settings, importer, leases, clock, metrics } = deps;
  const random = deps.random ?? Math.random;
  const holder = randomUUID();
  // Long enough for a whole round to end before another node may take over; short enough that one does soon after this node dies.
  const leaseMs = 2 * settings.intervalMs + settings.sports.length * ENDPOINTS.length * settings.timeoutMs;
  const details: UpstreamDetails = { state: 'starting', last_success: null, last_error: null, requests_remaining: null, rows_imported: 0 };
  const answers = createAnswerFollower({ client: createUpstreamClient(settings), importer, metrics, clock, details, settings });
  let failures = 0;

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
      if (details.state !== 'standby') answers.forget();
      details.state = 'standby';
      return settings.intervalMs;
    }
    let allOk = true;
    for (const sport of settings.sports) {
      for (const endpoint of ENDPOINTS) {
        const outcome = await answers.follow(log, sport, endpoint);
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

  const release = () => leases.release(LEASE, holder).catch(() => {});
  const feed: UpstreamFeed = { name: 'upstream feed', poll, details: () => ({ ...details }), release, ...roundsInTurn(poll, settings.intervalMs, release) };
  return deps.background ? deps.background.own(feed) : feed;
}

/**
 * The job's start and stop: each round scheduled once the last has ended, after the wait it
 * asked for; the timer never holds the process open. Stopping waits for a round under way (its
 * import is not cut in two), then gives the lease up.
 */
function roundsInTurn(poll: (log: JobLog) => Promise<number>, intervalMs: number, release: () => Promise<void>): Pick<BackgroundJob, 'start' | 'stop'> {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let round: Promise<unknown> | undefined;
  return {
    start(log) {
      if (running) return;
      running = true;
      const next = (ms: number) => {
        if (!running) return;
        timer = setTimeout(() => {
          round = poll(log).then(next, (error: unknown) => {
            log.error({ err: error }, 'upstream feed: a round failed');
            next(intervalMs);
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
      await round;
      await release();
    },
  };
}
