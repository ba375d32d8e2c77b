import type { JobLog } from '../../../platform/background.js';
import type { Clock } from '../../../platform/clock.js';
import type { SourceImporter } from '../source-batch.js';
import { readTheOddsApi } from '../the-odds-api/the-odds-api.reader.js';
import { createSeenRows } from './upstream.changes.js';
import type { UpstreamErrorKind, UpstreamMetrics, UpstreamQuota } from '../../../platform/metrics/upstream.js';
import type { UpstreamClient } from './upstream.client.js';
import type { UpstreamDetails } from './upstream.feed.js';
import type { UpstreamSettings } from './upstream.settings.js';

/** What the feed asks each sport for. */
export const ENDPOINTS = [
  { kind: 'odds', path: (sport: string) => `/v4/sports/${encodeURIComponent(sport)}/odds` },
  // daysFrom=1: the games completed in the last day, whose final scores are what we grade on.
  { kind: 'scores', path: (sport: string) => `/v4/sports/${encodeURIComponent(sport)}/scores` },
] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** Errors worth waiting longer for: the upstream is overloaded, limiting us, or unreachable. */
const BACK_OFF: ReadonlySet<UpstreamErrorKind> = new Set(['rate-limited', 'server', 'timeout', 'network']);

/** How one answer went: `backOff` (the Retry-After, else 0) when the round must stop and wait longer. */
export interface FollowOutcome {
  ok: boolean;
  backOff?: number;
}

/** One answer asked for, read and its changed rows imported, with what it did counted and kept for /readyz. */
export interface AnswerFollower {
  follow(log: JobLog, sport: string, endpoint: Endpoint): Promise<FollowOutcome>;
  /** Forgets what was handed over: another node imports meanwhile. */
  forget(): void;
}

export interface AnswerFollowerDeps {
  client: UpstreamClient;
  importer: SourceImporter;
  metrics: UpstreamMetrics;
  clock: Clock;
  /** The feed's details, which this follower keeps up to date (last error, quota, rows imported). */
  details: UpstreamDetails;
  settings: Pick<UpstreamSettings, 'regions' | 'markets'>;
}

export function createAnswerFollower(deps: AnswerFollowerDeps): AnswerFollower {
  const { client, importer, metrics, clock, details, settings } = deps;
  const seen = createSeenRows();
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

  /** One answer read and its changed rows imported. */
  async function follow(log: JobLog, sport: string, endpoint: Endpoint): Promise<FollowOutcome> {
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

  return { follow, forget: () => seen.clear() };
}
