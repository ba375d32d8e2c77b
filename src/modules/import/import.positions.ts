import { splitPosition } from '../../shared/positions.js';
import { isSettlementRule, outcomeOf, RULE_SIDES, type SettlementRule } from '../../shared/settlement/rules.js';
import type { Problems } from './import.checks.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

type OddsItem = NonNullable<Dataset['odds']>[number];

/** A row whose position is a subject alone on a market whose sides are the teams: it must name one. */
interface TeamNamed {
  index: number;
  item: OddsItem;
  rule: SettlementRule;
}

/**
 * An odds row's position must be an outcome of its market's settlement rule, as the grading reads
 * it (docs/data.md#how-selections-are-graded): a `H` on a 1X2 market or an `over` on a moneyline
 * would otherwise import and only ever grade as `invalid_selection`. A market without a rule takes
 * any position. Only the side is checked here: a line, a team or a player the grading cannot find
 * stays the grading's to say. Team names are read only for the rows that name a team alone.
 */
export async function checkOddsPositions(
  odds: readonly OddsItem[],
  dataset: Dataset,
  marketRules: ReadonlyMap<number, string | null>,
  repo: ImportRepository,
  options: { replace: boolean },
  problems: Problems,
): Promise<void> {
  const teamNamed: TeamNamed[] = [];
  // A feed's positions are a few texts repeated: each is read once per rule, not once per row.
  const answers = new Map<SettlementRule, Map<string, ReturnType<typeof outcomeOf>>>();
  const answerOf = (rule: SettlementRule, position: string) => {
    let ofRule = answers.get(rule);
    if (ofRule === undefined) answers.set(rule, (ofRule = new Map()));
    let answer = ofRule.get(position);
    if (answer === undefined) ofRule.set(position, (answer = outcomeOf(rule, splitPosition(position).side)));
    return answer;
  };
  odds.forEach((item, index) => {
    const rule = marketRules.get(item.betting_market_id) ?? null;
    if (rule === null || !isSettlementRule(rule)) return;
    const answer = answerOf(rule, item.position);
    if (answer === 'team') teamNamed.push({ index, item, rule });
    else if (answer === 'no') refuse(problems, index, item, rule);
  });
  if (teamNamed.length === 0) return;
  const namesOf = await eventTeamNames(teamNamed.map((t) => t.item.event_id), dataset, repo, options);
  for (const { index, item, rule } of teamNamed) {
    const { subject } = splitPosition(item.position);
    if (!(namesOf.get(item.event_id)?.has(subject) ?? false)) refuse(problems, index, item, rule);
  }
}

function refuse(problems: Problems, index: number, item: OddsItem, rule: SettlementRule): void {
  const sides = RULE_SIDES[rule].join(', ');
  const teams = outcomeOf(rule, null) === 'team' ? ', or a team of the event by its name, key or abbreviation' : '';
  problems.add(`odds[${index}].position`, 'outcome', `"${item.position}" is not an outcome of market ${item.betting_market_id} (settled by ${rule}): one of ${sides}${teams}`);
}

/** The lower-cased names, keys and abbreviations of both teams of each event: the dataset's first, then the stored. */
async function eventTeamNames(eventIds: readonly number[], dataset: Dataset, repo: ImportRepository, options: { replace: boolean }): Promise<Map<number, Set<string>>> {
  const stored = <C extends string>(table: 'events' | 'teams', ids: Set<number>, columns: readonly C[]) =>
    options.replace || ids.size === 0 ? Promise.resolve([]) : repo.existing(table, ids, columns);
  const teamsOf = new Map((dataset.events ?? []).map((e) => [e.id, [e.home_team_id, e.away_team_id]]));
  const missingEvents = new Set(eventIds.filter((id) => !teamsOf.has(id)));
  for (const row of await stored('events', missingEvents, ['home_team_id', 'away_team_id'])) teamsOf.set(Number(row.id), [Number(row.home_team_id), Number(row.away_team_id)]);

  const names = new Map<number, string[]>();
  for (const t of dataset.teams ?? []) names.set(t.id, [t.name, t.key, t.abbreviation ?? '']);
  const missingTeams = new Set(eventIds.flatMap((id) => teamsOf.get(id) ?? []).filter((id) => !names.has(id)));
  for (const row of await stored('teams', missingTeams, ['name', 'key', 'abbreviation'])) names.set(Number(row.id), [String(row.name), String(row.key), String(row.abbreviation ?? '')]);

  const byEvent = new Map<number, Set<string>>();
  for (const id of eventIds) {
    const all = (teamsOf.get(id) ?? []).flatMap((team) => names.get(team) ?? []);
    byEvent.set(id, new Set(all.filter((name) => name !== '').map((name) => name.toLowerCase())));
  }
  return byEvent;
}
