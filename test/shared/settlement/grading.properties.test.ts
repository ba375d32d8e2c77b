import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Grade, grade, type Outcome, type Selection } from '../../../src/shared/settlement/grading.js';
import { resultOf } from './results.js';

// Laws of grading over generated scores and lines. Pure: runs once, not per dialect.

const RUNS = { numRuns: 1000 };
const PERIOD = 'full-game';

const score = fc.integer({ min: 0, max: 12 });
/** Lines in quarters: whole, half and quarter lines alike. */
const line = (min: number, max: number) => fc.integer({ min: min * 4, max: max * 4 }).map((q) => q / 4);
const playerPoints = fc.integer({ min: 0, max: 40 });

/** A final result with one player's points. */
const resultArb = fc.tuple(score, score, playerPoints).map(([home, away, points]) => resultOf({ [PERIOD]: { home, away, players: { 7: { points } } } }));

/** A two-way selection and its opposite: the other side at the mirrored line. */
const twoWayPair = fc.oneof(
  fc.constant<[Selection, Selection]>([
    { rule: 'moneyline', side: 'home', period: PERIOD },
    { rule: 'moneyline', side: 'away', period: PERIOD },
  ]),
  line(-6, 6).map<[Selection, Selection]>((l) => [
    { rule: 'spread', side: 'home', line: l, period: PERIOD },
    { rule: 'spread', side: 'away', line: -l, period: PERIOD },
  ]),
  line(0, 24).map<[Selection, Selection]>((l) => [
    { rule: 'total', side: 'over', line: l, period: PERIOD },
    { rule: 'total', side: 'under', line: l, period: PERIOD },
  ]),
  fc.tuple(fc.constantFrom('home', 'away'), line(0, 12)).map<[Selection, Selection]>(([team, l]) => [
    { rule: 'team_total', team, side: 'over', line: l, period: PERIOD },
    { rule: 'team_total', team, side: 'under', line: l, period: PERIOD },
  ]),
  line(0, 40).map<[Selection, Selection]>((l) => [
    { rule: 'player_stat', playerId: 7, stat: 'points', side: 'over', line: l, period: PERIOD },
    { rule: 'player_stat', playerId: 7, stat: 'points', side: 'under', line: l, period: PERIOD },
  ]),
  fc.constant<[Selection, Selection]>([
    { rule: 'yes_no', stat: 'both_teams_score', side: 'yes', period: PERIOD },
    { rule: 'yes_no', stat: 'both_teams_score', side: 'no', period: PERIOD },
  ]),
);

/** What the other side of a two-way bet gets when one side gets `o`. */
const MIRROR: Record<Outcome, Outcome> = { won: 'lost', lost: 'won', push: 'push', void: 'void', half_won: 'half_lost', half_lost: 'half_won' };

function outcomeOf(g: Grade): Outcome {
  if (!g.graded) throw new Error(`not graded: ${g.reason}`);
  return g.outcome;
}

const wins = (o: Outcome) => o === 'won' || o === 'half_won';

describe('grading laws', () => {
  it('a selection and its opposite never both win: their grades mirror each other', () => {
    fc.assert(
      fc.property(twoWayPair, resultArb, ([selection, opposite], result) => {
        const [a, b] = [outcomeOf(grade(selection, result)), outcomeOf(grade(opposite, result))];
        expect(wins(a) && wins(b)).toBe(false);
        expect(b).toBe(MIRROR[a]);
      }),
      RUNS,
    );
  });

  it('on a whole or half line, the two sides are won and lost, or both push', () => {
    const wholeOrHalf = twoWayPair.filter(([s]) => s.line === undefined || s.line === null || Number.isInteger(s.line * 2));
    fc.assert(
      fc.property(wholeOrHalf, resultArb, ([selection, opposite], result) => {
        const pair = [outcomeOf(grade(selection, result)), outcomeOf(grade(opposite, result))].sort().join('+');
        expect(['lost+won', 'push+push']).toContain(pair);
      }),
      RUNS,
    );
  });

  it('1x2: exactly one of home, draw and away wins', () => {
    fc.assert(
      fc.property(resultArb, (result) => {
        const won = (['home', 'draw', 'away'] as const).filter((side) => outcomeOf(grade({ rule: '1x2', side, period: PERIOD }, result)) === 'won');
        expect(won).toHaveLength(1);
      }),
      RUNS,
    );
  });

  it('a quarter line grades as its two half-stake bets on the lines a quarter either side', () => {
    // Settled the way Asian lines are paid: two wins win, a win and a push is half won, a push and
    // a loss half lost, two losses lose. Written out here, apart from the code under test.
    const together: Record<string, Outcome> = { 'won+won': 'won', 'push+won': 'half_won', 'lost+push': 'half_lost', 'lost+lost': 'lost' };
    const quarterPair = twoWayPair.filter(([s]) => typeof s.line === 'number' && !Number.isInteger(s.line * 2));
    fc.assert(
      fc.property(quarterPair, resultArb, ([selection], result) => {
        const l = selection.line ?? Number.NaN;
        const halves = [l - 0.25, l + 0.25].map((half) => outcomeOf(grade({ ...selection, line: half }, result)));
        expect(outcomeOf(grade(selection, result))).toBe(together[halves.sort().join('+')]);
      }),
      RUNS,
    );
  });

  it('overtime counts only where the settling period includes it', () => {
    // Level after regulation, decided in overtime: the two periods are two results.
    fc.assert(
      fc.property(score, fc.integer({ min: 1, max: 3 }), fc.boolean(), (level, extra, homeWins) => {
        const full = homeWins ? { home: level + extra, away: level } : { home: level, away: level + extra };
        const result = resultOf({ regulation: { home: level, away: level }, 'full-game': full });
        const home = (period: string) => outcomeOf(grade({ rule: 'moneyline', side: 'home', period }, result));
        expect(home('regulation')).toBe('push');
        expect(home('full-game')).toBe(homeWins ? 'won' : 'lost');
      }),
      RUNS,
    );
  });
});
