import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import type { Static } from 'typebox';
import type { OutrightGradeNumbers } from '../../shared/settlement/grade-numbers.schema.js';
import type { NotGradableReason } from '../../shared/settlement/grading.js';
import { FINISH_STATUSES, type Finish, type FinishStatus, gradeEachWay, gradeMatchup, gradePlaces, type OutrightGrade } from '../../shared/settlement/outrights.js';
import { isOutrightRule, OUTRIGHT_PLACES, type OutrightRule } from '../../shared/settlement/rules.js';
import { createOutrightGradingRepository, type OutrightOddsRow } from './grading-outrights.repository.js';

/**
 * Grading a batch's competitions (docs/data.md#competitions) through the matchups' grading path:
 * each odds row that backs a participant is graded from the participants' finishing results by
 * the pure functions of shared/settlement/outrights.ts, and handed back as the grade to store.
 * Matchups never reach here: the batch's competitions are found by their kind.
 */

/** A grade as the grader stores it (grading.ts compares it with the row's current one). */
export interface OutrightStored {
  outcome: string | null;
  reason: NotGradableReason | null;
  rule: string | null;
  used: string | null;
}

export interface OutrightGradeOf {
  odds_id: number;
  event_id: number;
  grade: OutrightStored;
}

/** A batch's competitions, as their result.graded webhooks name them, and their rows' grades. */
export interface OutrightGrades {
  competitions: Array<{ id: number; sport_id: number; league_id: number }>;
  grades: OutrightGradeOf[];
}

type Numbers = Static<typeof OutrightGradeNumbers>;

/** The grades of the batch's competitions' odds rows; rows of a competition still to be played are left out, as the matchups' are. */
export async function outrightGrades(db: Kysely<Schema>, eventIds: readonly number[]): Promise<OutrightGrades> {
  const repository = createOutrightGradingRepository(db);
  const competitions = await repository.competitions(eventIds);
  if (competitions.length === 0) return { competitions: [], grades: [] };
  const ids = competitions.map((c) => Number(c.id));
  const finishes = new Map<number, Finish[]>();
  for (const row of await repository.finishes(ids)) {
    const status = FINISH_STATUSES.find((s) => s === row.finish_status);
    if (status === undefined) continue;
    const list = finishes.get(Number(row.event_id)) ?? [];
    list.push({ participant: String(row.id), position: row.finish_position === null ? null : Number(row.finish_position), status });
    finishes.set(Number(row.event_id), list);
  }
  const statusOf = new Map(competitions.map((c) => [Number(c.id), c.status]));
  const grades: OutrightGradeOf[] = [];
  for (const row of await repository.odds(ids)) {
    const eventId = Number(row.event_id);
    grades.push({ odds_id: Number(row.id), event_id: eventId, grade: gradeRow(row, statusOf.get(eventId) ?? 'scheduled', finishes.get(eventId) ?? []) });
  }
  return { competitions: competitions.map((c) => ({ id: Number(c.id), sport_id: Number(c.sport_id), league_id: Number(c.league_id) })), grades };
}

const notGradable = (reason: NotGradableReason, rule: string | null): OutrightStored => ({ outcome: null, reason, rule, used: null });

/** One row's grade: its rule applied to the finishes, or why it cannot be graded. */
export function gradeRow(row: OutrightOddsRow, status: string, finishes: readonly Finish[]): OutrightStored {
  const rule = row.settlement_rule;
  if (rule === null) return notGradable('unknown_rule', null);
  if (!isOutrightRule(rule)) return notGradable('invalid_selection', rule);
  const participant = String(row.participant_id);
  const rivals = row.rival_ids === null ? [] : row.rival_ids.split(',');
  const base = { participant_id: Number(row.participant_id), rival_ids: rivals.length === 0 ? null : rivals.map(Number) };
  if (status === 'cancelled') {
    const used: Numbers = { ...base, status: null, position: null, places: OUTRIGHT_PLACES[rule], tied: 0, factor: 0, each_way: null };
    return { outcome: 'void', reason: null, rule, used: JSON.stringify(used) };
  }
  if (status === 'postponed') return notGradable('postponed', rule);
  if (status !== 'final') return notGradable('not_final', rule);
  const named = new Set(finishes.map((f) => f.participant));
  if (![participant, ...rivals].every((p) => named.has(p))) return notGradable('missing_result', rule);
  if ((rule === 'participant_matchup') !== rivals.length > 0) return notGradable('invalid_selection', rule);
  const { grade, eachWay } = outrightGradeOf(rule, participant, rivals, row, finishes);
  const used: Numbers = {
    ...base,
    status: grade.numbers.status as FinishStatus | null,
    position: grade.numbers.position,
    places: OUTRIGHT_PLACES[rule],
    tied: grade.numbers.tied ?? 0,
    factor: grade.factor,
    each_way: eachWay,
  };
  return { outcome: grade.outcome, reason: null, rule, used: JSON.stringify(used) };
}

function outrightGradeOf(rule: OutrightRule, participant: string, rivals: readonly string[], row: OutrightOddsRow, finishes: readonly Finish[]): { grade: OutrightGrade; eachWay: Numbers['each_way'] } {
  const places = OUTRIGHT_PLACES[rule];
  if (places === null) return { grade: gradeMatchup(participant, rivals, finishes), eachWay: null };
  const fraction = row.each_way_fraction === null ? null : Number(row.each_way_fraction);
  const eachWayPlaces = row.each_way_places === null ? null : Number(row.each_way_places);
  if (fraction === null || eachWayPlaces === null) return { grade: gradePlaces(participant, places, finishes), eachWay: null };
  const { win, place } = gradeEachWay(participant, eachWayPlaces, fraction, Number(row.price_decimal), finishes);
  return { grade: win, eachWay: { outcome: place.outcome, factor: place.factor, places: eachWayPlaces, fraction, place_price: place.place_price } };
}
