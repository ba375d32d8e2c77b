import type { Kysely, Transaction } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { chunksOf } from '../../platform/chunks.js';
import { lockDataWrites } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';
import { isEventStatus } from '../../shared/event-status.js';
import { type EventResult, grade, type Grade, type PeriodResult } from '../../shared/settlement/grading.js';
import {
  type Closing,
  createGradingRepository,
  type CurrentGradeRow,
  eventsToGrade,
  type GradingEvent,
  type GradingOddsRow,
  type GradingRepository,
  type NewGrade,
  type PeriodScoreRow,
  type PlayerRow,
  type StatisticRow,
} from './grading.repository.js';
import { webhookOutbox } from '../webhooks/index.js';
import { gradedWebhooks } from './grading.webhooks.js';
import { readSelection, type EventSides } from './selection-reading.js';
import { outrightGrades } from './grading.outrights.js';
import { numberOrNull } from '../../platform/db/column-values.js';

/**
 * Grading stored odds rows (docs/data.md#results-and-grading): each row of an event that is final,
 * cancelled or postponed, or that was graded before, is graded from the event's stored results
 * under its market's settlement. A grade that differs from the row's current one supersedes it;
 * both stay. Events are graded a few at a time, each batch in its own short transaction that
 * waits for imports, so a long grading neither blocks the event loop nor holds the database.
 */

/** The settling period of a market without one: the event's own final score, overtime included. */
export const EVENT_PERIOD = 'event';

/** Events per transaction: one, so that reads wait at most for one event's grades (on SQLite a transaction holds the event loop; decision 0249). */
const EVENTS_PER_BATCH = 1;
/** Events per transaction before a node serves (the demo's first load, an upgrade): nobody's reads wait then. */
export const EVENTS_PER_BATCH_UNSERVED = 100;

const yieldToReads = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface GradingSummary {
  events: number;
  /** The events graded, by id. */
  eventIds: number[];
  /** Grades written: a first grade, or one that replaced another. */
  written: number;
}

/**
 * Grades the odds of `eventIds` as of `now`. A batch that writes grades moves the data version in
 * its own transaction, so every node serves the new grades within one poll of its commit.
 */
export async function gradeEvents(
  deps: { db: Kysely<Schema>; changes: ChangeFeed },
  eventIds: Iterable<number>,
  now: number,
  eventsPerBatch = EVENTS_PER_BATCH,
): Promise<GradingSummary> {
  const { db, changes } = deps;
  const ids = [...new Set(eventIds)].sort((a, b) => a - b);
  let written = 0;
  for (const batch of chunksOf(ids, eventsPerBatch)) {
    const count = await db.transaction().execute(async (trx) => {
      await lockDataWrites(trx);
      const repository = createGradingRepository(trx);
      const graded = await gradeBatch(trx, repository, batch, now);
      // Graded with the results this transaction read: no longer due, whenever this node stops.
      await repository.clearDue(batch);
      if (graded > 0) await changes.bump(trx, 'data');
      return graded;
    });
    if (count > 0) await changes.changed('data');
    written += count;
    await yieldToReads();
  }
  return { events: ids.length, eventIds: ids, written };
}

/**
 * What a node grades before it serves: the events an import made due and whose grading never
 * finished (a node stopped between the import's commit and its grading), and the events that ended
 * with odds but no grade (an upgrade from before results).
 */
export async function eventsDueAtStart(db: Kysely<Schema>): Promise<number[]> {
  const repository = createGradingRepository(db);
  const due = await repository.dueEvents();
  return [...new Set([...due, ...(await repository.ungradedEvents())])].sort((a, b) => a - b);
}

/**
 * Marks due, in the import's transaction, the events of `candidates` a grading concerns: the
 * marker commits with the import, so a node stopped before the grading leaves it for the next
 * start. Returns them.
 */
export async function markGradingDue(trx: Kysely<Schema>, candidates: readonly number[], now: number): Promise<number[]> {
  const due = await eventsToGrade(trx, candidates);
  await createGradingRepository(trx).markDue(due, now);
  return due;
}

/** A grade as stored and compared: the columns a new grade must match to leave the current one in place. */
type StoredGrade = Omit<CurrentGradeRow, 'odds_id' | 'id'> & { id: number };

/** What a batch of events is graded from, by event. */
export interface BatchInputs {
  events: GradingEvent[];
  periods: Map<number, PeriodScoreRow[]>;
  statistics: Map<number, StatisticRow[]>;
  players: PlayerRow[];
  odds: Map<number, GradingOddsRow[]>;
  closing: Map<number, Closing>;
  /** The current grade of each odds row, by odds id. */
  current: Map<number, StoredGrade>;
}

/** The grades of a batch of events, loaded with one query per table. */
async function gradeBatch(trx: Transaction<Schema>, repository: GradingRepository, eventIds: readonly number[], now: number): Promise<number> {
  const inputs = await loadBatch(repository, eventIds);
  const { replaced, inserts, regraded } = gradesOf(inputs, now);
  // A batch's competitions, through the same comparison with the current grades.
  const outrights = await outrightGrades(trx, eventIds);
  for (const { odds_id, event_id, grade } of outrights.grades) {
    const closing = inputs.closing.get(odds_id);
    take({ replaced, inserts, regraded }, inputs.current, { oddsId: odds_id, eventId: event_id, now }, { ...grade, closing_price: closing?.price ?? null, closing_line: closing?.line ?? null });
  }
  await repository.supersede(replaced, now);
  await repository.insertGrades(inserts);
  // Told in the transaction that writes the grades: a webhook for every grade that commits, none for one that does not.
  // A competition's go to the endpoints whose filters ask for competitions (decision 0328).
  await webhookOutbox.record(trx, gradedWebhooks({ events: [...inputs.events, ...outrights.competitions], odds: inputs.odds }, inserts, regraded, now));
  return inserts.length;
}

async function loadBatch(repository: GradingRepository, eventIds: readonly number[]): Promise<BatchInputs> {
  const events = await repository.events(eventIds);
  const periods = groupBy(await repository.periodScores(eventIds));
  const statistics = groupBy(await repository.statistics(eventIds));
  const teamIds = [...new Set(events.flatMap((e) => [Number(e.home_team_id), Number(e.away_team_id)]))];
  const players = await repository.players(teamIds);
  const odds = groupBy(await repository.odds(eventIds));
  const closing = await repository.closing(eventIds);
  const current = new Map<number, StoredGrade>();
  for (const row of await repository.currentGrades(eventIds)) current.set(Number(row.odds_id), storedGradeOf(row));
  return { events, periods, statistics, players, odds, closing, current };
}

/** The grades to write (each new or changed grade), the current grades they replace, and the events where they replace one. */
function gradesOf({ events, periods, statistics, players, odds, closing, current }: BatchInputs, now: number): { replaced: number[]; inserts: NewGrade[]; regraded: Set<number> } {
  const replaced: number[] = [];
  const inserts: NewGrade[] = [];
  const regraded = new Set<number>();
  for (const event of events) {
    if (!isEventStatus(event.status)) continue;
    const eventId = Number(event.id);
    const result = resultOf(periods.get(eventId) ?? [], statistics.get(eventId) ?? [], { status: event.status, home: event.home_score, away: event.away_score });
    const sides = sidesOf(event, players);
    for (const row of odds.get(eventId) ?? []) {
      const oddsId = Number(row.id);
      const line = numberOrNull(row.line);
      const selection = readSelection(row.settlement_rule ?? '', row.settlement_stat, { position: row.position, line, playerId: numberOrNull(row.player_id) }, sides);
      // The row's own period wins over its market's: an odds row says what it prices.
      const graded = grade({ ...selection, period: row.period ?? row.settlement_period ?? EVENT_PERIOD }, result);
      take({ replaced, inserts, regraded }, current, { oddsId, eventId, now }, storedOf(graded, closing.get(oddsId)));
    }
  }
  return { replaced, inserts, regraded };
}

/**
 * Keeps a row's new grade when it differs from its current one, which it then replaces. Nothing
 * is said yet about an event still to be played, unless it takes back an earlier grade.
 */
function take(
  changes: { replaced: number[]; inserts: NewGrade[]; regraded: Set<number> },
  current: ReadonlyMap<number, StoredGrade>,
  { oddsId, eventId, now }: { oddsId: number; eventId: number; now: number },
  next: Omit<StoredGrade, 'id'>,
): void {
  const before = current.get(oddsId);
  if (next.outcome === null && next.reason === 'not_final' && before === undefined) return;
  if (before !== undefined && sameGrade(before, next)) return;
  if (before !== undefined) {
    changes.replaced.push(before.id);
    changes.regraded.add(eventId);
  }
  changes.inserts.push({ odds_id: oddsId, event_id: eventId, graded_at: now, ...next, superseded_at: null });
}

const storedGradeOf = (row: CurrentGradeRow): StoredGrade => ({ ...row, id: Number(row.id), closing_price: numberOrNull(row.closing_price), closing_line: numberOrNull(row.closing_line) });

/** Rows by their event. */
function groupBy<R extends { event_id: number | string }>(rows: readonly R[]): Map<number, R[]> {
  const groups = new Map<number, R[]>();
  for (const row of rows) {
    const id = Number(row.event_id);
    const group = groups.get(id) ?? [];
    group.push(row);
    groups.set(id, group);
  }
  return groups;
}


function storedOf(graded: Grade, close: { price: number; line: number | null } | undefined): Omit<StoredGrade, 'id'> {
  const closing = { closing_price: close?.price ?? null, closing_line: close?.line ?? null };
  if (!graded.graded) return { outcome: null, reason: graded.reason, rule: graded.rule === '' ? null : graded.rule, used: null, ...closing };
  return { outcome: graded.outcome, reason: null, rule: graded.rule, used: JSON.stringify(graded.used), ...closing };
}

function sameGrade(a: Omit<StoredGrade, 'id'>, b: Omit<StoredGrade, 'id'>): boolean {
  return a.outcome === b.outcome && a.reason === b.reason && a.rule === b.rule && a.used === b.used && a.closing_price === b.closing_price && a.closing_line === b.closing_line;
}

/** The event's results as the grader reads them: each period's score by key, and the event's own under EVENT_PERIOD. */
function resultOf(
  scores: ReadonlyArray<{ key: string; home_score: number; away_score: number }>,
  statistics: ReadonlyArray<{ player_id: number; statistic: string; value: number }>,
  event: { status: EventResult['status']; home: number | null; away: number | null },
): EventResult {
  const periods = new Map<string, PeriodResult>();
  for (const s of scores) periods.set(s.key, { home: Number(s.home_score), away: Number(s.away_score) });
  // No statistics at all is a feed that gave none: the grader then says so instead of voiding every prop.
  let players: Map<number, Map<string, number>> | undefined;
  if (statistics.length > 0) {
    players = new Map();
    for (const s of statistics) {
      const id = Number(s.player_id);
      const own = players.get(id) ?? new Map<string, number>();
      own.set(s.statistic, Number(s.value));
      players.set(id, own);
    }
  }
  if (event.home !== null && event.away !== null) periods.set(EVENT_PERIOD, { home: event.home, away: event.away, ...(players ? { players } : {}) });
  return { status: event.status, periods };
}

function sidesOf(e: GradingEvent, players: readonly PlayerRow[]): EventSides {
  const names = (...values: Array<string | null>) => new Set(values.flatMap((v) => (v === null || v === '' ? [] : [v.toLowerCase()])));
  const teams = new Set([Number(e.home_team_id), Number(e.away_team_id)]);
  const byName = new Map<string, number | null>();
  for (const p of players) {
    if (!teams.has(Number(p.team_id))) continue;
    const name = p.name.toLowerCase();
    byName.set(name, byName.has(name) ? null : Number(p.id));
  }
  return { home: names(e.home_name, e.home_key, e.home_abbreviation), away: names(e.away_name, e.away_key, e.away_abbreviation), players: byName };
}
