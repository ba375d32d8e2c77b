import type { Insertable, Kysely } from 'kysely';
import type { Schema, UsageDailyTable } from '../../platform/db/schema.js';
import { utcDay } from '../../platform/time.js';

/** Requests counted per client, day, hour and route group, and the requests refused 429: stored, read, purged. */
export interface UsageRepository {
  /** Adds counts to the stored ones, per day and per hour, the refusals and the webhook deliveries, in one transaction. */
  add(rows: readonly HourlyUsageRow[], refusals?: readonly RefusalRow[], deliveries?: readonly DeliveriesRow[]): Promise<void>;
  /** One client's webhook deliveries from `from` to `to` (days, inclusive). */
  deliveriesOfClient(clientId: string, from: string, to: string): Promise<DeliveriesRow[]>;
  /** One client's hourly rows with `from <= hour < to` (epoch ms). */
  hoursOfClient(clientId: string, from: number, to: number): Promise<HourlyUsageRow[]>;
  /** One client's refusals with `from <= minute < to` (epoch ms). */
  refusalsOfClient(clientId: string, from: number, to: number): Promise<RefusalRow[]>;
  /** Deletes the hourly counts and refusals from before `before` (epoch ms); returns how many rows. */
  purgeHoursBefore(before: number): Promise<number>;
  /** One client's rows from `from` to `to` (days, inclusive). */
  ofClient(clientId: string, from: string, to: string): Promise<UsageRow[]>;
  /** Each client's requests of one day that count against its daily quota (every group but `uncharged`). */
  chargedOn(day: string, uncharged: string): Promise<Array<{ clientId: string; requests: number }>>;
  /** Clients by their requests from `from` to `to`, most first (ties by client_id), with their total count. */
  top(from: string, to: string, offset: number, limit: number): Promise<{ rows: TopClientRow[]; total: number }>;
  /** Deletes the rows of days before `day`; returns how many. */
  purgeBefore(day: string): Promise<number>;
}

/** Requests of one client on one day in one route group. */
export interface UsageRow {
  clientId: string;
  day: string;
  group: string;
  requests: number;
}

/** The same counted in one UTC hour (`hour`: epoch ms of its start): what the meter writes. */
export interface HourlyUsageRow extends UsageRow {
  hour: number;
}

/** A client among the top ones: its requests in the range, with its name and tier (null: no such client now). */
export interface TopClientRow {
  clientId: string;
  requests: number;
  name: string | null;
  tier: string | null;
}

/** Requests of one client refused 429 in one UTC minute (epoch ms of its start), by the exhausted window. */
export interface RefusalRow {
  clientId: string;
  minute: number;
  window: string;
  refusals: number;
}

/** Webhook deliveries a client's endpoints acknowledged on one UTC day. */
export interface DeliveriesRow {
  clientId: string;
  day: string;
  deliveries: number;
}

/** Rows per INSERT: 4 parameters each, far below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/** The rows of one day's hours summed per day: what usage_daily keeps. */
function daily(rows: readonly HourlyUsageRow[]): UsageRow[] {
  const byKey = new Map<string, UsageRow>();
  for (const r of rows) {
    const key = `${r.clientId} ${r.day} ${r.group}`;
    const row = byKey.get(key);
    if (row === undefined) byKey.set(key, { clientId: r.clientId, day: r.day, group: r.group, requests: r.requests });
    else row.requests += r.requests;
  }
  return [...byKey.values()];
}

const chunks = <T>(rows: readonly T[]): T[][] => Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => rows.slice(i * CHUNK, (i + 1) * CHUNK));

export function createUsageRepository(db: Kysely<Schema>): UsageRepository {
  return {
    add: (rows, refusals = [], deliveries = []) => addCounts(db, rows, refusals, deliveries),

    async deliveriesOfClient(clientId, from, to) {
      const rows = await db
        .selectFrom('usage_webhook_deliveries')
        .select(['day', 'deliveries'])
        .where('client_id', '=', clientId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .execute();
      return rows.map((r) => ({ clientId, day: r.day, deliveries: Number(r.deliveries) }));
    },

    /** One client's hourly rows with `from <= hour < to` (epoch ms). */
    async hoursOfClient(clientId: string, from: number, to: number): Promise<HourlyUsageRow[]> {
      const rows = await db
        .selectFrom('usage_hourly')
        .select(['hour', 'route_group', 'requests'])
        .where('client_id', '=', clientId)
        .where('hour', '>=', from)
        .where('hour', '<', to)
        .execute();
      return rows.map((r) => ({ clientId, hour: Number(r.hour), day: utcDay(Number(r.hour)), group: r.route_group, requests: Number(r.requests) }));
    },

    /** One client's refusals with `from <= minute < to` (epoch ms). */
    async refusalsOfClient(clientId: string, from: number, to: number): Promise<RefusalRow[]> {
      const rows = await db
        .selectFrom('usage_refusals')
        .select(['minute', 'window', 'refusals'])
        .where('client_id', '=', clientId)
        .where('minute', '>=', from)
        .where('minute', '<', to)
        .execute();
      return rows.map((r) => ({ clientId, minute: Number(r.minute), window: r.window, refusals: Number(r.refusals) }));
    },

    /** Deletes the hourly counts and refusals from before `before` (epoch ms); returns how many rows. */
    async purgeHoursBefore(before: number): Promise<number> {
      const hours = await db.deleteFrom('usage_hourly').where('hour', '<', before).executeTakeFirst();
      const refusals = await db.deleteFrom('usage_refusals').where('minute', '<', before).executeTakeFirst();
      return Number(hours.numDeletedRows) + Number(refusals.numDeletedRows);
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

    top: (from, to, offset, limit) => topClients(db, from, to, offset, limit),

    /** Deletes the rows of days before `day`; returns how many. */
    async purgeBefore(day: string): Promise<number> {
      const result = await db.deleteFrom('usage_daily').where('day', '<', day).executeTakeFirst();
      const deliveries = await db.deleteFrom('usage_webhook_deliveries').where('day', '<', day).executeTakeFirst();
      return Number(result.numDeletedRows) + Number(deliveries.numDeletedRows);
    },
  };
}

/**
 * Adds counts to the stored ones, per day and per hour, and the refusals: one upsert per chunk
 * and table, all in one transaction, so that the hourly and daily counts never disagree.
 */
async function addCounts(db: Kysely<Schema>, rows: readonly HourlyUsageRow[], refusals: readonly RefusalRow[], deliveries: readonly DeliveriesRow[]): Promise<void> {
  if (rows.length === 0 && refusals.length === 0 && deliveries.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const dailyRows = daily(rows).map((r) => ({ client_id: r.clientId, day: r.day, route_group: r.group, requests: r.requests }));
    await addUp(trx, 'usage_daily', ['client_id', 'day', 'route_group'], 'requests', dailyRows);
    const hourlyRows = rows.map((r) => ({ client_id: r.clientId, hour: r.hour, route_group: r.group, requests: r.requests }));
    await addUp(trx, 'usage_hourly', ['client_id', 'hour', 'route_group'], 'requests', hourlyRows);
    const refusalRows = refusals.map((r) => ({ client_id: r.clientId, minute: r.minute, window: r.window, refusals: r.refusals }));
    await addUp(trx, 'usage_refusals', ['client_id', 'minute', 'window'], 'refusals', refusalRows);
    const deliveryRows = deliveries.map((r) => ({ client_id: r.clientId, day: r.day, deliveries: r.deliveries }));
    await addUp(trx, 'usage_webhook_deliveries', ['client_id', 'day'], 'deliveries', deliveryRows);
  });
}

/** The tables of counts, each with the column that counts. */
type CountTables = { usage_daily: 'requests'; usage_hourly: 'requests'; usage_refusals: 'refusals'; usage_webhook_deliveries: 'deliveries' };

/**
 * Inserts `values` into a table of counts, or adds each to the stored count of the same key: one
 * statement per chunk. Kysely types an upsert only on a table it knows, not on one chosen by a type
 * parameter, so the statement is typed against the form the three tables share (a key and one
 * count); the parameters say what each table takes.
 */
async function addUp<T extends keyof CountTables>(
  trx: Kysely<Schema>,
  table: T,
  key: ReadonlyArray<keyof Schema[T] & string>,
  count: CountTables[T],
  values: ReadonlyArray<Insertable<Schema[T]>>,
): Promise<void> {
  // Typed as one table `t` of the form all three share; the statement names the real table.
  const same = trx as unknown as Kysely<{ t: UsageDailyTable }>;
  const column = count as 'requests';
  for (const chunk of chunks(values)) {
    await same
      .insertInto(table as unknown as 't')
      .values(chunk as unknown as Array<Insertable<UsageDailyTable>>)
      .onConflict((oc) => oc.columns(key as unknown as Array<keyof UsageDailyTable>).doUpdateSet((eb) => ({ [column]: eb(eb.ref(`${table}.${column}` as 't.requests'), '+', eb.ref(`excluded.${column}`)) })))
      .execute();
  }
}

/** Clients by their requests from `from` to `to`, most first (ties by client_id), with their total count. */
async function topClients(db: Kysely<Schema>, from: string, to: string, offset: number, limit: number): Promise<{ rows: TopClientRow[]; total: number }> {
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
}
