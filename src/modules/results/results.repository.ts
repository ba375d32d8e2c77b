import type { Kysely } from 'kysely';
import { whereEventKinds } from '../../platform/db/event-kinds.js';
import type { Schema } from '../../platform/db/schema.js';
import { isEventStatus } from '../../shared/event-status.js';
import { iso } from '../../shared/wire.js';
import { type Closing, closingOf } from './grading.repository.js';
import type { EventResults, GradedOdds } from './results.schemas.js';
import { numberOrNull } from '../../platform/db/column-values.js';

/** The results' queries: the graded list, an event's results, the settled stream's grades, and what a CLV answer reads. */
export interface ResultsRepository {
  /** Current grades with an outcome, by the event's start, then event, then odds row. */
  gradedIds(q: GradedQuery): Promise<number[]>;
  /** Graded odds by grade id. */
  items(ids: readonly number[]): Promise<Map<number, GradedOdds>>;
  /** An event's scores, periods, statistics and grades; undefined for no such event. */
  event(eventId: number, includeSuperseded: boolean, kinds: readonly string[]): Promise<EventResults | undefined>;
  /** The newest grade's id, 0 when there is none: where a settled stream starts. */
  lastGradeId(): Promise<number>;
  /** Grades with an outcome written after `afterId`, in id order, at most `limit`, with their event's league; and the newest id read. */
  gradesAfter(afterId: number, limit: number): Promise<{ last: number; rows: Array<{ change: GradedOdds; leagueId: number | null }> }>;
  /** The selections asked for of events of `kinds`, with their key as a row's (period and player from the stored key) and their event's start. */
  selections(ids: readonly number[], kinds: readonly string[]): Promise<Map<number, ClvSelection>>;
  /** The odds rows of one market of one event: who priced which selection, for which period and player. */
  marketRows(eventId: number, marketId: number): Promise<MarketOddsRow[]>;
  /** Each odds row's closing price and line, of these events: its last recorded state before its event started. */
  closing(eventIds: readonly number[]): Promise<Map<number, Closing>>;
}

export interface GradedQuery {
  sportId: number | undefined;
  leagueId: number | undefined;
  start: number;
  end: number;
  marketIds: readonly number[] | undefined;
  outcomes: readonly string[] | undefined;
  /** The kinds of events asked for (`event_kinds`). */
  kinds: readonly string[];
}

type Numeric = number | string | null;

/** What names a row's market apart from its line (the board's subjectKeyOf reads these). */
export interface MarketRow {
  event_id: number;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
}

/** A stored selection as a CLV answer reads it. */
export interface ClvSelection {
  eventId: number;
  marketId: number;
  key: MarketRow;
  line: number | null;
  start: number;
  status: string;
}

/** An odds row of a market: who priced which selection. */
export interface MarketOddsRow extends MarketRow {
  id: number;
  operator_id: number;
  line: number | null;
  selection_id: number | null;
}


export function createResultsRepository(db: Kysely<Schema>): ResultsRepository {
  return {
    gradedIds: (q) => gradedIds(db, q),
    items: async (ids) => {
      const rows = await gradeRows(db).where('g.id', 'in', ids).execute();
      return new Map(rows.map((r) => [Number(r.id), itemOf(r)]));
    },
    event: (eventId, includeSuperseded, kinds) => eventResults(db, eventId, includeSuperseded, kinds),
    lastGradeId: async () => {
      const row = await db.selectFrom('odds_grades').select((eb) => eb.fn.max<number | null>('id').as('last_id')).executeTakeFirst();
      return Number(row?.last_id ?? 0);
    },
    gradesAfter: (afterId, limit) => gradesAfter(db, afterId, limit),
    selections: (ids, kinds) => clvSelections(db, ids, kinds),
    marketRows: (eventId, marketId) => marketRows(db, eventId, marketId),
    closing: (eventIds) => closingOf(db, eventIds),
  };
}

/** Grades with their odds row, operator and market: what a graded item shows. */
const gradeRows = (db: Kysely<Schema>) =>
  db
    .selectFrom('odds_grades as g')
    .innerJoin('odds as o', 'o.id', 'g.odds_id')
    .leftJoin('operators as op', 'op.id', 'o.operator_id')
    .leftJoin('betting_markets as m', 'm.id', 'o.betting_market_id')
    .select(['g.id', 'g.odds_id', 'g.event_id', 'g.outcome', 'g.reason', 'g.rule', 'g.used', 'g.closing_price', 'g.closing_line', 'g.graded_at', 'g.superseded_at'])
    .select(['o.selection_id', 'o.operator_id', 'o.betting_market_id', 'o.position', 'o.line', 'o.price_decimal'])
    .select(['op.key as operator_key', 'op.name as operator_name', 'm.key as market_key', 'm.name as market_name']);
type GradeRow = Awaited<ReturnType<ReturnType<typeof gradeRows>['execute']>>[number];

const itemOf = (r: GradeRow): GradedOdds => ({
  odds_id: Number(r.odds_id),
  event_id: Number(r.event_id),
  event_betting_market_position_id: numberOrNull(r.selection_id),
  operator: { id: Number(r.operator_id), key: r.operator_key ?? '', name: r.operator_name ?? '' },
  betting_market: { id: Number(r.betting_market_id), key: r.market_key ?? '', name: r.market_name ?? '' },
  position: r.position,
  line: numberOrNull(r.line),
  price_decimal: Number(r.price_decimal),
  outcome: r.outcome as GradedOdds['outcome'],
  reason: r.reason as GradedOdds['reason'],
  rule: r.rule,
  numbers: r.used === null ? null : (JSON.parse(r.used) as GradedOdds['numbers']),
  closing_price: numberOrNull(r.closing_price),
  closing_line: numberOrNull(r.closing_line),
  graded_at: iso(Number(r.graded_at)),
  superseded_at: r.superseded_at === null ? null : iso(Number(r.superseded_at)),
});

async function gradedIds(db: Kysely<Schema>, q: GradedQuery): Promise<number[]> {
  let select = db
    .selectFrom('odds_grades as g')
    .innerJoin('events as e', 'e.id', 'g.event_id')
    .innerJoin('odds as o', 'o.id', 'g.odds_id')
    .select('g.id')
    .where('g.superseded_at', 'is', null)
    .where('g.outcome', 'is not', null)
    .where('e.start_time', '>=', q.start)
    .where('e.start_time', '<', q.end);
  if (q.sportId !== undefined) select = select.where('e.sport_id', '=', q.sportId);
  if (q.leagueId !== undefined) select = select.where('e.league_id', '=', q.leagueId);
  if (q.marketIds) select = select.where('o.betting_market_id', 'in', q.marketIds);
  if (q.outcomes) select = select.where('g.outcome', 'in', q.outcomes);
  select = whereEventKinds(select, 'e.kind', q.kinds);
  const rows = await select.orderBy('e.start_time').orderBy('g.event_id').orderBy('g.odds_id').execute();
  return rows.map((r) => Number(r.id));
}

async function eventResults(db: Kysely<Schema>, eventId: number, includeSuperseded: boolean, kinds: readonly string[]): Promise<EventResults | undefined> {
  const event = await whereEventKinds(db.selectFrom('events').select(['status', 'home_score', 'away_score']).where('id', '=', eventId), 'events.kind', kinds).executeTakeFirst();
  if (event === undefined || !isEventStatus(event.status)) return undefined;
  const periods = await db
    .selectFrom('event_period_scores as s')
    .innerJoin('event_periods as p', 'p.id', 's.event_period_id')
    .select(['p.id', 'p.key', 'p.name', 's.home_score', 's.away_score'])
    .where('s.event_id', '=', eventId)
    .orderBy('p.id')
    .execute();
  const statistics = await db
    .selectFrom('player_event_statistics')
    .select(['player_id', 'statistic', 'value'])
    .where('event_id', '=', eventId)
    .orderBy('player_id')
    .orderBy('statistic')
    .execute();
  let grades = gradeRows(db).where('g.event_id', '=', eventId);
  if (!includeSuperseded) grades = grades.where('g.superseded_at', 'is', null);
  const rows = await grades.orderBy('g.odds_id').orderBy('g.id').execute();
  return {
    event_id: eventId,
    status: event.status,
    home_score: numberOrNull(event.home_score),
    away_score: numberOrNull(event.away_score),
    periods: periods.map((p) => ({ event_period: { id: Number(p.id), key: p.key, name: p.name }, home_score: Number(p.home_score), away_score: Number(p.away_score) })),
    statistics: statistics.map((s) => ({ player_id: Number(s.player_id), statistic: s.statistic, value: Number(s.value) })),
    grades: rows.map(itemOf),
  };
}

async function gradesAfter(db: Kysely<Schema>, afterId: number, limit: number): Promise<{ last: number; rows: Array<{ change: GradedOdds; leagueId: number | null }> }> {
  const rows = await gradeRows(db)
    .leftJoin('events as e', 'e.id', 'g.event_id')
    .select('e.league_id')
    .where('g.id', '>', afterId)
    .orderBy('g.id')
    .limit(limit)
    .execute();
  return {
    last: Number(rows.at(-1)?.id ?? afterId),
    rows: rows.filter((r) => r.outcome !== null).map((r) => ({ change: itemOf(r), leagueId: numberOrNull(r.league_id) })),
  };
}

async function clvSelections(db: Kysely<Schema>, ids: readonly number[], kinds: readonly string[]): Promise<Map<number, ClvSelection>> {
  const select = db
    .selectFrom('selections as s')
    .innerJoin('events as e', 'e.id', 's.event_id')
    .select(['s.id', 's.event_id', 's.betting_market_id', 's.period', 's.player', 's.position', 's.line', 'e.start_time', 'e.status'])
    .where('s.id', 'in', ids);
  const rows = await whereEventKinds(select, 'e.kind', kinds).execute();
  return new Map(
    rows.map((r) => {
      const eventId = Number(r.event_id);
      const marketId = Number(r.betting_market_id);
      const key: MarketRow = {
        event_id: eventId,
        betting_market_id: marketId,
        event_period_id: r.period === '' ? null : Number(r.period),
        player_id: r.player === '' ? null : Number(r.player),
        position: r.position,
      };
      return [Number(r.id), { eventId, marketId, key, line: numberOrNull(r.line), start: Number(r.start_time), status: r.status }];
    }),
  );
}

async function marketRows(db: Kysely<Schema>, eventId: number, marketId: number): Promise<MarketOddsRow[]> {
  const rows = await db
    .selectFrom('odds')
    .select(['id', 'event_id', 'betting_market_id', 'event_period_id', 'player_id', 'operator_id', 'position', 'line', 'selection_id'])
    .where('event_id', '=', eventId)
    .where('betting_market_id', '=', marketId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    event_id: Number(r.event_id),
    betting_market_id: Number(r.betting_market_id),
    event_period_id: numberOrNull(r.event_period_id),
    player_id: numberOrNull(r.player_id),
    operator_id: Number(r.operator_id),
    position: r.position,
    line: numberOrNull(r.line),
    selection_id: numberOrNull(r.selection_id),
  }));
}
