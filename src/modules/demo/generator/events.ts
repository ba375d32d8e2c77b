import type { EventStatus } from '../../../shared/event-status.js';
import type { MarketDef } from './catalog.js';
import type { Random } from './random.js';
import type { LeagueModel, MarketModel, PlayerModel, TeamModel, World } from './references.js';
import { DAY_MS, MINUTE_MS } from '../../../platform/time.js';

/**
 * Events on 14 UTC days from today and what can be bet on them: every event carries its
 * selections (market, position, line, fair probability) from which the odds rows of each
 * operator and the flows are made.
 */

/** Days of events: today (UTC) and the 13 after it. */
export const HORIZON_DAYS = 14;

export type Focus = { type: 'team'; team: TeamModel } | { type: 'player'; player: PlayerModel } | { type: 'event' };

export interface Selection {
  market: MarketModel;
  position: string;
  line: number | null;
  split: 'over' | 'under' | null;
  /** Fair probability, before the operator's margin. */
  p: number;
  focus: Focus;
}

export interface EventModel {
  id: number;
  league: LeagueModel;
  home: TeamModel;
  away: TeamModel;
  start: number;
  status: EventStatus;
  /** The final score of a finished event (past.ts); absent for the others. */
  score?: { home: number; away: number };
  /** Main markets first, then team and player props, then alternate lines. */
  selections: Selection[];
}

export function buildEvents(random: Random, world: World, count: number, now: number): EventModel[] {
  const leagues = world.leagues.filter((l) => l.teams.length >= 2);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const events: EventModel[] = [];
  for (let id = 1; id <= count; id++) {
    // Bigger leagues play more: weight by the number of teams.
    const league = random.weighted(leagues, (l) => l.teams.length);
    const home = random.pick(league.teams);
    let away = random.pick(league.teams);
    while (away === home) away = random.pick(league.teams);
    // Fourteen whole UTC days from the start of today, earlier today included: every day of the
    // dataset, today first, has events in all its leagues' slots, whatever the hour it was made
    // (an example of /docs asking for today's events must never come back empty).
    const slot = random.pick(league.def.slots);
    const start = today + random.int(0, HORIZON_DAYS - 1) * DAY_MS + Math.round(slot * 60) * MINUTE_MS;
    const event: EventModel = { id, league, home, away, start, status: random.chance(0.01) ? 'postponed' : 'scheduled', selections: [] };
    event.selections = selectionsOf(random, event);
    events.push(event);
  }
  return events;
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const clamp = (x: number, min: number, max: number) => Math.min(max, Math.max(min, x));
/** A line that ends in .5, so that no bet pushes. */
const halfPoint = (x: number) => Math.floor(x) + 0.5;

export function selectionsOf(random: Random, event: EventModel): Selection[] {
  const { sport } = event.league;
  const def = sport.def;
  const market = (kind: MarketDef['kind']) => sport.markets.filter((m) => m.def.kind === kind);
  const noise = (sd: number) => random.normal() * sd;
  const diff = event.home.rating - event.away.rating + (def.individual ? 0 : 0.25);
  const main: Selection[] = [];
  // Props stay in groups (both sides of one line) when they are shuffled.
  const props: Selection[][] = [];
  const alternates: Selection[] = [];
  const team = (t: TeamModel): Focus => ({ type: 'team', team: t });
  const eventFocus: Focus = { type: 'event' };

  const pHome = logistic(1.1 * diff);
  for (const m of market('three-way')) {
    const draw = clamp(0.28 - 0.06 * Math.abs(diff), 0.15, 0.3);
    main.push(
      { market: m, position: 'home', line: null, split: null, p: (1 - draw) * pHome, focus: team(event.home) },
      { market: m, position: 'draw', line: null, split: null, p: draw, focus: eventFocus },
      { market: m, position: 'away', line: null, split: null, p: (1 - draw) * (1 - pHome), focus: team(event.away) },
    );
  }
  if (!def.draws) {
    for (const m of market('moneyline')) {
      main.push(
        { market: m, position: 'home', line: null, split: null, p: pHome, focus: team(event.home) },
        { market: m, position: 'away', line: null, split: null, p: 1 - pHome, focus: team(event.away) },
      );
    }
  }
  const expectedMargin = diff * def.margin;
  // Run and puck lines are ±1.5; other sports hang the line at the expected margin.
  const spread = def.spreadStep >= 1.5 ? (expectedMargin >= 0 ? -1.5 : 1.5) : -halfPoint(expectedMargin);
  for (const m of market('spread')) {
    const p = clamp(0.5 + noise(0.03), 0.4, 0.6);
    main.push(
      { market: m, position: 'home', line: spread, split: null, p, focus: team(event.home) },
      { market: m, position: 'away', line: -spread, split: null, p: 1 - p, focus: team(event.away) },
    );
  }
  const [mean, sd] = def.total;
  const total = halfPoint(mean + noise(sd / 2));
  const totals = sport.markets.filter((m) => m.def.kind === 'total' && (m.def.sport !== null || !sport.markets.some((o) => o.def.kind === 'total' && o.def.sport !== null)));
  for (const m of totals) {
    const p = clamp(0.5 + noise(0.03), 0.4, 0.6);
    main.push(
      { market: m, position: 'over', line: total, split: 'over', p, focus: eventFocus },
      { market: m, position: 'under', line: total, split: 'under', p: 1 - p, focus: eventFocus },
    );
    for (const shift of [-1, 1]) {
      const line = total + shift * Math.max(1, Math.round(sd / 2));
      const pOver = clamp(p - shift * 0.12, 0.15, 0.85);
      alternates.push(
        { market: m, position: 'over', line, split: 'over', p: pOver, focus: eventFocus },
        { market: m, position: 'under', line, split: 'under', p: 1 - pOver, focus: eventFocus },
      );
    }
  }
  for (const m of market('event-yes-no')) {
    const p = clamp(0.52 + noise(0.08), 0.3, 0.75);
    props.push([
      { market: m, position: 'yes', line: null, split: null, p, focus: eventFocus },
      { market: m, position: 'no', line: null, split: null, p: 1 - p, focus: eventFocus },
    ]);
  }
  if (!def.individual) {
    for (const m of market('team-total')) {
      for (const [side, rating] of [[event.home, diff], [event.away, -diff]] as const) {
        const line = halfPoint(total / 2 + (rating * def.margin) / 2 - 0.5);
        const p = clamp(0.5 + noise(0.03), 0.4, 0.6);
        props.push([
          { market: m, position: `${side.name} over`, line, split: 'over', p, focus: team(side) },
          { market: m, position: `${side.name} under`, line, split: 'under', p: 1 - p, focus: team(side) },
        ]);
      }
    }
  }
  for (const m of [...market('player-over-under'), ...market('player-yes')]) {
    const allowed = m.def.positions;
    const candidates = [...event.home.players, ...event.away.players].filter((p) => !allowed || (p.position !== null && allowed.includes(p.position)));
    for (const player of random.sample(candidates, 2)) {
      const focus: Focus = { type: 'player', player };
      if (m.def.kind === 'player-yes') {
        props.push([{ market: m, position: player.name, line: null, split: null, p: clamp(0.3 + noise(0.1), 0.08, 0.6), focus }]);
        continue;
      }
      const base = m.def.line ?? 0.5;
      const line = Math.max(0.5, halfPoint(base + noise(base / 5)));
      const p = clamp(0.5 + noise(0.04), 0.38, 0.62);
      props.push([
        { market: m, position: `${player.name} over`, line, split: 'over', p, focus },
        { market: m, position: `${player.name} under`, line, split: 'under', p: 1 - p, focus },
      ]);
    }
  }
  return [...main, ...random.sample(props, props.length).flat(), ...alternates];
}
