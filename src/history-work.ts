import type { Config } from './config.js';
import type { BackgroundJobs } from './platform/background.js';
import type { ChangeFeed } from './platform/cache/change-feed.js';
import type { Clock } from './platform/clock.js';
import type { Database } from './platform/db/database.js';
import { createHistoryProcessor, type HistoryProcessor, type RecentChanges } from './modules/history/index.js';
import { createBoardEventsWork, createMovesWork } from './modules/odds/index.js';
import { createSignals, type Signals } from './modules/signals/index.js';
import { createWebhookFormer, createWebhookPurgeJob, WEBHOOKS_BOARD_CURSOR, type WebhookFormer } from './modules/webhooks/index.js';

/** How often every node runs the history processors on its own: for the changes of a node that died after its import. */
const HISTORY_PROCESSOR_EVERY_MS = 5_000;
/** Changes per batch of the board events processor (createHistoryWork). */
const BOARD_EVENTS_BATCH = 10_000;
/**
 * The board events and the steam moves run on this node's imports at most once per window: their
 * work is per market touched, and a busy feed's imports within a window touch mostly the same
 * markets, so each is computed once per window instead of once per import. A quiet feed is not held
 * back (the first import of a window runs at once); a busy one sees its board events up to this late.
 */
const BOARD_EVENTS_WINDOW_MS = 250;

/** The work done once from the price history after the imports (createHistoryWork). */
export interface HistoryWorkSet {
  boardEvents: HistoryProcessor;
  oddsMoves: HistoryProcessor | undefined;
  webhookFormer: WebhookFormer;
  signals: Signals;
}

/**
 * The work done once from the price history after the imports, for every node: the board events
 * (computed by the node that imported, or the next to run it, for every node's streams), the steam
 * moves and drops, the signals, and the webhooks' deliveries, with their purge. The serving
 * context builds it, and so does the import thread (src/import-thread.ts), which runs it after
 * the imports it makes.
 */
export function createHistoryWork(deps: {
  config: Config;
  db: Database['db'];
  clock: Clock;
  changes: ChangeFeed;
  background: BackgroundJobs;
  recent: RecentChanges;
  /**
   * Whether this thread runs the work on its own too, at start and every few seconds, for what a
   * node that died left (default yes). No for a serving thread beside its node's import thread,
   * which does: the serving thread then runs it only after its own imports (the upstream feed, the
   * sources). Run on both timers, each batch was computed twice, once on the thread that
   * serves the reads, and one of the two thrown away.
   */
  onTimer?: boolean;
}): HistoryWorkSet {
  const { config, db, clock, changes, background, recent } = deps;
  const everyMs = deps.onTimer === false ? 0 : HISTORY_PROCESSOR_EVERY_MS;
  const boardEvents = createHistoryProcessor({
    db,
    changes,
    background,
    everyMs,
    // Its work is per market touched (every selection of a market whose price moved): a big
    // import's changes are taken 10,000 at a time, so that its markets are computed a few times,
    // not once per thousand changes.
    batch: BOARD_EVENTS_BATCH,
    windowMs: BOARD_EVENTS_WINDOW_MS,
    // The webhooks' former reads the board changes after this processor stores them: none is purged before it has.
    work: createBoardEventsWork({ clock, changes, readers: [WEBHOOKS_BOARD_CURSOR] }),
    recent,
  });
  const oddsMoves = config.moves.detect
    ? createHistoryProcessor({
        db,
        changes,
        background,
        everyMs,
        windowMs: BOARD_EVENTS_WINDOW_MS,
        work: createMovesWork({ clock, changes, thresholds: config.moves.thresholds }),
        recent,
      })
    : undefined;
  const webhookFormer = createWebhookFormer({
    db,
    clock,
    changes,
    background,
    batchMax: config.webhookBatchMax,
    windowMs: config.webhookBatchWindowMs,
    everyMs,
    recent,
  });
  createWebhookPurgeJob({ db, clock, retentionDays: config.webhookRetentionDays, background });
  const signals = createSignals({ db, clock, changes, background, minEvPct: config.signalsMinEvPct, everyMs, recent });
  return { boardEvents, oddsMoves, webhookFormer, signals };
}
