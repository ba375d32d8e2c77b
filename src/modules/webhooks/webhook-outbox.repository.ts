import type { Kysely, Transaction } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import { isSqlite } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';
import type { EventUpdatedRecord, ResultGradedRecord } from './webhook-payloads.events.js';

/** Where a rare kind's row points: what an endpoint's filters are matched against, and when it was recorded. */
interface OutboxPlace {
  sport_id: number | null;
  league_id: number | null;
  event_id: number | null;
  created_at: number;
}

/** One row of the outbox (decision 0305): an event of a rare kind, its data typed by its kind. */
export type OutboxRow = OutboxPlace & ({ type: 'event.updated'; data: EventUpdatedRecord } | { type: 'result.graded'; data: ResultGradedRecord });

/** An outbox row as the former takes it. */
export interface TakenOutboxEntry {
  id: number;
  createdAt: number;
  type: string;
  /** The delivery's data but its sequence. */
  data: Record<string, unknown>;
  sportId: number | null;
  leagueId: number | null;
  eventId: number | null;
}

/**
 * The outbox's writer, the one statement that adds to it. It takes the transaction that makes the
 * change, never the database: the row commits with the change or not at all, so no change is told
 * that did not happen and none that happened is lost.
 */
export interface WebhookOutboxRepository {
  /** Adds the rows in one multi-row insert (nothing for none). */
  record(trx: Transaction<Schema>, rows: readonly OutboxRow[]): Promise<void>;
  /**
   * The oldest `limit` entries, in id order, locked until `trx` ends; on PostgreSQL another node's
   * transaction skips those (SKIP LOCKED) rather than waiting or taking them twice. SQLite's
   * transaction already holds the one write lock.
   */
  take(trx: Kysely<Schema>, limit: number): Promise<TakenOutboxEntry[]>;
  remove(trx: Kysely<Schema>, ids: readonly number[]): Promise<void>;
}

/** Rows per statement: 6 parameters each, far below either engine's bind-parameter ceiling. */
const ROWS_PER_STATEMENT = 1_000;

export const webhookOutbox: WebhookOutboxRepository = {
  async record(trx, rows) {
    for (const chunk of chunksOf(rows, ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('webhook_outbox')
        .values(chunk.map((row) => ({ type: row.type, data: JSON.stringify(row.data), sport_id: row.sport_id, league_id: row.league_id, event_id: row.event_id, created_at: row.created_at })))
        .execute();
    }
  },

  async take(trx, limit) {
    const select = trx.selectFrom('webhook_outbox').selectAll().orderBy('id').limit(limit);
    const rows = await (isSqlite(trx) ? select : select.forUpdate().skipLocked()).execute();
    return rows.map((row) => ({
      id: Number(row.id),
      type: row.type,
      data: JSON.parse(row.data) as Record<string, unknown>,
      sportId: row.sport_id === null ? null : Number(row.sport_id),
      leagueId: row.league_id === null ? null : Number(row.league_id),
      eventId: row.event_id === null ? null : Number(row.event_id),
      createdAt: Number(row.created_at),
    }));
  },

  async remove(trx, ids) {
    if (ids.length > 0) await trx.deleteFrom('webhook_outbox').where('id', 'in', ids).execute();
  },
};
