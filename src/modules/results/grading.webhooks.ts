import { numberOrNull } from '../../platform/db/column-values.js';
import type { GradeNumbers } from '../../shared/settlement/grading.js';
import { iso } from '../../shared/wire.js';
import type { OutboxRow, WebhookGrade } from '../webhooks/index.js';
import type { BatchInputs } from './grading.js';
import type { GradingEvent, GradingOddsRow, NewGrade } from './grading.repository.js';

/**
 * The result.graded webhooks of one grading transaction (decision 0312): one per event that got a
 * grade, matchup or competition, with the grades as the results answers name them. Built from what
 * the grader already read; an event whose grades all stay as they were is told nothing.
 */
export function gradedWebhooks(
  inputs: { events: ReadonlyArray<Pick<GradingEvent, 'id' | 'sport_id' | 'league_id'>>; odds: BatchInputs['odds'] },
  inserts: readonly NewGrade[],
  regraded: ReadonlySet<number>,
  now: number,
): OutboxRow[] {
  const rowOf = new Map<number, GradingOddsRow>();
  for (const rows of inputs.odds.values()) for (const row of rows) rowOf.set(Number(row.id), row);
  const byEvent = new Map<number, WebhookGrade[]>();
  for (const grade of inserts) {
    const row = rowOf.get(grade.odds_id);
    if (row === undefined) continue;
    const grades = byEvent.get(grade.event_id) ?? [];
    grades.push(webhookGradeOf(grade, row));
    byEvent.set(grade.event_id, grades);
  }
  const rows: OutboxRow[] = [];
  for (const event of inputs.events) {
    const id = Number(event.id);
    const grades = byEvent.get(id);
    if (grades === undefined) continue;
    grades.sort((a, b) => a.odds_id - b.odds_id);
    rows.push({
      type: 'result.graded',
      data: { event_id: id, grades, regrade: regraded.has(id) },
      sport_id: Number(event.sport_id),
      league_id: Number(event.league_id),
      event_id: id,
      created_at: now,
    });
  }
  return rows.sort((a, b) => (a.event_id ?? 0) - (b.event_id ?? 0));
}

function webhookGradeOf(grade: NewGrade, row: GradingOddsRow): WebhookGrade {
  return {
    odds_id: grade.odds_id,
    event_betting_market_position_id: numberOrNull(row.selection_id),
    operator_id: Number(row.operator_id),
    betting_market_id: Number(row.betting_market_id),
    position: row.position,
    line: numberOrNull(row.line),
    outcome: grade.outcome as WebhookGrade['outcome'],
    reason: grade.reason as WebhookGrade['reason'],
    rule: grade.rule,
    numbers: grade.used === null ? null : (JSON.parse(grade.used) as GradeNumbers),
    closing_price: grade.closing_price,
    closing_line: grade.closing_line,
    graded_at: iso(grade.graded_at),
  };
}
