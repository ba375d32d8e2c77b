import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';

/** Requests of one client on one day in one route group. */
export interface UsageRow {
  clientId: string;
  day: string;
  group: string;
  requests: number;
}

/** Rows per INSERT: 4 parameters each, far below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export function createUsageRepository(db: Kysely<Schema>) {
  return {
    /** Adds counts to the stored ones (one upsert per chunk, all in one transaction). */
    async add(rows: readonly UsageRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += CHUNK) {
          const values = rows.slice(i, i + CHUNK).map((r) => ({ client_id: r.clientId, day: r.day, route_group: r.group, requests: r.requests }));
          await trx
            .insertInto('usage_daily')
            .values(values)
            .onConflict((oc) =>
              oc.columns(['client_id', 'day', 'route_group']).doUpdateSet((eb) => ({ requests: eb(eb.ref('usage_daily.requests'), '+', eb.ref('excluded.requests')) })),
            )
            .execute();
        }
      });
    },

    /** One client's rows from `from` to `to` (days, inclusive). */
    async ofClient(clientId: string, from: string, to: string): Promise<UsageRow[]> {
      const rows = await db
        .selectFrom('usage_daily')
        .select(['client_id', 'day', 'route_group', 'requests'])
        .where('client_id', '=', clientId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .execute();
      return rows.map((r) => ({ clientId: r.client_id, day: r.day, group: r.route_group, requests: Number(r.requests) }));
    },

    /** Each client's requests of one day that count against its daily quota (every group but `uncharged`). */
    async chargedOn(day: string, uncharged: string): Promise<Array<{ clientId: string; requests: number }>> {
      const rows = await db
        .selectFrom('usage_daily')
        .select((eb) => ['client_id', eb.fn.sum<number>('requests').as('requests')])
        .where('day', '=', day)
        .where('route_group', '<>', uncharged)
        .groupBy('client_id')
        .execute();
      return rows.map((r) => ({ clientId: r.client_id, requests: Number(r.requests) }));
    },

    /** Clients by their requests from `from` to `to`, most first (ties by client_id), with their total count. */
    async top(from: string, to: string, offset: number, limit: number): Promise<{ rows: Array<{ clientId: string; requests: number; name: string | null; tier: string | null }>; total: number }> {
      const inRange = db.selectFrom('usage_daily').where('day', '>=', from).where('day', '<=', to);
      const [rows, count] = await Promise.all([
        inRange
          .leftJoin('clients', 'clients.id', 'usage_daily.client_id')
          .select((eb) => ['usage_daily.client_id', 'clients.name', 'clients.tier', eb.fn.sum<number>('usage_daily.requests').as('requests')])
          .groupBy(['usage_daily.client_id', 'clients.name', 'clients.tier'])
          .orderBy('requests', 'desc')
          .orderBy('usage_daily.client_id')
          .offset(offset)
          .limit(limit)
          .execute(),
        inRange.select((eb) => eb.fn.count<number>('client_id').distinct().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        rows: rows.map((r) => ({ clientId: r.client_id, requests: Number(r.requests), name: r.name ?? null, tier: r.tier ?? null })),
        total: Number(count.n),
      };
    },

    /** Deletes the rows of days before `day`; returns how many. */
    async purgeBefore(day: string): Promise<number> {
      const result = await db.deleteFrom('usage_daily').where('day', '<', day).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
