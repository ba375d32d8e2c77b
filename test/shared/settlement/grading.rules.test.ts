import { describe, expect, it } from 'vitest';
import { type Grade, grade, type Selection } from '../../../src/shared/settlement/grading.js';
import { resultOf } from './results.js';

// A table of cases per settlement rule. Pure: runs once, not per dialect.

/** The outcome of a graded selection, or `ungraded: <reason>`. */
const outcome = (g: Grade) => (g.graded ? g.outcome : `ungraded: ${g.reason}`);

// Soccer, 2–1 at full time; 1–1 at half time.
const soccer = resultOf({ 'full-time': { home: 2, away: 1 }, '1st-half': { home: 1, away: 1 } });
// Basketball level at 100 after regulation, 108–104 after overtime.
const basketball = resultOf({ 'full-game': { home: 108, away: 104 }, regulation: { home: 100, away: 100 } });
// Ice hockey 2–2 in regulation, 3–2 after overtime.
const hockey = resultOf({ 'full-game': { home: 3, away: 2 }, regulation: { home: 2, away: 2 } });

type Case = [description: string, selection: Omit<Selection, 'period'> & { period?: string }, expected: string];

/** Runs each case against `result`, on the period the case names or `period`. */
function table(result: ReturnType<typeof resultOf>, period: string, cases: Case[]) {
  it.each(cases)('%s → %s', (_, selection, expected) => {
    expect(outcome(grade({ period, ...selection }, result))).toBe(expected);
  });
}

describe('moneyline (two-way): a tie pushes', () => {
  table(basketball, 'full-game', [
    ['home, full game with overtime 108–104', { rule: 'moneyline', side: 'home' }, 'won'],
    ['away, full game with overtime', { rule: 'moneyline', side: 'away' }, 'lost'],
    ['home, regulation 100–100', { rule: 'moneyline', side: 'home', period: 'regulation' }, 'push'],
    ['away, regulation 100–100', { rule: 'moneyline', side: 'away', period: 'regulation' }, 'push'],
    ['a draw is not a side of a two-way moneyline', { rule: 'moneyline', side: 'draw' }, 'ungraded: invalid_selection'],
  ]);
});

describe('1x2 (three-way): a draw is an outcome', () => {
  table(soccer, 'full-time', [
    ['home 2–1', { rule: '1x2', side: 'home' }, 'won'],
    ['draw 2–1', { rule: '1x2', side: 'draw' }, 'lost'],
    ['away 2–1', { rule: '1x2', side: 'away' }, 'lost'],
    ['draw at half time 1–1', { rule: '1x2', side: 'draw', period: '1st-half' }, 'won'],
    ['home at half time 1–1', { rule: '1x2', side: 'home', period: '1st-half' }, 'lost'],
  ]);
  table(hockey, 'regulation', [
    ['draw in regulation 2–2: overtime not counted', { rule: '1x2', side: 'draw' }, 'won'],
    ['home, full game 3–2: overtime counted', { rule: '1x2', side: 'home', period: 'full-game' }, 'won'],
  ]);
});

describe('spread (handicap), with quarter lines', () => {
  table(soccer, 'full-time', [
    ['home −1.5 on 2–1', { rule: 'spread', side: 'home', line: -1.5 }, 'lost'],
    ['away +1.5 on 2–1', { rule: 'spread', side: 'away', line: 1.5 }, 'won'],
    ['home −0.5 on 2–1', { rule: 'spread', side: 'home', line: -0.5 }, 'won'],
    ['home −1 on 2–1: a whole line pushes', { rule: 'spread', side: 'home', line: -1 }, 'push'],
    ['away +1 on 2–1', { rule: 'spread', side: 'away', line: 1 }, 'push'],
    ['home −0.75 on 2–1: half on −0.5 won, half on −1 pushed', { rule: 'spread', side: 'home', line: -0.75 }, 'half_won'],
    ['away +0.75 on 2–1: half on +0.5 lost, half on +1 pushed', { rule: 'spread', side: 'away', line: 0.75 }, 'half_lost'],
    ['home −0.25 on 2–1: both halves won', { rule: 'spread', side: 'home', line: -0.25 }, 'won'],
    ['away +0.25 on 2–1: both halves lost', { rule: 'spread', side: 'away', line: 0.25 }, 'lost'],
    ['home −0.25 at half time 1–1: half on 0 pushed, half on −0.5 lost', { rule: 'spread', side: 'home', line: -0.25, period: '1st-half' }, 'half_lost'],
    ['away +0.25 at half time 1–1', { rule: 'spread', side: 'away', line: 0.25, period: '1st-half' }, 'half_won'],
    ['home +0.75 at half time 1–1: both halves won', { rule: 'spread', side: 'home', line: 0.75, period: '1st-half' }, 'won'],
    ['a spread without a line', { rule: 'spread', side: 'home' }, 'ungraded: invalid_selection'],
    ['a spread on over', { rule: 'spread', side: 'over', line: 1.5 }, 'ungraded: invalid_selection'],
  ]);
  table(basketball, 'full-game', [
    ['home −3.5 with overtime 108–104', { rule: 'spread', side: 'home', line: -3.5 }, 'won'],
    ['home −4 with overtime: push', { rule: 'spread', side: 'home', line: -4 }, 'push'],
    ['home −3.5 in regulation 100–100', { rule: 'spread', side: 'home', line: -3.5, period: 'regulation' }, 'lost'],
  ]);
});

describe('total over/under, with quarter lines', () => {
  table(soccer, 'full-time', [
    ['over 2.5 on 3 goals', { rule: 'total', side: 'over', line: 2.5 }, 'won'],
    ['under 2.5 on 3 goals', { rule: 'total', side: 'under', line: 2.5 }, 'lost'],
    ['over 3 on 3 goals: push', { rule: 'total', side: 'over', line: 3 }, 'push'],
    ['under 3 on 3 goals: push', { rule: 'total', side: 'under', line: 3 }, 'push'],
    ['over 2.75 on 3: half on 2.5 won, half on 3 pushed', { rule: 'total', side: 'over', line: 2.75 }, 'half_won'],
    ['under 2.75 on 3', { rule: 'total', side: 'under', line: 2.75 }, 'half_lost'],
    ['over 3.25 on 3: half on 3 pushed, half on 3.5 lost', { rule: 'total', side: 'over', line: 3.25 }, 'half_lost'],
    ['under 3.25 on 3', { rule: 'total', side: 'under', line: 3.25 }, 'half_won'],
    ['over 2.25 at half time (2 goals): half on 2 pushed, half on 2.5 lost', { rule: 'total', side: 'over', line: 2.25, period: '1st-half' }, 'half_lost'],
    ['a total on home', { rule: 'total', side: 'home', line: 2.5 }, 'ungraded: invalid_selection'],
  ]);
  table(hockey, 'full-game', [
    ['over 4.5 with overtime (5 goals)', { rule: 'total', side: 'over', line: 4.5 }, 'won'],
    ['over 4.5 in regulation (4 goals)', { rule: 'total', side: 'over', line: 4.5, period: 'regulation' }, 'lost'],
  ]);
});

describe('team total', () => {
  table(soccer, 'full-time', [
    ['home over 1.5 on 2', { rule: 'team_total', team: 'home', side: 'over', line: 1.5 }, 'won'],
    ['away over 1.5 on 1', { rule: 'team_total', team: 'away', side: 'over', line: 1.5 }, 'lost'],
    ['away under 1 on 1: push', { rule: 'team_total', team: 'away', side: 'under', line: 1 }, 'push'],
    ['home under 1.75 on 2: half on 1.5 lost, half on 2 pushed', { rule: 'team_total', team: 'home', side: 'under', line: 1.75 }, 'half_lost'],
    ['a team total without its team', { rule: 'team_total', side: 'over', line: 1.5 }, 'ungraded: invalid_selection'],
    ['a team total on a team called draw', { rule: 'team_total', team: 'draw', side: 'over', line: 1.5 }, 'ungraded: invalid_selection'],
  ]);
});

describe('player statistic over/under', () => {
  const game = resultOf({
    'full-game': { home: 108, away: 104, players: { 7: { points: 24, rebounds: 9 }, 8: { rebounds: 3 }, 9: { points: 24.1 } } },
    '1st-half': { home: 50, away: 48 },
  });
  table(game, 'full-game', [
    ['points over 23.5 on 24', { rule: 'player_stat', playerId: 7, stat: 'points', side: 'over', line: 23.5 }, 'won'],
    ['points under 23.5 on 24', { rule: 'player_stat', playerId: 7, stat: 'points', side: 'under', line: 23.5 }, 'lost'],
    ['points over 24 on 24: push', { rule: 'player_stat', playerId: 7, stat: 'points', side: 'over', line: 24 }, 'push'],
    ['points over 23.75 on 24: half won', { rule: 'player_stat', playerId: 7, stat: 'points', side: 'over', line: 23.75 }, 'half_won'],
    ['rebounds under 9.5 on 9', { rule: 'player_stat', playerId: 7, stat: 'rebounds', side: 'under', line: 9.5 }, 'won'],
    ['a player who did not play is void', { rule: 'player_stat', playerId: 12, stat: 'points', side: 'over', line: 10.5 }, 'void'],
    ['a player who played without the statistic', { rule: 'player_stat', playerId: 8, stat: 'points', side: 'over', line: 10.5 }, 'ungraded: missing_stat'],
    ['a period without player statistics', { rule: 'player_stat', playerId: 7, stat: 'points', side: 'over', line: 10.5, period: '1st-half' }, 'ungraded: missing_stat'],
    ['a fractional statistic between the halves of a quarter line', { rule: 'player_stat', playerId: 9, stat: 'points', side: 'over', line: 24.25 }, 'ungraded: halves_disagree'],
    ['a prop without its player', { rule: 'player_stat', stat: 'points', side: 'over', line: 23.5 }, 'ungraded: invalid_selection'],
    ['a prop without its statistic', { rule: 'player_stat', playerId: 7, side: 'over', line: 23.5 }, 'ungraded: invalid_selection'],
  ]);
});

describe('yes/no', () => {
  const match = resultOf({
    'full-time': { home: 2, away: 1, stats: { penalty_awarded: 0 }, players: { 10: { goals: 1 }, 11: { goals: 0 } } },
    '1st-half': { home: 1, away: 0 },
  });
  table(match, 'full-time', [
    ['both teams score, yes, on 2–1', { rule: 'yes_no', stat: 'both_teams_score', side: 'yes' }, 'won'],
    ['both teams score, no, on 2–1', { rule: 'yes_no', stat: 'both_teams_score', side: 'no' }, 'lost'],
    ['both teams score, yes, at half time 1–0', { rule: 'yes_no', stat: 'both_teams_score', side: 'yes', period: '1st-half' }, 'lost'],
    ['both teams score, no, at half time 1–0', { rule: 'yes_no', stat: 'both_teams_score', side: 'no', period: '1st-half' }, 'won'],
    ['a penalty awarded, no, on a count of 0', { rule: 'yes_no', stat: 'penalty_awarded', side: 'no' }, 'won'],
    ['a count the period lacks', { rule: 'yes_no', stat: 'red_card', side: 'yes' }, 'ungraded: missing_stat'],
    ['anytime scorer, yes, on 1 goal', { rule: 'yes_no', playerId: 10, stat: 'goals', side: 'yes' }, 'won'],
    ['anytime scorer, yes, on 0 goals', { rule: 'yes_no', playerId: 11, stat: 'goals', side: 'yes' }, 'lost'],
    ['anytime scorer who did not play is void', { rule: 'yes_no', playerId: 99, stat: 'goals', side: 'yes' }, 'void'],
    ['yes/no without a statistic', { rule: 'yes_no', side: 'yes' }, 'ungraded: invalid_selection'],
    ['yes/no on over', { rule: 'yes_no', stat: 'both_teams_score', side: 'over' }, 'ungraded: invalid_selection'],
  ]);
});

describe('the event’s status, the rule and the period', () => {
  const moneyline: Selection = { rule: 'moneyline', side: 'home', period: 'full-time' };
  const prop: Selection = { rule: 'player_stat', playerId: 7, stat: 'points', side: 'over', line: 20.5, period: 'full-time' };
  it('a cancelled event voids every bet, scores or not', () => {
    expect(outcome(grade(moneyline, resultOf({}, 'cancelled')))).toBe('void');
    expect(outcome(grade(prop, resultOf({ 'full-time': { home: 0, away: 0 } }, 'cancelled')))).toBe('void');
  });
  it('a postponed event stays ungraded, and so does one not over', () => {
    expect(outcome(grade(moneyline, resultOf({ 'full-time': { home: 1, away: 0 } }, 'postponed')))).toBe('ungraded: postponed');
    expect(outcome(grade(moneyline, resultOf({ 'full-time': { home: 1, away: 0 } }, 'live')))).toBe('ungraded: not_final');
    expect(outcome(grade(moneyline, resultOf({}, 'scheduled')))).toBe('ungraded: not_final');
  });
  it('an unknown rule, or none, is never graded, even on a cancelled event', () => {
    for (const rule of ['', 'asian_corners', 'Moneyline', 'constructor']) {
      expect(grade({ ...moneyline, rule }, resultOf({}, 'cancelled'))).toEqual({ graded: false, rule, reason: 'unknown_rule' });
    }
  });
  it('a final event without a score for the settling period', () => {
    expect(outcome(grade({ ...moneyline, period: 'constructor' }, soccer))).toBe('ungraded: missing_period');
    expect(outcome(grade({ ...moneyline, period: '2nd-half' }, soccer))).toBe('ungraded: missing_period');
  });
});

describe('the numbers a grade used', () => {
  it('the period, its score, the quantity compared, the line and a quarter line’s halves', () => {
    expect(grade({ rule: 'spread', side: 'home', line: -0.25, period: '1st-half' }, soccer)).toEqual({
      graded: true,
      rule: 'spread',
      outcome: 'half_lost',
      used: { period: '1st-half', home: 1, away: 1, value: 0, line: -0.25, halves: [-0.5, 0] },
    });
    expect(grade({ rule: 'total', side: 'over', line: 2.5, period: 'full-time' }, soccer)).toMatchObject({
      used: { period: 'full-time', home: 2, away: 1, value: 3, line: 2.5, halves: null },
    });
    expect(grade({ rule: 'moneyline', side: 'away', period: 'full-time' }, soccer)).toMatchObject({ used: { value: -1, line: null } });
  });
  it('a void bet used no quantity', () => {
    const game = resultOf({ 'full-game': { home: 1, away: 0, players: {} } });
    expect(grade({ rule: 'player_stat', playerId: 3, stat: 'points', side: 'over', line: 0.5, period: 'full-game' }, game)).toEqual({
      graded: true,
      rule: 'player_stat',
      outcome: 'void',
      used: { period: 'full-game', home: 1, away: 0, value: null, line: 0.5, halves: null },
    });
  });
});
