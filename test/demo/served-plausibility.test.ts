import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/modules/demo/generator/catalog.js';
import { demoCases } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import type { Caller, Harness } from '../helpers/harness.js';
import { allPages as all } from '../helpers/responses.js';
import {
  alternateProblems,
  type BookMarket,
  bookMarkets,
  DAY_MS,
  type GameRecord,
  marginProblems,
  moneylineAgainstSpread,
  repeatedMatchups,
  statusesAgainstClock,
  teamsTwiceADay,
} from './plausibility.js';

/**
 * The demo dataset as a client reads it from the API, once the first start has loaded it (the
 * dataset and its price moves): the day's events and the past ones hold a schedule in which no team
 * plays twice a day, with statuses that agree with the clock the data was made by, and every
 * book's board of an event adds up (plausibility.ts).
 */

interface EventItem {
  id: number;
  sport_id: number;
  league_key: string;
  start_time: string;
  status: string;
  home_team: { id: number };
  away_team: { id: number };
  home_score: number | null;
  away_score: number | null;
}

interface OddsItem {
  event_id: number;
  operator: { id: number };
  betting_market: { key: string };
  position: string;
  line: number | null;
  price_decimal: number;
}

const ZONE_OF_LEAGUE = new Map(LEAGUES.map((l) => [l.key, l.zone]));

describe.each(demoCases(0.05))('the demo dataset as the API serves it ($name)', ({ dialect, now, scale }) => {
  /** The UTC day `offset` days from the one the demo was made on. */
  const day = (offset: number) => new Date(Math.floor(now / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10);
  let t: Harness;
  let me: Caller;
  let games: GameRecord[];
  let markets: BookMarket[];
  let sportOfEvent: Map<number, string>;


  beforeAll(async () => {
    t = await demoHarness({ dialect, now, scale });
    // Several hundred requests: more than a pro client's minute allows.
    me = t.as(await t.client({ tier: 'enterprise' }));
    const sports = await me.page<{ id: number; key: string }>('/v1/references/sports?page_size=100');
    const sportKey = new Map(sports.results.map((s) => [s.id, s.key]));
    const ahead = (
      await Promise.all(
        Array.from({ length: 14 }, (_, d) =>
          all((page) => me.page<EventItem>('/v1/events/upcoming-events', { event_date: day(d), timezone: 'UTC', page, page_size: 100 })),
        ),
      )
    ).flat();
    const past = await all((page) => me.page<EventItem>(`/v1/historical/events?start_date=${day(-7)}&end_date=${day(-1)}&page=${page}&page_size=100`));
    const events = [...ahead, ...past];
    games = events.map((e) => ({
      id: e.id,
      sport: sportKey.get(e.sport_id) ?? '?',
      league: e.league_key,
      start: Date.parse(e.start_time),
      status: e.status,
      home: e.home_team.id,
      away: e.away_team.id,
      homeScore: e.home_score,
      awayScore: e.away_score,
    }));
    sportOfEvent = new Map(games.map((g) => [g.id, g.sport]));
    const odds: OddsItem[] = [];
    for (const event of events) {
      odds.push(...(await all((page) => me.page<OddsItem>('/v1/odds/upcoming-odds-by-event', { event_id: event.id, page, page_size: 100 }))));
    }
    markets = bookMarkets(
      odds.map((o) => ({ event: o.event_id, operator: o.operator.id, market: o.betting_market.key, position: o.position, line: o.line, price: o.price_decimal })),
    );
  }, 180_000);
  afterAll(async () => t.close());

  const zoneOf = (league: string) => ZONE_OF_LEAGUE.get(league) ?? 'UTC';

  it('lists the events of 21 days, the 7 past ones played and priced', () => {
    expect(games.length).toBeGreaterThan(200);
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    expect(new Set(games.filter((g) => g.start < today).map((g) => g.league)).size).toBe(30);
    expect(new Set(markets.map((m) => m.event)).size).toBeGreaterThan(0.9 * games.length);
  });

  it('schedules no team twice a day, nor one matchup twice a day', () => {
    expect(teamsTwiceADay(games, zoneOf).slice(0, 5)).toEqual([]);
    expect(repeatedMatchups(games).slice(0, 5)).toEqual([]);
  });

  it('shows each event with the status of the clock the data was made by, and a score when live or final', () => {
    expect(statusesAgainstClock(games, now).slice(0, 5)).toEqual([]);
    expect(games.some((g) => g.status === 'final')).toBe(true);
    expect(games.some((g) => g.status === 'scheduled')).toBe(true);
  });

  it("prices every book's markets whole, with a plausible margin, its moneyline and spread agreeing, its alternates in order", () => {
    expect(marginProblems(markets, [0.03, 0.08], [0.03, 0.1]).slice(0, 5)).toEqual([]);
    expect(moneylineAgainstSpread(markets, (event) => sportOfEvent.get(event) ?? '?').slice(0, 5)).toEqual([]);
    expect(alternateProblems(markets, [1.05, 12]).slice(0, 5)).toEqual([]);
  });

  it("links most books to their bet slips: include_deeplinks fills each price's links from its operator's templates, two books have none", async () => {
    const board = await me.page<{ event_id: number; betting_market: { id: number }; position: string; prices: Array<{ operator: { id: number; key: string } } & Record<string, unknown>> }>(
      '/v1/odds/board',
      // Tomorrow's board: a day's board holds only what can still be bet, and late in the day (23:30) nothing is left of today.
      { event_date: day(1), timezone: 'UTC', include_deeplinks: true, page_size: 100 },
    );
    const prices = board.results.flatMap((item) => item.prices.map((price) => ({ item, price })));
    expect(prices.length).toBeGreaterThan(0);
    const linked = new Set<number>();
    for (const { item, price } of prices) {
      const web = price.bet_web_deep_link_url;
      if (web === null) {
        expect([price.bet_ios_deep_link_url, price.bet_android_deep_link_url]).toEqual([null, null]);
        continue;
      }
      linked.add(price.operator.id);
      const pick = encodeURIComponent(item.position);
      expect(web).toBe(`https://www.${price.operator.key}.example/betslip?event=${item.event_id}&market=${item.betting_market.id}&pick=${pick}`);
      expect(price.bet_ios_deep_link_url).toBe(`https://apps.${price.operator.key}.example/ios/bet/${item.event_id}/${item.betting_market.id}/${pick}`);
    }
    expect(linked.size).toBeGreaterThan(0);
    expect([...linked].every((id) => id <= 6)).toBe(true);
  });
});
