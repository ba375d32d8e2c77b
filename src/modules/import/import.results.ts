import { EVENT_COUNTS } from '../../shared/settlement/grading.js';
import { EVENT_PERIOD } from '../results/index.js';
import type { Problems } from './import.checks.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

/**
 * The results an event carries must fit its sport: each period score names a period of the
 * event's sport, each statistic a player of that sport and a statistic of its vocabulary. A
 * market's settlement must name what results hold: its statistic a player statistic of the
 * market's sport (of some sport, for a market of every sport) or an event count, its period an
 * event period of that sport; a market settling on a name nothing holds would be graded
 * `missing_stat` or `missing_period` for ever. Stored periods, players and statistics count as the
 * dataset's own do.
 */
export async function checkResults(
  dataset: Dataset,
  repo: ImportRepository,
  options: { replace: boolean },
  sportOfLeague: ReadonlyMap<number, number>,
  problems: Problems,
): Promise<void> {
  const events = dataset.events ?? [];
  const markets = dataset.betting_markets ?? [];
  const periodIds = events.flatMap((e) => (e.period_scores ?? []).map((p) => p.event_period_id));
  const playerIds = events.flatMap((e) => (e.statistics ?? []).map((s) => s.player_id));
  const noStatistics = playerIds.length === 0 && !markets.some((m) => m.settlement?.stat);
  const statistics = noStatistics ? NO_KEYS : await vocabulary(dataset.player_statistics ?? [], 'player_statistics', repo, options);

  markets.forEach((m, i) => {
    const settlement = m.settlement;
    if (!settlement) return;
    const field = `betting_markets[${i}].settlement.stat`;
    if ((settlement.rule === 'player_stat' || (settlement.rule === 'yes_no' && m.entity_type === 'player')) && !settlement.stat) {
      problems.add(field, 'required', `is required by the rule ${settlement.rule}`);
    }
    const stat = settlement.stat;
    const eventCount = settlement.rule === 'yes_no' && m.entity_type !== 'player';
    if (!stat || statistics.has(m.sport_id, stat) || (eventCount && EVENT_COUNTS.includes(stat))) return;
    const countsToo = eventCount ? ` nor an event count (${EVENT_COUNTS.join(', ')})` : '';
    problems.add(field, 'reference', `"${stat}" is no player statistic ${ofSportOf(m)}${countsToo}`);
  });
  if (markets.some((m) => m.settlement?.period)) {
    const periods = await vocabulary(dataset.event_periods ?? [], 'event_periods', repo, options);
    markets.forEach((m, i) => {
      const period = m.settlement?.period;
      if (!period || period === EVENT_PERIOD || periods.has(m.sport_id, period)) return;
      problems.add(`betting_markets[${i}].settlement.period`, 'reference', `"${period}" is no event period ${ofSportOf(m)}`);
    });
  }
  if (periodIds.length === 0 && playerIds.length === 0) return;

  const sportOfPeriod = new Map((dataset.event_periods ?? []).map((p) => [p.id, p.sport_id]));
  const missingPeriods = new Set(periodIds.filter((id) => !sportOfPeriod.has(id)));
  if (!options.replace && missingPeriods.size > 0) {
    for (const row of await repo.existing('event_periods', missingPeriods, ['sport_id'])) sportOfPeriod.set(Number(row.id), Number(row.sport_id));
  }
  const sportOfPlayer = await sportsOfPlayers(dataset, playerIds, repo, options, sportOfLeague);

  events.forEach((e, i) => {
    const sport = sportOfLeague.get(e.league_id);
    const periodsSeen = new Map<number, number>();
    (e.period_scores ?? []).forEach((p, j) => {
      const periodSport = sportOfPeriod.get(p.event_period_id);
      const field = `events[${i}].period_scores[${j}].event_period_id`;
      const earlier = periodsSeen.get(p.event_period_id);
      periodsSeen.set(p.event_period_id, earlier ?? j);
      if (earlier !== undefined) problems.add(field, 'unique', `repeats event period ${p.event_period_id} of period_scores[${earlier}]: a period has one score`);
      else if (periodSport === undefined) problems.add(field, 'reference', `names no event period (id ${p.event_period_id}) in the dataset or the database`);
      else if (periodSport !== sport) problems.add(field, 'same_sport', `names event period ${p.event_period_id} of another sport than the event's`);
    });
    const statisticsSeen = new Map<string, number>();
    (e.statistics ?? []).forEach((s, j) => {
      const at = `events[${i}].statistics[${j}]`;
      const playerSport = sportOfPlayer.get(s.player_id);
      if (playerSport === undefined) problems.add(`${at}.player_id`, 'reference', `names no player (id ${s.player_id}) in the dataset or the database`);
      else if (playerSport !== null && playerSport !== sport) problems.add(`${at}.player_id`, 'same_sport', `names player ${s.player_id}, of another sport than the event's`);
      const key = `${s.player_id}:${s.statistic}`;
      const earlier = statisticsSeen.get(key);
      statisticsSeen.set(key, earlier ?? j);
      if (earlier !== undefined) problems.add(`${at}.statistic`, 'unique', `repeats "${s.statistic}" of player ${s.player_id} from statistics[${earlier}]: a player has one figure of each`);
      else if (sport === undefined || !statistics.has(sport, s.statistic)) problems.add(`${at}.statistic`, 'reference', `"${s.statistic}" is no player statistic of the event's sport`);
    });
  });
}

interface Vocabulary {
  /** Whether a sport has the key; any sport, for a market of every sport (no sport_id). */
  has(sportId: number | null | undefined, key: string): boolean;
}

const NO_KEYS: Vocabulary = { has: () => false };

const ofSportOf = (market: { sport_id?: number | null }) => (market.sport_id === null || market.sport_id === undefined ? 'of any sport' : "of the market's sport");

/** A vocabulary of keys by sport: the dataset's records, and the stored ones unless the import replaces everything. */
async function vocabulary(
  own: ReadonlyArray<{ sport_id: number; key: string }>,
  table: 'player_statistics' | 'event_periods',
  repo: ImportRepository,
  options: { replace: boolean },
): Promise<Vocabulary> {
  const sportsOfKey = new Map<string, Set<number>>();
  const add = (row: { sport_id: number; key: string }) => sportsOfKey.set(row.key, (sportsOfKey.get(row.key) ?? new Set()).add(row.sport_id));
  own.forEach(add);
  if (!options.replace) (await repo.keysBySport(table)).forEach(add);
  return {
    has: (sportId, key) => {
      const sports = sportsOfKey.get(key);
      return sports !== undefined && (sportId === null || sportId === undefined || sports.has(sportId));
    },
  };
}

/** The sport of each player of `playerIds`: the league of their team, of the dataset first, then stored. */
async function sportsOfPlayers(
  dataset: Dataset,
  playerIds: readonly number[],
  repo: ImportRepository,
  options: { replace: boolean },
  sportOfLeague: ReadonlyMap<number, number>,
): Promise<Map<number, number | null>> {
  /** `own` completed with the stored rows among `wanted`, each mapped to its `column`. */
  const completed = async (table: 'players' | 'teams' | 'leagues', own: Map<number, number>, wanted: Iterable<number>, column: string) => {
    const missing = new Set([...wanted].filter((id) => !own.has(id)));
    if (!options.replace && missing.size > 0) for (const row of await repo.existing(table, missing, [column])) own.set(Number(row.id), Number(row[column]));
    return own;
  };
  const teamOfPlayer = await completed('players', new Map((dataset.players ?? []).map((p) => [p.id, p.team_id])), playerIds, 'team_id');
  const leagueOfTeam = await completed('teams', new Map((dataset.teams ?? []).map((t) => [t.id, t.league_id])), teamOfPlayer.values(), 'league_id');
  const sports = await completed('leagues', new Map(sportOfLeague), leagueOfTeam.values(), 'sport_id');
  // null: a player whose team or league is missing, which the reference checks of the players and teams report.
  const sportOfPlayer = new Map<number, number | null>();
  for (const id of playerIds) {
    const team = teamOfPlayer.get(id);
    if (team === undefined) continue;
    const league = leagueOfTeam.get(team);
    sportOfPlayer.set(id, (league === undefined ? undefined : sports.get(league)) ?? null);
  }
  return sportOfPlayer;
}
