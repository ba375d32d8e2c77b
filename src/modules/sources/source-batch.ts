/**
 * What every outside format is read into before anything is stored: matches named the way their
 * source names them (its team names, its league and book codes), with their prices and results.
 * A parser (football-data's CSV, The Odds API's JSON) only reads; the resolver (sources.service)
 * finds or makes the entities those names stand for, queues what no rule matches, and writes the
 * rest through the bulk import in one transaction.
 */

import type { SourceName } from '../../shared/sources.js';

/** The formats the service reads (shared with the import's aliases, which name them too). */
export { SOURCES, type SourceName } from '../../shared/sources.js';

/** A problem with one row of a file: refused whole unless the caller skips invalid rows. */
export interface RowProblem {
  /** 1-based: the CSV line (the header is line 1), or the index + 1 of the item in a JSON array; 0: the body as a whole. */
  row: number;
  /** The column (CSV) or the field path inside the item (JSON), e.g. `B365H`, `bookmakers[0].markets[1].outcomes[0].price`. */
  column: string;
  message: string;
}

/** A code of the source mapped to one of our keyed records, by the source's shipped table (an alias may override it). */
export interface Mapped {
  /** The source's own code or name, e.g. `E0`, `soccer_epl`, `B365`, `pinnacle`. */
  sourceKey: string;
  /** Our key, e.g. `premier-league`, `bet365`; undefined when the shipped table does not know the code. */
  key?: string;
  /** Our display name for a record made from it, e.g. `Premier League`, `Bet365`. */
  name: string;
}

export interface SourceLeague extends Mapped {
  /** Our sport key and name, e.g. `soccer` / `Soccer`. */
  sport: { key: string; name: string };
  country?: { key: string; name: string };
}

/** The markets a source prices, by our market keys (created with their settlement when absent). */
export const SOURCE_MARKETS = ['match-result', 'moneyline', 'total', 'spread'] as const;
export type SourceMarket = (typeof SOURCE_MARKETS)[number];
export type SourcePosition = 'home' | 'draw' | 'away' | 'over' | 'under';

export interface SourcePrice {
  book: Mapped;
  market: SourceMarket;
  position: SourcePosition;
  /** `spread`: the handicap of this position's side (home −0.25 ⇒ away +0.25); `total`: the total. */
  line?: number;
  /** Decimal price, above 1. */
  price: number;
  /** When the price held: the instant its history point is recorded at (ISO 8601, UTC). */
  at: string;
  /** Where in the row it was read (error messages, the review queue). */
  column: string;
}

export interface SourceResult {
  status: 'scheduled' | 'live' | 'final';
  home?: number;
  away?: number;
  /** First-half score, when the source gives one. */
  firstHalf?: { home: number; away: number };
}

/** One match as the source gives it. */
export interface SourceRow {
  row: number;
  /**
   * The source's own key of the event: The Odds API's id; for football-data, which has none,
   * `Div/yyyy-mm-dd/Home/Away` (the day in UK local time).
   */
  eventKey: string;
  league: SourceLeague;
  home: string;
  away: string;
  /** Kick-off, ISO 8601 UTC. */
  startTime: string;
  result?: SourceResult;
  prices: SourcePrice[];
}

/** A file (or an upstream answer) read: its rows, and the rows it refused. */
export interface SourceBatch {
  source: SourceName;
  rows: SourceRow[];
  problems: RowProblem[];
  /** A historical snapshot's instants (The Odds API): when it was taken, and the snapshots before and after it. */
  snapshot?: { timestamp: string; previous?: string; next?: string };
}

export interface SourceImportOptions {
  /** Import the valid rows and list the others, instead of refusing the whole batch (422). */
  skipInvalid?: boolean;
}

/** What a source import did: the waiting rows are imported later, when an alias resolves their names. */
export interface SourceImportResult {
  imported: { events: number; odds: number; results: number };
  /** Rows waiting in the review queue for a name no rule matched. */
  queued: number;
  /** The rows left out with `skipInvalid`, and why. */
  skipped: RowProblem[];
}

/** The resolver and writer of source batches (sources.service); the routes, the CLI and the upstream feed call it. */
export interface SourceImporter {
  importBatch(batch: SourceBatch, options?: SourceImportOptions): Promise<SourceImportResult>;
}
