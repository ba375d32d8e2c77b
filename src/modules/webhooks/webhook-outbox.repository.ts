import type { Transaction } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
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

/**
 * The outbox's writer, the one statement that adds to it. It takes the transaction that makes the
 * change, never the database: the row commits with the change or not at all, so no change is told
 * that did not happen and none that happened is lost.
 */
export interface WebhookOutboxRepository {
  /** Adds the rows in one multi-row insert (nothing for none). */
  record(trx: Transaction<Schema>, rows: readonly OutboxRow[]): Promise<void>;
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
};
