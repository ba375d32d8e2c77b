import type { EventStatus } from '../event-status.js';
import { gradeAt, halvesOf } from './lines.js';
import { isSettlementRule, type ParsedSelection, parseSelection, type SelectionFields, type SettlementRule } from './rules.js';

/**
 * Grading a selection from its event's result (docs/data.md#how-selections-are-graded). Pure: the
 * caller loads the event's status and the score of each period, and gets back the outcome with the
 * rule and the numbers it used, or why the selection cannot be graded yet or at all.
 */

export const OUTCOMES = ['won', 'lost', 'push', 'void', 'half_won', 'half_lost'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const NOT_GRADABLE_REASONS = ['unknown_rule', 'invalid_selection', 'postponed', 'not_final', 'missing_period', 'missing_stat', 'halves_disagree', 'missing_result'] as const;
/**
 * - `unknown_rule`: the market has no rule, or one outside the closed set;
 * - `invalid_selection`: the selection does not fit its rule (a side it lacks, no line…);
 * - `postponed`: the event will be played later, and graded then; `not_final`: it is not over;
 * - `missing_period`: the result has no score for the settling period;
 * - `missing_stat`: the period's result lacks the statistic the selection settles on;
 * - `halves_disagree`: a quarter line whose halves won and lost (a fractional statistic only);
 * - `missing_result`: a competition is final and a participant its selection names has no finishing result.
 */
export type NotGradableReason = (typeof NOT_GRADABLE_REASONS)[number];

/** The score and statistics of one period of an event (a half, regulation, the full game with overtime…). */
export interface PeriodResult {
  home: number;
  away: number;
  /** Counts about the event in the period for yes/no markets (`overtime`: 1); `both_teams_score` is derived from the score. */
  stats?: ReadonlyMap<string, number>;
  /** Each player who took part in the period, with their statistics. Absent when the feed gave none. */
  players?: ReadonlyMap<number, ReadonlyMap<string, number>>;
}

/** What the grader needs of an event: its status and its periods' results by period key. */
export interface EventResult {
  status: EventStatus;
  periods: ReadonlyMap<string, PeriodResult>;
}

/**
 * A selection to grade. `period` is the key of the settling period: the odds row's own period when
 * it has one, else the market's. Periods are distinct results, so "full game with overtime" and
 * "regulation" settle differently because the caller passes their different scores.
 */
export interface Selection extends SelectionFields {
  period: string;
}

/** The numbers a grade used: the period's score, the quantity compared, the line and its halves. */
export interface GradeNumbers {
  period: string;
  home: number | null;
  away: number | null;
  /** The side's lead (moneyline, spread) or the home side's (1x2: a draw has no side), the total, the team's score, the statistic or the count. */
  value: number | null;
  line: number | null;
  /** The two lines a quarter line was settled on, lower first. */
  halves: [number, number] | null;
}

export type Grade =
  | { graded: true; rule: SettlementRule; outcome: Outcome; used: GradeNumbers }
  | { graded: false; rule: string; reason: NotGradableReason };

export function grade(selection: Selection, result: EventResult): Grade {
  const { rule, period } = selection;
  const notGradable = (reason: NotGradableReason): Grade => ({ graded: false, rule, reason });
  if (!isSettlementRule(rule)) return notGradable('unknown_rule');
  const parsed = parseSelection(rule, selection);
  if (parsed === undefined) return notGradable('invalid_selection');
  const line = 'line' in parsed ? parsed.line : null;
  const nothing: GradeNumbers = { period, home: null, away: null, value: null, line, halves: null };

  // A cancelled event voids every bet on it; a postponed one keeps its bets open until it is played.
  if (result.status === 'cancelled') return { graded: true, rule, outcome: 'void', used: nothing };
  if (result.status === 'postponed') return notGradable('postponed');
  if (result.status !== 'final') return notGradable('not_final');

  const score = result.periods.get(period);
  if (score === undefined) return notGradable('missing_period');
  const value = valueOf(parsed, score);
  if (value === 'missing_stat') return notGradable('missing_stat');
  const used: GradeNumbers = { ...nothing, home: score.home, away: score.away };
  // A player who did not take part leaves nothing to settle on: the stake is returned.
  if (value === 'did_not_play') return { graded: true, rule, outcome: 'void', used };

  const outcome = outcomeOf(parsed, value);
  if (outcome === 'halves_disagree') return notGradable(outcome);
  return { graded: true, rule, outcome, used: { ...used, value, halves: line === null ? null : (halvesOf(line) ?? null) } };
}

/** The quantity the selection's rule compares, from the settling period's result. */
function valueOf(s: ParsedSelection, score: PeriodResult): number | 'did_not_play' | 'missing_stat' {
  switch (s.rule) {
    case 'moneyline':
    case 'spread':
      return s.side === 'home' ? score.home - score.away : score.away - score.home;
    case '1x2':
      return score.home - score.away;
    case 'total':
      return score.home + score.away;
    case 'team_total':
      return s.team === 'home' ? score.home : score.away;
    case 'player_stat':
      return playerStat(score, s.playerId, s.stat);
    case 'yes_no':
      return s.playerId === null ? eventStat(score, s.stat) : playerStat(score, s.playerId, s.stat);
  }
}

function playerStat(score: PeriodResult, playerId: number, stat: string): number | 'did_not_play' | 'missing_stat' {
  // No player statistics at all is a gap in the feed, not a player who sat out.
  if (score.players === undefined) return 'missing_stat';
  const stats = score.players.get(playerId);
  if (stats === undefined) return 'did_not_play';
  return stats.get(stat) ?? 'missing_stat';
}

/** The counts about an event (no player) the results hold, each derived from the score: what a `yes_no` market without a player may settle on. */
export const EVENT_COUNTS: readonly string[] = ['both_teams_score'];

function eventStat(score: PeriodResult, stat: string): number | 'missing_stat' {
  const given = score.stats?.get(stat);
  if (given !== undefined) return given;
  if (stat === 'both_teams_score') return score.home > 0 && score.away > 0 ? 1 : 0;
  return 'missing_stat';
}

function outcomeOf(s: ParsedSelection, value: number): Outcome | 'halves_disagree' {
  switch (s.rule) {
    case 'moneyline':
      return gradeAt(() => value, 0);
    case '1x2':
      return (value > 0 ? 'home' : value < 0 ? 'away' : 'draw') === s.side ? 'won' : 'lost';
    case 'spread':
      return gradeAt((line) => value + line, s.line);
    case 'total':
    case 'team_total':
    case 'player_stat':
      return gradeAt((line) => (s.side === 'over' ? value - line : line - value), s.line);
    case 'yes_no':
      return value > 0 === (s.side === 'yes') ? 'won' : 'lost';
  }
}
