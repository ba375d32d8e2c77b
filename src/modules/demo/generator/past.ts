import type { Dataset } from '../../import/index.js';
import { type EventModel, selectionsOf } from './events.js';
import { buildOdds } from './odds.js';
import type { Random } from './random.js';
import type { LeagueModel, World } from './references.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../platform/time.js';

/**
 * The demo's past: finished events on the 14 UTC days before today, with scores, priced before
 * kick-off, and the price moves that make their history (docs/data.md#the-demo-dataset). Made
 * from a random stream of its own, after the upcoming part, so that adding it left the upcoming
 * events, odds and flows exactly as they were.
 */

type OddsItem = NonNullable<Dataset['odds']>[number];

/** Scale 1: 300 past events priced by 10,000 odds rows. */
export const PAST_SCALE_1 = { events: 300, odds: 10_000 } as const;
export const PAST_DAYS = 14;

/** Opening prices two days before kick-off; moves a day before and an hour before (the closing line). */
const OPENS_BEFORE_MS = 48 * HOUR_MS;
const MOVES_BEFORE_MS = [24 * HOUR_MS, HOUR_MS] as const;
/** Every tenth upcoming odds row has moved once, at the time the dataset was made. */
const UPCOMING_MOVE_EVERY = 10;

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * `count` finished events (at least one per league, yesterday: every league has a past, so the
 * examples of the historical endpoints hold at any scale), ids from `firstId` on.
 */
export function buildPastEvents(random: Random, world: World, count: number, now: number, firstId: number): EventModel[] {
  const leagues = world.leagues.filter((l) => l.teams.length >= 2);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const events: EventModel[] = [];
  const add = (league: LeagueModel, day: number) => {
    const home = random.pick(league.teams);
    let away = random.pick(league.teams);
    while (away === home) away = random.pick(league.teams);
    const start = today - day * DAY_MS + Math.round(random.pick(league.def.slots) * 60) * MINUTE_MS;
    const roll = random.next();
    const status = roll < 0.02 ? 'postponed' : roll < 0.04 ? 'cancelled' : 'final';
    const event: EventModel = { id: firstId + events.length, league, home, away, start, status, selections: [] };
    event.selections = selectionsOf(random, event);
    if (status === 'final') event.score = scoreOf(random, event);
    events.push(event);
  };
  for (const league of leagues) add(league, 1);
  while (events.length < count) add(random.weighted(leagues, (l) => l.teams.length), random.int(1, PAST_DAYS));
  return events;
}

/** A plausible final score from the teams' ratings and the sport's usual total. */
function scoreOf(random: Random, event: EventModel): { home: number; away: number } {
  const def = event.league.sport.def;
  const diff = event.home.rating - event.away.rating + (def.individual ? 0 : 0.25);
  if (def.individual) {
    // Tennis: sets, best of three.
    const loser = random.int(0, 1);
    return random.chance(logistic(1.1 * diff)) ? { home: 2, away: loser } : { home: loser, away: 2 };
  }
  const [mean, sd] = def.total;
  // Low-scoring sports vary about as a Poisson count does; high-scoring ones by their own spread.
  const spread = Math.max(sd / 2, Math.sqrt(mean / 2));
  const side = (sign: number) => Math.max(0, Math.round(mean / 2 + (sign * diff * def.margin) / 2 + random.normal() * spread));
  return { home: side(1), away: side(-1) };
}

/** The past events' odds rows: opened two days before kick-off, ids from `firstId` on. */
export function buildPastOdds(random: Random, world: World, events: readonly EventModel[], total: number, now: number, firstId: number): OddsItem[] {
  const startOf = new Map(events.map((e) => [e.id, e.start]));
  return buildOdds(random, world, events, total, now).map((row) => ({
    ...row,
    id: firstId + row.id - 1,
    updated_at: new Date((startOf.get(row.event_id) ?? now) - OPENS_BEFORE_MS).toISOString(),
  }));
}

/**
 * The price moves, one dataset of odds per import (an import records one change per row): the
 * past odds move a day before kick-off and an hour before it, most of them in price, a few in
 * status; every tenth upcoming row has moved once, at `now`.
 */
export function buildMoves(random: Random, past: readonly OddsItem[], pastEvents: readonly EventModel[], upcoming: readonly OddsItem[], now: number): Dataset[] {
  const startOf = new Map(pastEvents.map((e) => [e.id, e.start]));
  let current: OddsItem[] = [...past];
  const moves = MOVES_BEFORE_MS.map((before) => {
    current = current.map((row) => moved(random, row, new Date((startOf.get(row.event_id) ?? now) - before).toISOString()));
    return { odds: current };
  });
  const at = new Date(now).toISOString();
  const upcomingMoves = upcoming.filter((row) => row.id % UPCOMING_MOVE_EVERY === 0).map((row) => moved(random, row, at, true));
  const [first, ...rest] = moves;
  return [{ odds: [...(first?.odds ?? []), ...upcomingMoves] }, ...rest];
}

/** The row as it stands after a move: three in four change price, one in fifty changes status. */
function moved(random: Random, row: OddsItem, at: string, always = false): OddsItem {
  const reprice = always || random.chance(0.75);
  let price = row.price_decimal;
  if (reprice) {
    price = Math.max(1.01, Math.round(row.price_decimal * (1 + random.normal() * 0.04) * 100) / 100);
    // A move is a change: a price rounded back to itself moves by a cent.
    if (price === row.price_decimal) price = Math.round((price + 0.01) * 100) / 100;
  }
  const status = random.chance(0.02) ? (row.status === 'suspended' ? 'open' : 'suspended') : row.status;
  return { ...row, price_decimal: price, status, updated_at: at };
}
