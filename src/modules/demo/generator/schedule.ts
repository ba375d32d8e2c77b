import { dayRange } from '../../events/index.js';
import type { Matchup } from './offers.js';
import type { Random } from './random.js';
import type { LeagueModel, TeamModel, World } from './references.js';
import { DAY_MS, HOUR_MS } from '../../../platform/time.js';

/**
 * The fixtures of every league over a run of days, as a league's schedule reads: its games on the
 * weekdays it plays, at its usual local kick-off times, each side at most once a day (in UTC and
 * where the league plays) and rested between games, so no matchup repeats on a day.
 */

export interface Fixture extends Matchup {
  /** Epoch ms. */
  start: number;
}

/** Two sides that have just met are paired again only when no other pairing is left. */
const REMATCH_AFTER_MS = 7 * DAY_MS;

/** Where a side stands while its league's days are scheduled. */
interface SideLog {
  team: TeamModel;
  starts: number[];
  localDays: Set<string>;
  utcDays: Set<string>;
  homeGames: number;
  lastMet: Map<number, number>;
}

/** The fixtures whose start falls in [from, from + days × 24 h), by start time, then league. */
export function buildSchedule(random: Random, world: World, from: number, days: number): Fixture[] {
  const end = from + days * DAY_MS;
  const fixtures = world.leagues.filter((l) => l.teams.length >= 2).flatMap((league) => scheduleLeague(random, league, from, end));
  return fixtures.sort((a, b) => a.start - b.start || a.league.id - b.league.id || a.home.id - b.home.id);
}

function scheduleLeague(random: Random, league: LeagueModel, from: number, end: number): Fixture[] {
  const { def } = league;
  const sport = league.sport.def;
  const logs = league.teams.map((team): SideLog => ({ team, starts: [], localDays: new Set(), utcDays: new Set(), homeGames: 0, lastMet: new Map() }));
  const week = def.weekdays.reduce((a, w) => a + w, 0);
  const fixtures: Fixture[] = [];
  // Games owed: a day's share of the league's week accumulates, and whole games are played.
  let owed = 0.5;
  const midnightAfter = localMidnights(def.zone, from - DAY_MS, end);
  // Local dates from the day before the first UTC day (the Americas' evenings fall on the next UTC day).
  for (let day = from - DAY_MS; day < end; day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    const weight = def.weekdays[new Date(day).getUTCDay()] ?? 0;
    if (weight === 0) continue;
    owed += ((logs.length * sport.gamesPerWeek) / 2) * (weight / week);
    const nextMidnight = midnightAfter(date);
    const wanted = Math.floor(owed);
    // The day's order of the sides, so that equal claims to a game are settled by chance.
    const order = wanted > 0 ? random.sample(logs, logs.length) : [];
    for (let n = 0; n < wanted; n++) {
      // Counted back from the next local midnight, so that a clock change in the small hours moves no game.
      const start = Math.round((nextMidnight - (24 - random.pick(def.slots)) * HOUR_MS) / 60_000) * 60_000;
      const pair = pairFor(order, start, date, sport.restHours * HOUR_MS);
      if (pair === undefined) continue;
      owed--;
      const [home, away] = pair;
      for (const [side, other] of [[home, away], [away, home]] as const) {
        side.starts.push(start);
        side.localDays.add(date);
        side.utcDays.add(utcDate(start));
        side.lastMet.set(other.team.id, start);
      }
      home.homeGames++;
      if (start >= from && start < end) fixtures.push({ league, home: home.team, away: away.team, start });
    }
    // A game that found no free pair today moves to the next playing day, but a round is not moved wholesale.
    owed = Math.min(owed, 1);
  }
  return fixtures;
}

const utcDate = (instant: number) => new Date(instant).toISOString().slice(0, 10);

/**
 * The instant a local date ends in `zone` (its next midnight), for the dates from `first` to
 * `last` (each given as its 00:00 UTC). The leagues' zones change their offset twice a year at
 * most: when it is the same at both ends of a few weeks, the dates between share it and need no
 * time-zone lookup of their own.
 */
function localMidnights(zone: string, first: number, last: number): (date: string) => number {
  const offsetOf = (day: number) => {
    const date = utcDate(day);
    return Date.parse(`${date}T00:00:00Z`) + DAY_MS - dayRange(date, zone).end;
  };
  const offset = offsetOf(first);
  const constant = offset === offsetOf(last);
  return (date) => (constant ? Date.parse(`${date}T00:00:00Z`) + DAY_MS - offset : dayRange(date, zone).end);
}

/**
 * Two sides free to play at `start`: neither plays that day (local or UTC) nor within its rest;
 * those with fewer games first (in the order given among equals), then a side not met lately. The
 * side with fewer home games hosts.
 */
function pairFor(logs: readonly SideLog[], start: number, date: string, rest: number): [SideLog, SideLog] | undefined {
  const utc = utcDate(start);
  const free = logs
    .filter((log) => !log.localDays.has(date) && !log.utcDays.has(utc) && log.starts.every((s) => Math.abs(s - start) >= rest))
    .sort((a, b) => a.starts.length - b.starts.length);
  const [first, ...others] = free;
  if (first === undefined) return undefined;
  const second = others.find((o) => start - (first.lastMet.get(o.team.id) ?? -Infinity) >= REMATCH_AFTER_MS) ?? others[0];
  if (second === undefined) return undefined;
  return first.homeGames <= second.homeGames ? [first, second] : [second, first];
}
