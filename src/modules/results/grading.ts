import type { Kysely, Selectable } from 'kysely';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { lockDataWrites } from '../../platform/db/locked-transaction.js';
import type { OddsGradesTable, Schema } from '../../platform/db/schema.js';
import { isEventStatus } from '../../shared/event-status.js';
import { type EventResult, grade, type Grade, type PeriodResult } from '../../shared/settlement/grading.js';
import { readSelection, type EventSides } from './selection-reading.js';

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
  for (let start = 0; start < ids.length; start += eventsPerBatch) {
    const batch = ids.slice(start, start + eventsPerBatch);
    const count = await db.transaction().execute(async (trx) => {
      await lockDataWrites(trx);
      const graded = await gradeBatch(trx, batch, now);
      // Graded with the results this transaction read: no longer due, whenever this node stops.
      await trx.deleteFrom('grading_due').where('event_id', 'in', batch).execute();
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
  const due = await db.selectFrom('grading_due').select('event_id').execute();
  return [...new Set([...due.map((row) => Number(row.event_id)), ...(await ungradedEvents(db))])].sort((a, b) => a - b);
}

/**
 * Marks due, in the import's transaction, the events of `candidates` a grading concerns: the
 * marker commits with the import, so a node stopped before the grading leaves it for the next
 * start. Returns them.
 */
export async function markGradingDue(trx: Kysely<Schema>, candidates: readonly number[], now: number): Promise<number[]> {
  const due = await eventsToGrade(trx, candidates);
  for (let start = 0; start < due.length; start += 5_000) {
    const rows = due.slice(start, start + 5_000).map((eventId) => ({ event_id: eventId, due_at: now }));
    await trx.insertInto('grading_due').values(rows).onConflict((oc) => oc.column('event_id').doNothing()).execute();
  }
  return due;
}

/** Events that are final or cancelled and have odds but no grade yet: what an upgrade finds. */
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
  for (let start = 0; start < eventIds.length; start += 10_000) {
    const chunk = eventIds.slice(start, start + 10_000);
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
  for (let start = 0; start < marketIds.length; start += 10_000) {
    const rows = await db.selectFrom('odds').select('event_id').distinct().where('betting_market_id', 'in', marketIds.slice(start, start + 10_000)).execute();
    for (const row of rows) found.add(Number(row.event_id));
  }
  return [...found];
}

/** A grade as stored and compared: the columns a new grade must match to leave the current one in place. */
type StoredGrade = Pick<Selectable<OddsGradesTable>, 'outcome' | 'reason' | 'rule' | 'used' | 'closing_price' | 'closing_line'> & { id: number };

/** The grades of a batch of events, loaded with one query per table. */
async function gradeBatch(trx: Kysely<Schema>, eventIds: readonly number[], now: number): Promise<number> {
  const events = await trx
    .selectFrom('events as e')
    .innerJoin('teams as h', 'h.id', 'e.home_team_id')
    .innerJoin('teams as a', 'a.id', 'e.away_team_id')
    .select(['e.id', 'e.status', 'e.start_time', 'e.home_score', 'e.away_score', 'e.home_team_id', 'e.away_team_id'])
    .select(['h.name as home_name', 'h.key as home_key', 'h.abbreviation as home_abbreviation', 'a.name as away_name', 'a.key as away_key', 'a.abbreviation as away_abbreviation'])
    .where('e.id', 'in', eventIds)
    .execute();
  const periods = groupBy(
    await trx
      .selectFrom('event_period_scores as s')
      .innerJoin('event_periods as p', 'p.id', 's.event_period_id')
      .select(['s.event_id', 'p.key', 's.home_score', 's.away_score'])
      .where('s.event_id', 'in', eventIds)
      .execute(),
  );
  const statistics = groupBy(await trx.selectFrom('player_event_statistics').select(['event_id', 'player_id', 'statistic', 'value']).where('event_id', 'in', eventIds).execute());
  const teamIds = [...new Set(events.flatMap((e) => [Number(e.home_team_id), Number(e.away_team_id)]))];
  const players = teamIds.length === 0 ? [] : await trx.selectFrom('players').select(['id', 'name', 'team_id']).where('team_id', 'in', teamIds).execute();
  const odds = groupBy(
    await trx
      .selectFrom('odds as o')
      .leftJoin('betting_markets as m', 'm.id', 'o.betting_market_id')
      .leftJoin('event_periods as p', 'p.id', 'o.event_period_id')
      .select(['o.event_id', 'o.id', 'o.position', 'o.line', 'o.player_id', 'p.key as period', 'm.settlement_rule', 'm.settlement_stat', 'm.settlement_period'])
      .where('o.event_id', 'in', eventIds)
      .orderBy('o.id')
      .execute(),
  );
  const closing = await closingOf(trx, eventIds);
  const current = new Map<number, StoredGrade>();
  const stored = await trx
    .selectFrom('odds_grades')
    .select(['id', 'odds_id', 'outcome', 'reason', 'rule', 'used', 'closing_price', 'closing_line'])
    .where('event_id', 'in', eventIds)
    .where('superseded_at', 'is', null)
    .execute();
  for (const row of stored) current.set(Number(row.odds_id), { ...row, id: Number(row.id), closing_price: numberOrNull(row.closing_price), closing_line: numberOrNull(row.closing_line) });

  const replaced: number[] = [];
  const inserts: Array<Omit<Schema['odds_grades'], 'id' | 'superseded_at'> & { superseded_at: null }> = [];
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
      const before = current.get(oddsId);
      // Nothing to say yet about an event still to be played, unless it takes back an earlier grade.
      if (!graded.graded && graded.reason === 'not_final' && before === undefined) continue;
      const next = storedOf(graded, closing.get(oddsId));
      if (before !== undefined && sameGrade(before, next)) continue;
      if (before !== undefined) replaced.push(before.id);
      inserts.push({ odds_id: oddsId, event_id: eventId, graded_at: now, ...next, superseded_at: null });
    }
  }
  for (let start = 0; start < replaced.length; start += 10_000) {
    await trx.updateTable('odds_grades').set({ superseded_at: now }).where('id', 'in', replaced.slice(start, start + 10_000)).execute();
  }
  for (let start = 0; start < inserts.length; start += 500) await trx.insertInto('odds_grades').values(inserts.slice(start, start + 500)).execute();
  return inserts.length;
}

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

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

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

interface EventTeams {
  home_team_id: number;
  away_team_id: number;
  home_name: string;
  home_key: string;
  home_abbreviation: string | null;
  away_name: string;
  away_key: string;
  away_abbreviation: string | null;
}

function sidesOf(e: EventTeams, players: ReadonlyArray<{ id: number; name: string; team_id: number }>): EventSides {
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

/** Each odds row's closing price and line, of these events: its last recorded state before its event started. */
export async function closingOf(trx: Kysely<Schema>, eventIds: readonly number[]): Promise<Map<number, { price: number; line: number | null }>> {
  const rows = await trx
    .selectFrom('odds_history as h')
    .innerJoin('events as e', 'e.id', 'h.event_id')
    .select(['h.odds_id', 'h.price_to', 'h.line_to'])
    .where('h.event_id', 'in', eventIds)
    .whereRef('h.changed_at', '<', 'e.start_time')
    .orderBy('h.changed_at')
    .orderBy('h.id')
    .execute();
  const closing = new Map<number, { price: number; line: number | null }>();
  for (const r of rows) closing.set(Number(r.odds_id), { price: Number(r.price_to), line: numberOrNull(r.line_to) });
  return closing;
}
