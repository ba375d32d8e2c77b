import type { Insertable, Kysely, Selectable } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import type { Schema, SignalsTable } from '../../platform/db/schema.js';
import type { MarketPair } from '../odds/index.js';
import type { Outcome } from '../../shared/settlement/grading.js';

export type NewSignal = Insertable<SignalsTable>;
export type SignalRow = Selectable<SignalsTable>;

/** A signal's grade and closing-line value, as the grader writes them. */
export interface SignalGradeUpdate {
  id: number;
  outcome: string | null;
  profit: number | null;
  closing_price: number | null;
  clv_pct: number | null;
  graded_at: number | null;
}

/** What a list or the performance sums read, filters as stored ids (null: any). */
export interface SignalQuery {
  types: readonly string[] | null;
  sportId: number | undefined;
  leagueId: number | undefined;
  marketIds: readonly number[] | null;
  operatorIds: readonly number[] | null;
  outcomes: readonly string[] | null;
  /** The kinds of events asked for (`event_kinds`). */
  kinds: readonly string[];
  /** detected_at from (included) to (excluded). */
  from: number;
  to: number;
}

/** A signal with what the sums group it by. */
export type SignalWithScope = SignalRow & { sport_id: number; league_id: number };

/** Pairs or ids per statement: far below either engine's bind-parameter ceiling. */
const CHUNK = 1_000;

/** The signals' SQL: the detector's open appearances and their changes, the grader's reads and writes, the lists. */
export const signalsRepository = {
  /** The open appearances (ended_at null) of the edges of some markets: value bets, arbitrages, middles. */
  async openOf(db: Kysely<Schema>, pairs: readonly MarketPair[]): Promise<SignalRow[]> {
    const out: SignalRow[] = [];
    for (const chunk of chunksOf(pairs, CHUNK)) {
      const rows = await db
        .selectFrom('signals')
        .selectAll()
        .where('ended_at', 'is', null)
        .where('type', 'in', ['value', 'arbitrage', 'middle'])
        .where((eb) => eb(eb.refTuple('event_id', 'betting_market_id'), 'in', chunk.map(([eventId, marketId]) => eb.tuple(eventId, marketId))))
        .execute();
      out.push(...rows);
    }
    return out;
  },

  /** The start and status of some events. */
  async events(db: Kysely<Schema>, eventIds: readonly number[]): Promise<Map<number, { start: number; status: string }>> {
    const events = new Map<number, { start: number; status: string }>();
    for (const chunk of chunksOf(eventIds, CHUNK)) {
      const rows = await db.selectFrom('events').select(['id', 'start_time', 'status']).where('id', 'in', chunk).execute();
      for (const row of rows) events.set(Number(row.id), { start: Number(row.start_time), status: row.status });
    }
    return events;
  },

  /** The open rows of some markets (selection, book, position, line, period, player): an arbitrage leg's selection is found among them. */
  async marketRows(db: Kysely<Schema>, pairs: readonly MarketPair[]) {
    if (pairs.length === 0) return [];
    return db
      .selectFrom('odds')
      .select(['selection_id', 'operator_id', 'event_id', 'betting_market_id', 'event_period_id', 'player_id', 'position', 'line'])
      .where((eb) => eb(eb.refTuple('event_id', 'betting_market_id'), 'in', pairs.map(([eventId, marketId]) => eb.tuple(eventId, marketId))))
      .execute();
  },

  /** In `trx`: records the appearances that started, and ends those that stopped holding at their instant. */
  async record(trx: Kysely<Schema>, opened: readonly NewSignal[], ended: ReadonlyArray<{ id: number; at: number }>): Promise<void> {
    for (const chunk of chunksOf(opened, 200)) await trx.insertInto('signals').values([...chunk]).execute();
    for (const { id, at } of ended) await trx.updateTable('signals').set({ ended_at: at }).where('id', '=', id).execute();
  },

  /** The signals of some events (every appearance, ended or not): what a grading of the events regrades. */
  async ofEvents(db: Kysely<Schema>, eventIds: readonly number[]): Promise<SignalRow[]> {
    const out: SignalRow[] = [];
    for (const chunk of chunksOf(eventIds, CHUNK)) out.push(...(await db.selectFrom('signals').selectAll().where('event_id', 'in', chunk).execute()));
    return out;
  },

  /** The current grade of each (selection, book) of some events: the outcome of a signal's legs. */
  async currentOutcomes(db: Kysely<Schema>, eventIds: readonly number[]): Promise<Array<{ selection_id: number | null; operator_id: number; outcome: Outcome | null }>> {
    const out: Array<{ selection_id: number | null; operator_id: number; outcome: Outcome | null }> = [];
    for (const chunk of chunksOf(eventIds, CHUNK)) {
      const rows = await db
        .selectFrom('odds_grades as g')
        .innerJoin('odds', 'odds.id', 'g.odds_id')
        .select(['odds.selection_id', 'odds.operator_id', 'g.outcome'])
        .where('g.event_id', 'in', chunk)
        .where('g.superseded_at', 'is', null)
        .execute();
      for (const row of rows) out.push({ selection_id: row.selection_id === null ? null : Number(row.selection_id), operator_id: Number(row.operator_id), outcome: row.outcome as Outcome | null });
    }
    return out;
  },

  /** The events of the grades after `afterId`, up to `limit` grades, with the newest grade's id. */
  async gradesAfter(db: Kysely<Schema>, afterId: number, limit: number): Promise<Array<{ id: number; event_id: number }>> {
    const rows = await db.selectFrom('odds_grades').select(['id', 'event_id']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
    return rows.map((row) => ({ id: Number(row.id), event_id: Number(row.event_id) }));
  },

  async newestGrade(db: Kysely<Schema>): Promise<number> {
    const row = await db.selectFrom('odds_grades').select((eb) => eb.fn.max<number | null>('id').as('last')).executeTakeFirst();
    return Number(row?.last ?? 0);
  },

  /** In `trx`: the grades and CLV of some signals. */
  async grade(trx: Kysely<Schema>, updates: readonly SignalGradeUpdate[]): Promise<void> {
    for (const { id, ...set } of updates) await trx.updateTable('signals').set(set).where('id', '=', id).execute();
  },

  /** The signals a query selects, newest first, with their event's sport and league. */
  async find(db: Kysely<Schema>, query: SignalQuery, page?: { offset: number; limit: number }): Promise<SignalWithScope[]> {
    let select = db
      .selectFrom('signals')
      .innerJoin('events as e', 'e.id', 'signals.event_id')
      .selectAll('signals')
      .select(['e.sport_id', 'e.league_id'])
      .where('signals.detected_at', '>=', query.from)
      .where('signals.detected_at', '<', query.to);
    select = whereEventKinds(select, 'e.kind', query.kinds);
    if (query.types) select = select.where('signals.type', 'in', query.types);
    if (query.sportId !== undefined) select = select.where('e.sport_id', '=', query.sportId);
    if (query.leagueId !== undefined) select = select.where('e.league_id', '=', query.leagueId);
    if (query.marketIds) select = select.where('signals.betting_market_id', 'in', query.marketIds);
    if (query.outcomes) {
      const outcomes = query.outcomes.filter((o) => o !== 'pending');
      const pending = query.outcomes.includes('pending');
      select = select.where((eb) => eb.or([...(outcomes.length > 0 ? [eb('signals.outcome', 'in', outcomes)] : []), ...(pending ? [eb('signals.outcome', 'is', null)] : [])]));
    }
    select = select.orderBy('signals.detected_at', 'desc').orderBy('signals.id', 'desc');
    if (page) select = select.offset(page.offset).limit(page.limit);
    const rows = await select.execute();
    return rows.map((row) => ({ ...row, id: Number(row.id), sport_id: Number(row.sport_id), league_id: Number(row.league_id) }));
  },

  /** The ids, keys and names of some reference rows, for the sums' groups. */
  async names(db: Kysely<Schema>, table: 'sports' | 'leagues' | 'betting_markets' | 'operators', ids: readonly number[]): Promise<Map<number, { key: string; name: string }>> {
    const names = new Map<number, { key: string; name: string }>();
    for (const chunk of chunksOf(ids, CHUNK)) {
      const rows = await db.selectFrom(table).select(['id', 'key', 'name']).where('id', 'in', chunk).execute();
      for (const row of rows) names.set(Number(row.id), { key: row.key, name: row.name });
    }
    return names;
  },
};
