import type { Kysely } from 'kysely';
import type { BackgroundJobs } from '../../platform/background.js';
import type { Schema } from '../../platform/db/schema.js';
import { createCursorProcessor, createHistoryProcessor, type HistoryProcessor, type HistoryWork, processorsInOrder, type ProcessorsInOrder, type RecentChanges, type StreamRow } from '../history/index.js';
import { createBoardEventsRepository, type StoredBoardChangeBatch } from '../odds/index.js';
import type { FormedDelivery } from './webhook-deliveries.repository.js';
import { webhookEdges } from './webhook-edges.repository.js';
import { webhookEndpoints } from './webhook-endpoints.repository.js';
import { type EdgesFound, formEdgesFound, type StampedBoardChange } from './webhook.edges.js';
import { type ChangeKind, cutFor, formDeliveries, type FormingDeps, storeDeliveries, tellFormed } from './webhook.forming.js';
import { createMovesFormer } from './webhook.moves.js';
import { createOutboxFormer } from './webhook.outbox.js';
import type { BoardEventItem } from './webhook-payloads.odds.js';

/** The former's cursors (feed_cursors.name): over the price history, and over the stored board changes. */
export const WEBHOOKS_ODDS_CURSOR = 'webhooks: odds';
export const WEBHOOKS_BOARD_CURSOR = 'webhooks: board';

export interface WebhookFormerDeps extends FormingDeps {
  db: Kysely<Schema>;
  background: BackgroundJobs;
  /** Changes recorded within this window go to an endpoint as one delivery (WEBHOOK_BATCH_WINDOW_MS). */
  windowMs: number;
  /** How often every node runs it on its own, for what a node that died left. */
  everyMs: number;
  /** This node's newest import's changes, taken instead of reading them back. */
  recent?: RecentChanges;
}

/**
 * The webhooks' former (decisions 0305, 0308): what changed, turned into deliveries after the
 * commit that made it durable, each change once per endpoint whichever node forms it. Three
 * background jobs: a history processor over the price history (odds.changed), one over the
 * board changes the board's processor stores (board.changed), and the outbox's taker
 * (event.updated, result.graded); and one over the stored steam moves and drops (odds.steam,
 * odds.drop, webhook.moves.ts). Each runs on this node's own change at most once per window,
 * and every `everyMs` on its own.
 */
export interface WebhookFormer extends ProcessorsInOrder {
  readonly odds: HistoryProcessor;
  readonly board: HistoryProcessor;
  readonly outbox: HistoryProcessor;
  /** The steam moves and drops (odds.steam, odds.drop). */
  readonly moves: HistoryProcessor;
}

export function createWebhookFormer(deps: WebhookFormerDeps): WebhookFormer {
  const { db, changes, background, everyMs, windowMs } = deps;
  const odds = createHistoryProcessor({ db, changes, background, everyMs, windowMs, work: oddsWork(deps), ...(deps.recent === undefined ? {} : { recent: deps.recent }) });
  const board = createCursorProcessor({
    db,
    changes,
    background,
    everyMs,
    windowMs,
    work: boardWork(deps),
    wakeOn: 'board',
    source: {
      after: (read, afterId, limit) => createBoardEventsRepository(read).after(afterId, limit),
      idOf: (batch) => batch.historyId,
      newest: (read) => createBoardEventsRepository(read).newest(),
    },
  });
  const outbox = createOutboxFormer(deps);
  const moves = createMovesFormer(deps);
  return { odds, board, outbox, moves, ...processorsInOrder([odds, board, outbox, moves]) };
}

/** A price change as odds.changed carries it: the stream's odds change item, with the same id. */
const ODDS_CHANGED: ChangeKind<StreamRow> = {
  type: 'odds.changed',
  list: 'changes',
  subjectOf: (row, sports) => ({
    sportId: sports.get(row.item.event_id) ?? null,
    leagueId: row.leagueId,
    eventId: row.item.event_id,
    bettingMarketId: row.item.betting_market_id,
    operatorIds: [row.item.operator_id],
  }),
  eventIdOf: (row) => row.item.event_id,
  recordedAt: (row) => row.recordedAt,
  shown: (row) => row.item,
};

function oddsWork(deps: WebhookFormerDeps): HistoryWork<FormedDelivery[]> {
  return {
    name: WEBHOOKS_ODDS_CURSOR,
    compute: (db, rows) => formDeliveries(db, ODDS_CHANGED, rows, deps.batchMax),
    store: (trx, made) => storeDeliveries(trx, deps, made),
    committed: (made) => tellFormed(deps, made),
  };
}

/** A board change as board.changed carries it: the stream's board event item. Board changes are of every book, so operator_ids does not narrow them. */
const BOARD_CHANGED: ChangeKind<StampedBoardChange> = {
  type: 'board.changed',
  list: 'changes',
  subjectOf: ({ change, leagueId }, sports) => ({
    sportId: sports.get(change.event_id) ?? null,
    leagueId,
    eventId: change.event_id,
    bettingMarketId: change.betting_market_id,
  }),
  eventIdOf: ({ change }) => change.event_id,
  recordedAt: ({ storedAt }) => storedAt,
  // Typed as the payload's item: the board change and the schema cannot drift apart unseen.
  shown: ({ change }): BoardEventItem => change,
};

/** What a run of board batches made: board.changed and edge.found deliveries, and the edges to remember. */
type BoardMade = EdgesFound;

/**
 * board.changed and edge.found from the same board changes, stored in one transaction: the
 * endpoints are read once for both, and the edges known move with the deliveries that told them.
 */
function boardWork(deps: WebhookFormerDeps): HistoryWork<BoardMade, StoredBoardChangeBatch> {
  return {
    name: WEBHOOKS_BOARD_CURSOR,
    async compute(db, batches) {
      const changes = batches.flatMap((batch) => batch.changes.map((change) => ({ ...change, storedAt: batch.createdAt })));
      if (changes.length === 0) return { deliveries: [] };
      const endpoints = await webhookEndpoints.enabledFor(db, ['board.changed', 'edge.found']);
      const board = await cutFor(db, endpoints, BOARD_CHANGED, changes, deps.batchMax);
      const edges = await formEdgesFound(db, endpoints, changes, WEBHOOKS_BOARD_CURSOR, deps.batchMax);
      return { ...edges, deliveries: [...board, ...edges.deliveries] };
    },
    async store(trx, made, lastId) {
      await storeDeliveries(trx, deps, made.deliveries);
      if (made.remember !== undefined) await webhookEdges.replace(trx, made.remember, lastId, deps.clock.now());
    },
    committed: (made) => tellFormed(deps, made.deliveries),
  };
}
