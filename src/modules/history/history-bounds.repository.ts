import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

/** The earliest changed_at kept in the price history (epoch ms), null when it holds none: odds_history_changed_idx's first entry. */
export async function oldestChangeAt(db: Kysely<Schema>): Promise<number | null> {
  const row = await db.selectFrom('odds_history').select((eb) => eb.fn.min<number | string | null>('changed_at').as('oldest')).executeTakeFirst();
  return row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
}
