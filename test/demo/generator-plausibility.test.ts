import { describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/modules/demo/generator/catalog.js';
import { type DemoData, generateDemo } from '../../src/modules/demo/generator/index.js';
import type { Dataset } from '../../src/modules/import/index.js';
import {
  alternateProblems,
  bookMarkets,
  DAY_MS,
  type GameRecord,
  marginProblems,
  moneylineAgainstSpread,
  type PriceRecord,
  repeatedMatchups,
  startsOutside,
  statusesAgainstClock,
  teamsTwiceADay,
} from './plausibility.js';
import { generatorMoments } from '../helpers/demo-clock.js';

/**
 * The demo dataset as a sports person reads it (plausibility.ts), made at several hours of a day
 * and at several scales: a schedule in which no team plays twice a day, statuses that agree with
 * the clock it was made by, and books whose markets add up, before and after the price moves.
 * The generator is pure: these tests run once, not per dialect.
 */

type OddsRow = NonNullable<Dataset['odds']>[number];

const ZONE_OF_LEAGUE = new Map(LEAGUES.map((l) => [l.key, l.zone]));

/** The dataset's events and its odds after every move, as the API serves them once all are imported. */
function read(demo: DemoData) {
  const { dataset } = demo;
  const sportKey = new Map(dataset.sports.map((s) => [s.id, s.key]));
  const leagues = new Map(dataset.leagues.map((l) => [l.id, l]));
  const markets = new Map(dataset.betting_markets.map((m) => [m.id, m.key]));
  const games: GameRecord[] = dataset.events.map((e) => ({
    id: e.id,
    sport: sportKey.get(leagues.get(e.league_id)?.sport_id ?? 0) ?? '?',
    league: leagues.get(e.league_id)?.key ?? '?',
    start: Date.parse(e.start_time),
    status: e.status ?? 'scheduled',
    home: e.home_team_id,
    away: e.away_team_id,
    homeScore: e.home_score ?? null,
    awayScore: e.away_score ?? null,
  }));
  const current = new Map<number, OddsRow>(dataset.odds.map((o) => [o.id, o]));
  for (const move of demo.moves) for (const row of move.odds ?? []) current.set(row.id, row);
  const prices = (rows: Iterable<OddsRow>): PriceRecord[] =>
    [...rows].map((o) => ({
      event: o.event_id,
      operator: o.operator_id,
      market: markets.get(o.betting_market_id) ?? '?',
      position: o.position,
      line: o.line ?? null,
      price: o.price_decimal,
    }));
  const sportOfEvent = new Map(games.map((g) => [g.id, g.sport]));
  return {
    games,
    opening: bookMarkets(prices(dataset.odds)),
    current: bookMarkets(prices(current.values())),
    zoneOf: (league: string) => ZONE_OF_LEAGUE.get(league) ?? 'UTC',
    sportOf: (event: number) => sportOfEvent.get(event) ?? '?',
  };
}

const TWO_WAY_MARGIN = [0.03, 0.08] as const;
const THREE_WAY_MARGIN = [0.03, 0.1] as const;
const ALTERNATE_PRICES = [1.05, 12] as const;

// Also at the unusual days of a year (daylight-saving changes, 29 February, New Year's Eve), at a
// scale whose marquee games quote alternate lines on every day.
describe.each([
  { name: 'scale 1, mid-afternoon UTC', scale: 1, now: Date.parse('2030-03-14T15:09:26.535Z') },
  { name: 'scale 0.1, just after midnight UTC', scale: 0.1, now: Date.parse('2031-05-06T00:00:01Z') },
  { name: 'scale 0.1, just before midnight UTC', scale: 0.1, now: Date.parse('2031-10-26T23:59:59Z') },
  { name: 'scale 0.05, noon UTC', scale: 0.05, now: Date.parse('2031-07-01T12:00:00Z') },
  ...generatorMoments(0.1).map((m) => ({ ...m, name: `scale 0.1, ${m.name}` })),
])('the demo dataset at $name', ({ scale, now }) => {
  const demo = generateDemo({ now, scale });
  const data = read(demo);

  it('schedules no team twice a day (in UTC and where its league plays), nor one matchup twice a day', () => {
    expect(teamsTwiceADay(data.games, data.zoneOf).slice(0, 5)).toEqual([]);
    expect(repeatedMatchups(data.games).slice(0, 5)).toEqual([]);
  });

  it('starts games at local hours a league plays at: from 10:00 to 23:00 where it plays', () => {
    expect(startsOutside(data.games, data.zoneOf, 10, 23).slice(0, 5)).toEqual([]);
  });

  it('gives each event the status of the clock it was made by: past final with a score, in progress live, future scheduled', () => {
    expect(statusesAgainstClock(data.games, now).slice(0, 5)).toEqual([]);
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const before = data.games.filter((g) => g.start < today);
    expect(before.filter((g) => g.status === 'final').length).toBeGreaterThan(0.9 * before.length);
    expect(data.games.filter((g) => g.start > now).every((g) => g.status !== 'final')).toBe(true);
  });

  it('offers whole markets with a plausible margin, before and after the price moves', () => {
    expect(marginProblems(data.opening, TWO_WAY_MARGIN, THREE_WAY_MARGIN).slice(0, 5)).toEqual([]);
    expect(marginProblems(data.current, TWO_WAY_MARGIN, THREE_WAY_MARGIN).slice(0, 5)).toEqual([]);
  });

  it("prices each book's moneyline and spread from one view of the game", () => {
    expect(moneylineAgainstSpread(data.opening, data.sportOf).slice(0, 5)).toEqual([]);
    expect(moneylineAgainstSpread(data.current, data.sportOf).slice(0, 5)).toEqual([]);
  });

  it('quotes alternate lines in order and within reach', () => {
    expect(alternateProblems(data.opening, ALTERNATE_PRICES).slice(0, 5)).toEqual([]);
    expect(alternateProblems(data.current, ALTERNATE_PRICES).slice(0, 5)).toEqual([]);
  });

  it('tells trends only about events still to come, from games already played', () => {
    const startOf = new Map(data.games.map((g) => [g.id, g.start]));
    const today = new Date(now).toISOString().slice(0, 10);
    expect(demo.dataset.flows.filter((f) => (startOf.get(f.event_id) ?? 0) <= now).map((f) => f.id).slice(0, 5)).toEqual([]);
    // A trend told from the demo's own results may count a game that ended earlier today: none later.
    const future = demo.dataset.flows.filter((f) => (f.hit_history ?? []).some((game) => game.date > today));
    expect(future.map((f) => f.id).slice(0, 5)).toEqual([]);
  });
});
