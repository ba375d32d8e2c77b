import { expect } from 'vitest';
import { Value } from 'typebox/value';
import { EventUpdatedData, ResultGradedData } from '../../src/modules/webhooks/index.js';
import type { TestApp } from '../helpers/app.js';

/** An outbox row as a test reads it: its data parsed. */
export interface OutboxEntry {
  id: number;
  type: string;
  data: Record<string, unknown>;
  sport_id: number | null;
  league_id: number | null;
  event_id: number | null;
  created_at: number;
}

/** The outbox's rows after `afterId`, in id order, each checked against its kind's schema (with the sequence the former adds). */
export async function outboxAfter(t: TestApp, afterId = 0): Promise<OutboxEntry[]> {
  const rows = await t.database.db.selectFrom('webhook_outbox').selectAll().where('id', '>', afterId).orderBy('id').execute();
  const entries = rows.map((row) => ({
    id: Number(row.id),
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    sport_id: row.sport_id === null ? null : Number(row.sport_id),
    league_id: row.league_id === null ? null : Number(row.league_id),
    event_id: row.event_id === null ? null : Number(row.event_id),
    created_at: Number(row.created_at),
  }));
  for (const entry of entries) {
    const schema = entry.type === 'event.updated' ? EventUpdatedData : ResultGradedData;
    const delivered = { ...entry.data, sequence: 1 };
    expect([...Value.Errors(schema, delivered)].map((e) => `${e.instancePath} ${e.message}`), `${entry.type} ${JSON.stringify(entry.data)}`).toEqual([]);
    expect(entry.type).toMatch(/^(event\.updated|result\.graded)$/);
  }
  return entries;
}

/** The newest outbox id, so a test reads only what came after it. */
export async function lastOutboxId(t: TestApp): Promise<number> {
  const row = await t.database.db.selectFrom('webhook_outbox').select((eb) => eb.fn.max<number | null>('id').as('last')).executeTakeFirst();
  return Number(row?.last ?? 0);
}
