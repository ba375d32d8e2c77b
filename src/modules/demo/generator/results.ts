import type { Dataset } from '../../import/index.js';
import type { MarketDef } from './catalog.js';
import type { EventModel } from './events.js';
import type { Random } from './random.js';
import type { PlayerModel, SportModel } from './references.js';

/**
 * How the demo's games were played out: the score of each period and the statistics of the
 * players with props, for every final event; and how each market settles. Drawn from a random
 * stream of their own, so the rest of the dataset is what it was before results existed.
 */

type Records<A extends keyof Dataset> = NonNullable<Dataset[A]>;
type EventItem = Records<'events'>[number];
type Settlement = NonNullable<Records<'betting_markets'>[number]['settlement']>;

/** How each kind of market is graded; a market of every sport settles on the event's final score. */
export function settlementOf(def: MarketDef): Settlement {
  switch (def.kind) {
    case 'moneyline':
      return { rule: 'moneyline' };
    case 'three-way':
      return { rule: '1x2' };
    case 'spread':
      return { rule: 'spread' };
    case 'total':
      return { rule: 'total' };
    case 'team-total':
      return { rule: 'team_total' };
    case 'player-over-under':
      return { rule: 'player_stat', stat: def.statKey ?? null };
    case 'player-yes':
      return { rule: 'yes_no', stat: def.statKey ?? null };
    case 'event-yes-no':
      return { rule: 'yes_no', stat: 'both_teams_score' };
  }
}

/** The statistics the sports' player markets settle on, numbered in the order the markets name them. */
export function playerStatistics(sports: readonly SportModel[]): Records<'player_statistics'> {
  const records: Records<'player_statistics'> = [];
  for (const sport of sports) {
    const keys = new Set(sport.markets.flatMap((m) => (m.def.statKey === undefined ? [] : [m.def.statKey])));
    for (const key of keys) records.push({ id: records.length + 1, key, name: nameOf(key), sport_id: sport.id });
  }
  return records;
}

const nameOf = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');

/** A player with props sits a game out this often: the props on them are void. */
const DID_NOT_PLAY = 0.04;
/** A hockey game won by one goal went to overtime this often: regulation time ended level. */
const HOCKEY_OVERTIME = 0.35;

/** The event's results as the import takes them: period scores and statistics, for a final event. */
export function resultsOf(random: Random, event: EventModel, periodIds: ReadonlyMap<string, number>): Pick<EventItem, 'period_scores' | 'statistics'> {
  if (event.status !== 'final' || event.score === undefined) return {};
  const periods = periodScores(random, event, event.score);
  const period_scores = [...periods].flatMap(([key, score]) => {
    const id = periodIds.get(`${event.league.sport.id}:${key}`);
    return id === undefined ? [] : [{ event_period_id: id, home_score: score.home, away_score: score.away }];
  });
  return { period_scores, statistics: statisticsOf(random, event) };
}

type Score = { home: number; away: number };

/** Splits a side's score over `parts` periods at random, each point as likely in any of them. */
function split(random: Random, points: number, parts: number): number[] {
  const out = Array.from({ length: parts }, () => 0);
  for (let i = 0; i < points; i++) {
    const at = random.int(0, parts - 1);
    out[at] = (out[at] ?? 0) + 1;
  }
  return out;
}

const sumOf = (values: readonly number[], from: number, to: number) => values.slice(from, to).reduce((a, v) => a + v, 0);

function periodScores(random: Random, event: EventModel, score: Score): Map<string, Score> {
  const sport = event.league.sport.def.key;
  const periods = new Map<string, Score>();
  const byParts = (parts: number, regulation: Score = score) => ({ home: split(random, regulation.home, parts), away: split(random, regulation.away, parts) });
  const at = (parts: { home: number[]; away: number[] }, from: number, to: number): Score => ({ home: sumOf(parts.home, from, to), away: sumOf(parts.away, from, to) });
  switch (sport) {
    case 'soccer': {
      const halves = byParts(2);
      periods.set('full-time', score).set('1st-half', at(halves, 0, 1)).set('2nd-half', at(halves, 1, 2));
      break;
    }
    case 'basketball':
    case 'american-football': {
      const quarters = byParts(4);
      periods.set('full-game', score).set('1st-half', at(quarters, 0, 2)).set('2nd-half', at(quarters, 2, 4));
      ['1st-quarter', '2nd-quarter', '3rd-quarter', '4th-quarter'].forEach((key, i) => periods.set(key, at(quarters, i, i + 1)));
      break;
    }
    case 'baseball': {
      const innings = byParts(9);
      periods.set('full-game', score).set('first-5-innings', at(innings, 0, 5)).set('1st-inning', at(innings, 0, 1));
      break;
    }
    case 'ice-hockey': {
      // A one-goal win was sometimes level after sixty minutes: the winner's last goal came in overtime.
      const level = Math.abs(score.home - score.away) === 1 && random.chance(HOCKEY_OVERTIME);
      const low = Math.min(score.home, score.away);
      const regulation = level ? { home: low, away: low } : score;
      const thirds = byParts(3, regulation);
      periods.set('full-game', score).set('regulation', regulation);
      ['1st-period', '2nd-period', '3rd-period'].forEach((key, i) => periods.set(key, at(thirds, i, i + 1)));
      break;
    }
    default:
      periods.set('match', score);
  }
  return periods;
}

/** A count around `mean` (Poisson for small means, about normal for large ones), never below 0. */
function countAround(random: Random, mean: number): number {
  if (mean >= 15) return Math.max(0, Math.round(mean + random.normal() * 0.3 * mean));
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = random.next(); p > limit; p *= random.next()) k++;
  return k;
}

/**
 * The statistics of the players the event's props are on: each records the statistic of every
 * prop on them (the over/under's around its mean, a scorer's as a count from their chance). A
 * player who sat out has none.
 */
function statisticsOf(random: Random, event: EventModel): NonNullable<EventItem['statistics']> {
  const values = new Map<PlayerModel, Map<string, number>>();
  const set = (player: PlayerModel, key: string | undefined, value: number) => {
    if (key === undefined) return;
    const own = values.get(player) ?? new Map<string, number>();
    values.set(player, own);
    if (!own.has(key)) own.set(key, value);
  };
  for (const { market, player, mean } of event.props.stats) set(player, market.def.statKey, countAround(random, mean));
  for (const { market, player, p } of event.props.yes) set(player, market.def.statKey, random.chance(p) ? countAround(random, 0.2) + 1 : 0);
  const played = [...values].filter(() => !random.chance(DID_NOT_PLAY));
  return played.flatMap(([player, stats]) => [...stats].map(([statistic, value]) => ({ player_id: player.id, statistic, value })));
}
