import { createCursorProcessor, type HistoryProcessor, type HistoryWork } from '../history/index.js';
import { moveItemOf, movesRepository, type StoredMove } from '../odds/index.js';
import type { FormedDelivery } from './webhook-deliveries.repository.js';
import { webhookEndpoints } from './webhook-endpoints.repository.js';
import type { WebhookFormerDeps } from './webhook.former.js';
import { type ChangeKind, cutFor, storeDeliveries, tellFormed } from './webhook.forming.js';

/** The former's cursor over the stored moves (feed_cursors.name; made by migration 0037). */
export const WEBHOOKS_MOVES_CURSOR = 'webhooks: moves';

/** A move as odds.steam or odds.drop carries it: the item POST /v1/odds/moves lists and the stream sends. */
const moveKind = (type: 'odds.steam' | 'odds.drop'): ChangeKind<StoredMove> => ({
  type,
  list: 'moves',
  subjectOf: (move, sports) => ({
    sportId: sports.get(move.event_id) ?? null,
    leagueId: move.league_id,
    eventId: move.event_id,
    bettingMarketId: move.betting_market_id,
    operatorIds: move.operator_ids,
  }),
  eventIdOf: (move) => move.event_id,
  recordedAt: (move) => move.detected_at,
  shown: moveItemOf,
});
const STEAM = moveKind('odds.steam');
const DROP = moveKind('odds.drop');

/**
 * The former's part over the steam moves and drops (decision 0319): a cursor over odds_moves, woken
 * by the 'moves' counter, each move told once per endpoint subscribed to its type.
 */
export function createMovesFormer(deps: WebhookFormerDeps): HistoryProcessor {
  const { db, changes, background, everyMs, windowMs } = deps;
  const work: HistoryWork<FormedDelivery[], StoredMove> = {
    name: WEBHOOKS_MOVES_CURSOR,
    async compute(read, moves) {
      if (moves.length === 0) return [];
      const endpoints = await webhookEndpoints.enabledFor(read, ['odds.steam', 'odds.drop']);
      const steam = await cutFor(read, endpoints, STEAM, moves.filter((m) => m.kind === 'steam'), deps.batchMax);
      const drops = await cutFor(read, endpoints, DROP, moves.filter((m) => m.kind === 'drop'), deps.batchMax);
      return [...steam, ...drops];
    },
    store: (trx, made) => storeDeliveries(trx, deps, made),
    committed: (made) => tellFormed(deps, made),
  };
  return createCursorProcessor({
    db,
    changes,
    background,
    everyMs,
    windowMs,
    work,
    wakeOn: 'moves',
    source: {
      after: (read, afterId, limit) => movesRepository.after(read, afterId, limit),
      idOf: (move) => move.id,
      newest: (read) => movesRepository.newest(read),
    },
  });
}
