import type { ExpressionBuilder, Kysely } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { Schema } from '../../platform/db/schema.js';
import type { MarketPair } from '../odds/index.js';

/** An edge as remembered: what it is of, and how large it was. */
export interface KnownEdge {
  kind: 'value' | 'arbitrage';
  key: string;
  event_id: number;
  betting_market_id: number;
  edge: number;
}

/**
 * The feed_cursors row that says up to which board batch the edges known were kept (decision
 * 0316): the board cursor's position when they were last replaced. When the two differ, batches
 * went by with no endpoint subscribed to edge.found, and what is known is stale.
 */
const EDGES_MARK = 'webhooks: edges';

/** Pairs per statement: two bind parameters each, far below either engine's ceiling. */
const CHUNK = 1_000;

const ofPairs = (pairs: readonly MarketPair[]) => (eb: ExpressionBuilder<Schema, 'webhook_edges'>) =>
  eb(
    eb.refTuple('event_id', 'betting_market_id'),
    'in',
    pairs.map(([eventId, marketId]) => eb.tuple(eventId, marketId)),
  );

/** The edges the former knows of (webhook_edges), as edge.found compares with them. */
export const webhookEdges = {
  /** Whether the edges known were kept up to where the board cursor `cursor` stands: one read of both rows. */
  async current(db: Kysely<Schema>, cursor: string): Promise<boolean> {
    const rows = await db.selectFrom('feed_cursors').select(['name', 'last_id']).where('name', 'in', [cursor, EDGES_MARK]).execute();
    const at = (name: string) => rows.find((row) => row.name === name)?.last_id;
    const mark = at(EDGES_MARK);
    return mark !== undefined && Number(mark) === Number(at(cursor));
  },

  /** The edges known of some markets, by `kind|key`. */
  async of(db: Kysely<Schema>, pairs: readonly MarketPair[]): Promise<Map<string, number>> {
    const known = new Map<string, number>();
    for (const chunk of chunksOf(pairs, CHUNK)) {
      const rows = await db.selectFrom('webhook_edges').select(['kind', 'key', 'edge']).where(ofPairs(chunk)).execute();
      for (const row of rows) known.set(`${row.kind}|${row.key}`, Number(row.edge));
    }
    return known;
  },

  /** Forgets the edges of markets not looked at since `before` (their events long over, mostly); returns how many. */
  async forget(db: Kysely<Schema>, before: number): Promise<number> {
    const result = await db.deleteFrom('webhook_edges').where('updated_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /**
   * In `trx`: the edges of the markets `pairs` become `edges` (one that is gone is forgotten),
   * or, when `stale`, every edge known does; the mark moves to the board batch `lastId`.
   */
  async replace(trx: Kysely<Schema>, change: { pairs: readonly MarketPair[]; edges: readonly KnownEdge[]; stale: boolean }, lastId: number, now: number): Promise<void> {
    if (change.stale) await trx.deleteFrom('webhook_edges').execute();
    else for (const chunk of chunksOf(change.pairs, CHUNK)) await trx.deleteFrom('webhook_edges').where(ofPairs(chunk)).execute();
    for (const chunk of chunksOf(change.edges, CHUNK)) await trx.insertInto('webhook_edges').values(chunk.map((edge) => ({ ...edge, updated_at: now }))).execute();
    await trx
      .insertInto('feed_cursors')
      .values({ name: EDGES_MARK, last_id: lastId })
      .onConflict((oc) => oc.column('name').doUpdateSet({ last_id: lastId }))
      .execute();
  },
};
