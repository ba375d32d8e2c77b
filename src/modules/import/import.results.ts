import type { Problems } from './import.checks.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

/**
 * The results an event carries must fit its sport: each period score names a period of the
 * event's sport, each statistic a player and a statistic of that sport's vocabulary; a market
 * graded on a player's statistic names the statistic. Stored periods, players and statistics
 * count as the dataset's own do.
 */
export async function checkResults(
  dataset: Dataset,
  repo: ImportRepository,
  options: { replace: boolean },
  sportOfLeague: ReadonlyMap<number, number>,
  problems: Problems,
): Promise<void> {
  const events = dataset.events ?? [];
  (dataset.betting_markets ?? []).forEach((m, i) => {
    const settlement = m.settlement;
    if (settlement && (settlement.rule === 'player_stat' || (settlement.rule === 'yes_no' && m.entity_type === 'player')) && !settlement.stat) {
      problems.add(`betting_markets[${i}].settlement.stat`, 'required', `is required by the rule ${settlement.rule}`);
    }
  });
  const periodIds = events.flatMap((e) => (e.period_scores ?? []).map((p) => p.event_period_id));
  const playerIds = events.flatMap((e) => (e.statistics ?? []).map((s) => s.player_id));
  if (periodIds.length === 0 && playerIds.length === 0) return;

  const sportOfPeriod = new Map((dataset.event_periods ?? []).map((p) => [p.id, p.sport_id]));
  const missingPeriods = new Set(periodIds.filter((id) => !sportOfPeriod.has(id)));
  if (!options.replace && missingPeriods.size > 0) {
    for (const row of await repo.existing('event_periods', missingPeriods, ['sport_id'])) sportOfPeriod.set(Number(row.id), Number(row.sport_id));
  }
  const players = new Set((dataset.players ?? []).map((p) => p.id));
  const missingPlayers = new Set(playerIds.filter((id) => !players.has(id)));
  if (!options.replace && missingPlayers.size > 0) for (const row of await repo.existing('players', missingPlayers, [])) players.add(Number(row.id));
  const vocabulary = new Set((dataset.player_statistics ?? []).map((s) => `${s.sport_id}:${s.key}`));
  if (!options.replace) for (const row of await repo.playerStatistics()) vocabulary.add(`${row.sport_id}:${row.key}`);

  events.forEach((e, i) => {
    const sport = sportOfLeague.get(e.league_id);
    (e.period_scores ?? []).forEach((p, j) => {
      const periodSport = sportOfPeriod.get(p.event_period_id);
      const field = `events[${i}].period_scores[${j}].event_period_id`;
      if (periodSport === undefined) problems.add(field, 'reference', `names no event period (id ${p.event_period_id}) in the dataset or the database`);
      else if (periodSport !== sport) problems.add(field, 'same_sport', `names event period ${p.event_period_id} of another sport than the event's`);
    });
    (e.statistics ?? []).forEach((s, j) => {
      const at = `events[${i}].statistics[${j}]`;
      if (!players.has(s.player_id)) problems.add(`${at}.player_id`, 'reference', `names no player (id ${s.player_id}) in the dataset or the database`);
      if (!vocabulary.has(`${sport}:${s.statistic}`)) problems.add(`${at}.statistic`, 'reference', `"${s.statistic}" is no player statistic of the event's sport`);
    });
  });
}
