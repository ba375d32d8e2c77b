/**
 * The closed set of settlement rules, and what each needs of a selection
 * (docs/data.md#how-selections-are-graded). A selection arrives as stored text; `parseSelection`
 * turns it into one of the typed shapes below or says it does not fit its rule.
 */

/** A competition's many-outcome markets (docs/data.md#competitions), graded from finishing results, not a score. */
export const OUTRIGHT_RULES = ['winner', 'top_5', 'top_10', 'top_20', 'podium', 'participant_matchup'] as const;
export type OutrightRule = (typeof OUTRIGHT_RULES)[number];

/** The places each finishing rule pays; a matchup between participants pays none (the best of its group wins). */
export const OUTRIGHT_PLACES: Readonly<Record<OutrightRule, number | null>> = { winner: 1, top_5: 5, top_10: 10, top_20: 20, podium: 3, participant_matchup: null };

export const SETTLEMENT_RULES = ['moneyline', '1x2', 'spread', 'total', 'team_total', 'player_stat', 'yes_no', ...OUTRIGHT_RULES] as const;
/**
 * - `moneyline`: who wins, two ways (`home`, `away`); a tie is a push, the stake returned.
 * - `1x2`: who wins, three ways (`home`, `draw`, `away`); nothing pushes.
 * - `spread`: a side's score plus its handicap `line` against the other's (`home`, `away`).
 * - `total`: both scores together against `line` (`over`, `under`).
 * - `team_total`: one team's score (`team`: `home` or `away`) against `line` (`over`, `under`).
 * - `player_stat`: a player's statistic `stat` against `line` (`over`, `under`).
 * - `yes_no`: whether the count `stat` (of a player, or of the event) is above zero (`yes`, `no`).
 * - the OUTRIGHT_RULES: a competition participant's finish (its odds row names the participant, not a side).
 */
export type SettlementRule = (typeof SETTLEMENT_RULES)[number];

/** The outcomes of each rule: the side words a position of its market may end with. */
export const RULE_SIDES: Readonly<Record<SettlementRule, readonly string[]>> = {
  moneyline: ['home', 'away'],
  '1x2': ['home', 'draw', 'away'],
  spread: ['home', 'away'],
  total: ['over', 'under'],
  team_total: ['over', 'under'],
  player_stat: ['over', 'under'],
  yes_no: ['yes', 'no'],
  // A competition's rows name their participant by id: the position is its name, no side word.
  winner: [],
  top_5: [],
  top_10: [],
  top_20: [],
  podium: [],
  participant_matchup: [],
};

export function isOutrightRule(rule: string): rule is OutrightRule {
  return (OUTRIGHT_RULES as readonly string[]).includes(rule);
}

/** Rules whose sides are the event's teams: a position may name the team itself (`Boston Celtics`). */
const TEAM_SIDED: ReadonlySet<SettlementRule> = new Set(['moneyline', '1x2', 'spread']);

/**
 * Whether a position names an outcome of its rule, the way the grading reads it (results'
 * readSelection): `yes` when it ends with one of the rule's side words (`home`, `Boston Celtics
 * over`) or is a subject alone on a yes/no market (`Jayson Tatum`: to score); `team` when it is a
 * subject alone on a market whose sides are the teams, an outcome only if it names one of the
 * event's teams (which the caller knows); `no` otherwise (`H` on a 1X2, `over` on a moneyline).
 */
export function outcomeOf(rule: SettlementRule, side: string | null): 'yes' | 'team' | 'no' {
  // Any text names a participant's outcome: the row's participant id says which (the import checks it).
  if (isOutrightRule(rule)) return 'yes';
  if (side !== null) return RULE_SIDES[rule].includes(side) ? 'yes' : 'no';
  if (TEAM_SIDED.has(rule)) return 'team';
  return rule === 'yes_no' ? 'yes' : 'no';
}

type Team = 'home' | 'away';
type OverUnder = 'over' | 'under';

export type ParsedSelection =
  | { rule: 'moneyline'; side: Team }
  | { rule: '1x2'; side: Team | 'draw' }
  | { rule: 'spread'; side: Team; line: number }
  | { rule: 'total'; side: OverUnder; line: number }
  | { rule: 'team_total'; team: Team; side: OverUnder; line: number }
  | { rule: 'player_stat'; playerId: number; stat: string; side: OverUnder; line: number }
  | { rule: 'yes_no'; side: 'yes' | 'no'; stat: string; playerId: number | null };

/** A selection as stored: the market's rule and the odds row's side, line, team, player and statistic. */
export interface SelectionFields {
  rule: string;
  side: string;
  line?: number | null;
  team?: string | null;
  playerId?: number | null;
  stat?: string | null;
}

export function isSettlementRule(rule: string): rule is SettlementRule {
  return (SETTLEMENT_RULES as readonly string[]).includes(rule);
}

/**
 * The typed selection, or undefined when it does not fit its rule: a side the rule does not have,
 * a missing or non-finite line where the rule compares with one, a missing team, player or statistic.
 * Rules without a line ignore one given.
 */
export function parseSelection(rule: SettlementRule, s: SelectionFields): ParsedSelection | undefined {
  const line = typeof s.line === 'number' && Number.isFinite(s.line) ? s.line : undefined;
  const stat = s.stat ? s.stat : undefined;
  const playerId = typeof s.playerId === 'number' ? s.playerId : undefined;
  switch (rule) {
    case 'moneyline':
      return isTeam(s.side) ? { rule, side: s.side } : undefined;
    case '1x2':
      return isTeam(s.side) || s.side === 'draw' ? { rule, side: s.side } : undefined;
    case 'spread':
      return isTeam(s.side) && line !== undefined ? { rule, side: s.side, line } : undefined;
    case 'total':
      return isOverUnder(s.side) && line !== undefined ? { rule, side: s.side, line } : undefined;
    case 'team_total':
      return isOverUnder(s.side) && line !== undefined && isTeam(s.team) ? { rule, team: s.team, side: s.side, line } : undefined;
    case 'player_stat':
      return isOverUnder(s.side) && line !== undefined && playerId !== undefined && stat !== undefined
        ? { rule, playerId, stat, side: s.side, line }
        : undefined;
    case 'yes_no':
      return (s.side === 'yes' || s.side === 'no') && stat !== undefined ? { rule, side: s.side, stat, playerId: playerId ?? null } : undefined;
    default:
      // An outright rule grades a competition's finishes (outrights.ts), never a matchup's score.
      return undefined;
  }
}

function isTeam(value: string | null | undefined): value is Team {
  return value === 'home' || value === 'away';
}

function isOverUnder(value: string): value is OverUnder {
  return value === 'over' || value === 'under';
}
