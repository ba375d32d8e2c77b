import type { EventModel } from './events.js';
import type { Selection } from './offers.js';
import type { TeamModel } from './references.js';

/**
 * The sentences of flows, e.g. "Boston Celtics have covered the spread in 8 of their last 10
 * road games". A fact is a recent trend, a fun flow a quirky angle on it, a plain flow a
 * season record.
 */

export type FlowType = 'fact' | 'fun' | 'plain';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SCORE_NOUN: Record<string, string> = {
  soccer: 'goals',
  basketball: 'points',
  'american-football': 'points',
  baseball: 'runs',
  'ice-hockey': 'goals',
  tennis: 'games',
};
const SPREAD_NOUN: Record<string, string> = {
  soccer: 'the handicap',
  baseball: 'the run line',
  'ice-hockey': 'the puck line',
  tennis: 'the games handicap',
};

export function describeSingle(type: FlowType, s: Selection, event: EventModel, hits: number, total: number): string {
  const { league } = event;
  const sport = league.sport.def;
  const unit = sport.unit;
  const weekday = WEEKDAYS[new Date(event.start).getUTCDay()] ?? 'Sunday';
  const his = league.def.female ? 'her' : 'his';
  const record = `${hits}-${total - hits}`;
  const line = s.line === null ? '' : String(Math.abs(s.line));
  const split = s.split ?? 'over';
  const kind = s.market.def.kind;

  if (s.focus.type === 'player') {
    const player = s.focus.player;
    const opponent = player.team.id === event.home.id ? event.away : event.home;
    const stat = s.market.def.stat ?? 'points';
    if (kind === 'player-yes') {
      if (type === 'fact') return `${player.name} has ${stat} in ${hits} of ${his} last ${total} ${unit}`;
      if (type === 'fun') return `${player.name} has ${stat} in ${hits} of ${his} last ${total} ${unit} against ${opponent.name}`;
      return `${player.name} has ${stat} in ${hits} of ${total} ${unit} this season`;
    }
    if (type === 'fact') return `${player.name} has recorded ${split} ${line} ${stat} in ${hits} of ${his} last ${total} ${unit}`;
    if (type === 'fun') return `${player.name} has gone ${split} ${line} ${stat} in ${hits} of ${his} last ${total} ${unit} against ${opponent.name}`;
    return `${player.name}: ${split} ${line} ${stat} in ${hits} of ${total} ${unit} this season`;
  }

  if (s.focus.type === 'team') {
    const team = s.focus.team;
    const { subject, have, their } = teamWords(team, sport.individual);
    const venue = sport.individual ? '' : team.id === event.home.id ? 'home ' : sport.key === 'soccer' ? 'away ' : 'road ';
    if (kind === 'spread') {
      const spread = SPREAD_NOUN[sport.key] ?? 'the spread';
      if (type === 'fact') return `${subject} ${have} covered ${spread} in ${hits} of ${their} last ${total} ${venue}${unit}`;
      if (type === 'fun') return `${subject} ${have} covered ${spread} in ${hits} of ${their} last ${total} ${unit} after a loss`;
      return `${subject}: ${record} against ${spread} this season`;
    }
    if (kind === 'team-total') {
      const noun = SCORE_NOUN[sport.key] ?? 'points';
      if (type === 'fact') return `${subject} ${have} gone ${split} ${line} ${noun} in ${hits} of ${their} last ${total} ${venue}${unit}`;
      if (type === 'fun') return `${subject} ${have} scored ${split} ${line} ${noun} in ${hits} of ${their} last ${total} ${weekday} ${unit}`;
      return `${subject}: ${split} ${line} team ${noun} in ${hits} of ${total} ${unit} this season`;
    }
    if (type === 'fact') return `${subject} ${have} won ${hits} of ${their} last ${total} ${venue}${unit}`;
    if (type === 'fun') return `${subject} ${have} won ${hits} of ${their} last ${total} ${unit} played on a ${weekday}`;
    return `${subject}: ${record} this season`;
  }

  const home = event.home.name;
  const matchup = sport.individual ? `${home} and ${event.away.name}` : home;
  if (kind === 'three-way') {
    if (type === 'plain') return `${home}: ${hits} draws in ${total} ${unit} this season`;
    return `${hits} of the last ${total} meetings between ${home} and ${event.away.name} ended in a draw`;
  }
  if (kind === 'event-yes-no') {
    const both = s.position === 'yes' ? 'both teams have scored' : 'at least one team failed to score';
    if (type === 'plain') return `${home} ${unit}: ${both} in ${hits} of ${total} this season`;
    return `${capitalize(both)} in ${hits} of ${home}'s last ${total} ${type === 'fun' ? `${weekday} ` : ''}${unit}`;
  }
  if (type === 'fact') return `The total has gone ${split} ${line} in ${hits} of the last ${total} ${unit} involving ${matchup}`;
  if (type === 'fun') return `The ${split} ${line} has hit in ${hits} of ${home}'s last ${total} ${weekday} ${unit}`;
  return `${home} ${unit}: ${split} ${line} in ${hits} of ${total} this season`;
}

/** "Celtics moneyline", "Tatum over 26.5 points": how a leg reads inside a parlay's sentence. */
export function legLabel(s: Selection): string {
  const line = s.line === null ? '' : ` ${s.line > 0 && s.market.def.kind === 'spread' ? '+' : ''}${s.line}`;
  if (s.focus.type === 'player') {
    const stat = s.market.def.stat ?? '';
    return s.market.def.kind === 'player-yes' ? `${s.focus.player.name} ${stat}` : `${s.focus.player.name} ${s.split ?? 'over'} ${s.line ?? ''} ${stat}`;
  }
  if (s.focus.type === 'team') {
    if (s.market.def.kind === 'team-total') return `${s.focus.team.name} ${s.split ?? 'over'} ${s.line ?? ''}`;
    return s.market.def.kind === 'spread' ? `${s.focus.team.name}${line}` : `${s.focus.team.name} to win`;
  }
  if (s.position === 'draw') return 'the draw';
  if (s.position === 'yes' || s.position === 'no') return `both teams to score: ${s.position}`;
  return `${capitalize(s.split ?? 'over')} ${s.line ?? ''}`;
}

function teamWords(team: TeamModel, individual: boolean) {
  if (individual) return { subject: team.name, have: 'has', their: team.league.def.female ? 'her' : 'his' };
  return { subject: team.name, have: 'have', their: 'their' };
}

const capitalize = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
