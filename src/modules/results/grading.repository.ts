import type { Kysely, Selectable } from 'kysely';
import { chunksOf } from '../../platform/chunks.js';
import type { OddsGradesTable, Schema } from '../../platform/db/schema.js';

/** The grader's queries: what a batch of events is graded from, the grades it writes, and which events are due. */
export interface GradingRepository {
  /** The events of a batch: their status, scores and the names their two teams go by. */
  events(eventIds: readonly number[]): Promise<GradingEvent[]>;
  /** The events' period scores, each with its period's key. */
  periodScores(eventIds: readonly number[]): Promise<PeriodScoreRow[]>;
  /** The events' player statistics. */
  statistics(eventIds: readonly number[]): Promise<StatisticRow[]>;
  /** The players of these teams (none for no team). */
  players(teamIds: readonly number[]): Promise<PlayerRow[]>;
  /** The events' odds rows by id, with their period's key and their market's settlement. */
  odds(eventIds: readonly number[]): Promise<GradingOddsRow[]>;
  /** Each odds row's closing price and line, of these events: its last recorded state before its event started. */
  closing(eventIds: readonly number[]): Promise<Map<number, Closing>>;
  /** The current (not superseded) grades of the events' odds rows. */
  currentGrades(eventIds: readonly number[]): Promise<CurrentGradeRow[]>;
  /** Marks these grades superseded at `now`. */
  supersede(gradeIds: readonly number[], now: number): Promise<void>;
  /** Writes new grades. */
  insertGrades(grades: readonly NewGrade[]): Promise<void>;
  /** The events an import marked due for grading. */
  dueEvents(): Promise<number[]>;
  /** Marks these events due for grading since `now` (an event already due stays as it was). */
  markDue(eventIds: readonly number[], now: number): Promise<void>;
  /** The events are no longer due: graded with the results the transaction read. */
  clearDue(eventIds: readonly number[]): Promise<void>;
  /** Events that are final or cancelled and have odds but no grade yet: what an upgrade finds. */
  ungradedEvents(): Promise<number[]>;
  /** Of `eventIds`, those a grading concerns: ended one way or another, or graded before. */
  eventsToGrade(eventIds: readonly number[]): Promise<number[]>;
  /** The events whose odds are of `marketIds`: a market's settlement changed, so their grades may too. */
  eventsOfMarkets(marketIds: readonly number[]): Promise<number[]>;
}

/** An event as the grader reads it: its result, and its teams by id, name, key and abbreviation. */
export interface GradingEvent {
  id: number;
  sport_id: number;
  league_id: number;
  status: string;
  start_time: number;
  home_score: number | null;
  away_score: number | null;
  home_team_id: number;
  away_team_id: number;
  home_name: string;
  home_key: string;
  home_abbreviation: string | null;
  away_name: string;
  away_key: string;
  away_abbreviation: string | null;
}

export interface PeriodScoreRow {
  event_id: number;
  key: string;
  home_score: number;
  away_score: number;
}

export interface StatisticRow {
  event_id: number;
  player_id: number;
  statistic: string;
  value: number;
}

export interface PlayerRow {
  id: number;
  name: string;
  team_id: number;
}

/** An odds row as the grader reads it: what it prices, and under which settlement. */
export interface GradingOddsRow {
  event_id: number;
  id: number;
  /** What the result.graded webhook names the row by, as the results answers do. */
  selection_id: number | null;
  operator_id: number;
  betting_market_id: number;
  position: string;
  line: number | null;
  player_id: number | null;
  /** The key of the row's own period, if it names one. */
  period: string | null;
  settlement_rule: string | null;
  settlement_stat: string | null;
  settlement_period: string | null;
}

export interface Closing {
  price: number;
  line: number | null;
}

export type CurrentGradeRow = Pick<Selectable<OddsGradesTable>, 'id' | 'odds_id' | 'outcome' | 'reason' | 'rule' | 'used' | 'closing_price' | 'closing_line'>;

/** A grade to write: a current one (superseded_at null). */
export type NewGrade = Omit<Schema['odds_grades'], 'id' | 'superseded_at'> & { superseded_at: null };

/** Ids per `in (…)` list: far below either engine's bind-parameter ceiling. */
const IDS_PER_STATEMENT = 10_000;

/** Over `db` or a transaction: the grader writes in the transaction of its batch, the import marks due in its own. */
export function createGradingRepository(db: Kysely<Schema>): GradingRepository {
  return {
    events: (eventIds) => gradingEvents(db, eventIds),
    periodScores: (eventIds) => periodScores(db, eventIds),
    statistics: (eventIds) => db.selectFrom('player_event_statistics').select(['event_id', 'player_id', 'statistic', 'value']).where('event_id', 'in', eventIds).execute(),
    players: async (teamIds) => (teamIds.length === 0 ? [] : await db.selectFrom('players').select(['id', 'name', 'team_id']).where('team_id', 'in', teamIds).execute()),
    odds: (eventIds) => gradingOdds(db, eventIds),
    closing: (eventIds) => closingOf(db, eventIds),
    currentGrades: (eventIds) =>
      db
        .selectFrom('odds_grades')
        .select(['id', 'odds_id', 'outcome', 'reason', 'rule', 'used', 'closing_price', 'closing_line'])
        .where('event_id', 'in', eventIds)
        .where('superseded_at', 'is', null)
        .execute(),
    supersede: (gradeIds, now) => supersede(db, gradeIds, now),
    insertGrades: (grades) => insertGrades(db, grades),
    dueEvents: async () => (await db.selectFrom('grading_due').select('event_id').execute()).map((row) => Number(row.event_id)),
    markDue: (eventIds, now) => markDue(db, eventIds, now),
    clearDue: async (eventIds) => {
      await db.deleteFrom('grading_due').where('event_id', 'in', eventIds).execute();
    },
    ungradedEvents: () => ungradedEvents(db),
    eventsToGrade: (eventIds) => eventsToGrade(db, eventIds),
    eventsOfMarkets: (marketIds) => eventsOfMarkets(db, marketIds),
  };
}

function gradingEvents(db: Kysely<Schema>, eventIds: readonly number[]): Promise<GradingEvent[]> {
  return db
    .selectFrom('events as e')
    .innerJoin('teams as h', 'h.id', 'e.home_team_id')
    .innerJoin('teams as a', 'a.id', 'e.away_team_id')
    .select(['e.id', 'e.sport_id', 'e.league_id', 'e.status', 'e.start_time', 'e.home_score', 'e.away_score', 'e.home_team_id', 'e.away_team_id'])
    .select(['h.name as home_name', 'h.key as home_key', 'h.abbreviation as home_abbreviation', 'a.name as away_name', 'a.key as away_key', 'a.abbreviation as away_abbreviation'])
    .where('e.id', 'in', eventIds)
    .execute();
}

function periodScores(db: Kysely<Schema>, eventIds: readonly number[]): Promise<PeriodScoreRow[]> {
  return db
    .selectFrom('event_period_scores as s')
    .innerJoin('event_periods as p', 'p.id', 's.event_period_id')
    .select(['s.event_id', 'p.key', 's.home_score', 's.away_score'])
    .where('s.event_id', 'in', eventIds)
    .execute();
}

function gradingOdds(db: Kysely<Schema>, eventIds: readonly number[]): Promise<GradingOddsRow[]> {
  return db
    .selectFrom('odds as o')
    .leftJoin('betting_markets as m', 'm.id', 'o.betting_market_id')
    .leftJoin('event_periods as p', 'p.id', 'o.event_period_id')
    .select(['o.event_id', 'o.id', 'o.selection_id', 'o.operator_id', 'o.betting_market_id', 'o.position', 'o.line', 'o.player_id', 'p.key as period', 'm.settlement_rule', 'm.settlement_stat', 'm.settlement_period'])
    .where('o.event_id', 'in', eventIds)
    .orderBy('o.id')
    .execute();
}

async function supersede(db: Kysely<Schema>, gradeIds: readonly number[], now: number): Promise<void> {
  for (const chunk of chunksOf(gradeIds, IDS_PER_STATEMENT)) await db.updateTable('odds_grades').set({ superseded_at: now }).where('id', 'in', chunk).execute();
}

async function insertGrades(db: Kysely<Schema>, grades: readonly NewGrade[]): Promise<void> {
  for (const chunk of chunksOf(grades, 500)) await db.insertInto('odds_grades').values(chunk).execute();
}

async function markDue(db: Kysely<Schema>, eventIds: readonly number[], now: number): Promise<void> {
  for (const chunk of chunksOf(eventIds, 5_000)) {
    const rows = chunk.map((eventId) => ({ event_id: eventId, due_at: now }));
    await db.insertInto('grading_due').values(rows).onConflict((oc) => oc.column('event_id').doNothing()).execute();
  }
}

async function ungradedEvents(db: Kysely<Schema>): Promise<number[]> {
  const rows = await db
    .selectFrom('events as e')
    .select('e.id')
    .where('e.status', 'in', ['final', 'cancelled'])
    .where((eb) => eb.exists(eb.selectFrom('odds').select('odds.id').whereRef('odds.event_id', '=', 'e.id')))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('odds_grades').select('odds_grades.id').whereRef('odds_grades.event_id', '=', 'e.id'))))
    .orderBy('e.id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Of `eventIds`, those a grading concerns: ended one way or another, or graded before. */
export async function eventsToGrade(db: Kysely<Schema>, eventIds: readonly number[]): Promise<number[]> {
  const found: number[] = [];
  for (const chunk of chunksOf(eventIds, IDS_PER_STATEMENT)) {
    const rows = await db
      .selectFrom('events as e')
      .select('e.id')
      .where('e.id', 'in', chunk)
      .where((eb) =>
        eb.or([
          eb('e.status', 'in', ['final', 'cancelled', 'postponed']),
          eb.exists(eb.selectFrom('odds_grades').select('odds_grades.id').whereRef('odds_grades.event_id', '=', 'e.id')),
        ]),
      )
      .execute();
    for (const row of rows) found.push(Number(row.id));
  }
  return found;
}

/** The events whose odds are of `marketIds`: a market's settlement changed, so their grades may too. */
export async function eventsOfMarkets(db: Kysely<Schema>, marketIds: readonly number[]): Promise<number[]> {
  const found = new Set<number>();
  for (const chunk of chunksOf(marketIds, IDS_PER_STATEMENT)) {
    const rows = await db.selectFrom('odds').select('event_id').distinct().where('betting_market_id', 'in', chunk).execute();
    for (const row of rows) found.add(Number(row.event_id));
  }
  return [...found];
}

/** Each odds row's closing price and line, of these events: its last recorded state before its event started. */
export async function closingOf(trx: Kysely<Schema>, eventIds: readonly number[]): Promise<Map<number, Closing>> {
  const closing = new Map<number, Closing>();
  // An odds row is of one event: each chunk's last state of a row is its last state.
  for (const chunk of chunksOf(eventIds, IDS_PER_STATEMENT)) {
    const rows = await trx
      .selectFrom('odds_history as h')
      .innerJoin('events as e', 'e.id', 'h.event_id')
      .select(['h.odds_id', 'h.price_to', 'h.line_to'])
      .where('h.event_id', 'in', chunk)
      .whereRef('h.changed_at', '<', 'e.start_time')
      .orderBy('h.changed_at')
      .orderBy('h.id')
      .execute();
    for (const r of rows) closing.set(Number(r.odds_id), { price: Number(r.price_to), line: r.line_to === null ? null : Number(r.line_to) });
  }
  return closing;
}
