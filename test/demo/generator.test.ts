import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemo, generateDemoDataset } from '../../src/modules/demo/generator/index.js';
import { weightedQuotas } from '../../src/modules/demo/generator/odds.js';
import { checkSchema, checkWithinDataset } from '../../src/modules/import/import.checks.js';

// The generator is pure (no database): these tests run once, not per dialect.
const NOW = Date.parse('2030-03-14T15:09:26.535Z');
const DAY = 24 * 3600 * 1000;

describe('the demo dataset generator', () => {
  let data: ReturnType<typeof generateDemoDataset>;
  beforeAll(() => {
    data = generateDemoDataset({ now: NOW });
  });

  it('makes the scale-1 dataset: 6 sports, 30 leagues, 600 teams, 8 operators, about 1,800 events ahead and 900 past, 100,000 and 10,000 odds, 20,000 flows', () => {
    expect(data.sports.map((s) => s.key)).toEqual(['soccer', 'basketball', 'american-football', 'baseball', 'ice-hockey', 'tennis']);
    expect(data.leagues).toHaveLength(30);
    expect(data.teams).toHaveLength(600);
    expect(data.operators).toHaveLength(8);
    // As many games as the leagues' schedules hold: each side plays about as often as its sport does.
    const { ahead, past } = split(data);
    expect(ahead.length).toBeGreaterThan(1_600);
    expect(ahead.length).toBeLessThan(2_000);
    expect(past.length).toBeGreaterThan(800);
    expect(past.length).toBeLessThan(1_000);
    // Whole markets only: a unit of an event's share left at the very end may go unused.
    const aheadIds = new Set(ahead.map((e) => e.id));
    const aheadOdds = data.odds.filter((o) => aheadIds.has(o.event_id)).length;
    expect(aheadOdds).toBeGreaterThanOrEqual(100_000 - 1);
    expect(aheadOdds).toBeLessThanOrEqual(100_000);
    expect(data.odds.length - aheadOdds).toBeGreaterThanOrEqual(10_000 - 1);
    expect(data.odds.length - aheadOdds).toBeLessThanOrEqual(10_000);
    expect(data.flows).toHaveLength(20_000);
    // About ten players a team (a tennis "team" is its one player).
    expect(data.players.length).toBeGreaterThan(5_000);
    expect(new Set(data.betting_markets.map((m) => m.entity_type))).toEqual(new Set(['team', 'player', 'event']));
  });

  it('is deterministic: the same seed and start time give the same dataset, another seed another one', () => {
    expect(generateDemoDataset({ now: NOW })).toEqual(data);
    const other = generateDemoDataset({ now: NOW, seed: 7, scale: 0.05 });
    expect(other.teams.map((t) => t.name)).not.toEqual(data.teams.slice(0, other.teams.length).map((t) => t.name));
  });

  it('makes most fact flows base, some expanded and some multi; every other flow base; flow 1 base', () => {
    const flows = data.flows ?? [];
    const subTypes = (type: string) => flows.filter((f) => f.flow_type === type).map((f) => f.fact_flow_type ?? 'base');
    const facts = subTypes('fact');
    const share = (subType: string) => facts.filter((t) => t === subType).length / facts.length;
    expect(share('base')).toBeGreaterThan(0.7);
    expect(share('expanded')).toBeGreaterThan(0.03);
    expect(share('multi')).toBeGreaterThan(0.03);
    expect([...subTypes('fun'), ...subTypes('plain')].every((t) => t === 'base')).toBe(true);
    expect(flows.find((f) => f.id === 1)).toMatchObject({ flow_type: 'fact' });
    expect(flows.find((f) => f.id === 1)?.fact_flow_type ?? 'base').toBe('base');
  });

  it('is a valid import dataset (schema, unique ids, hits ≤ total)', () => {
    expect(() => checkWithinDataset(checkSchema(data))).not.toThrow();
  });

  it('has leagues in several countries and teams with real-looking, unambiguous keys', () => {
    const countries = new Set(data.leagues.map((l) => l.country_key));
    expect(countries.size).toBeGreaterThanOrEqual(10);
    expect(countries.has(null)).toBe(true);
    expect(new Set(data.leagues.map((l) => l.key)).size).toBe(30);
    expect(new Set(data.teams.map((t) => t.key)).size).toBe(600);
    const nba = data.leagues.find((l) => l.key === 'nba');
    const nbaTeams = data.teams.filter((t) => t.league_id === nba?.id);
    expect(nbaTeams).toHaveLength(30);
    for (const team of nbaTeams) {
      expect(team.name).toMatch(/^[A-Z][A-Za-z. ]+ [A-Z][A-Za-z0-9 -]+$/);
      expect(team.abbreviation).toMatch(/^[A-Z]{3}$/);
      expect(team.key).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('schedules the events from today on the 14 UTC days from today, ids from 1 by start time, between two teams of their league', () => {
    const leagueOf = new Map(data.teams.map((t) => [t.id, t.league_id]));
    const today = Math.floor(NOW / DAY) * DAY;
    const { ahead } = split(data);
    expect(ahead.map((e) => e.id)).toEqual(ahead.map((_, i) => i + 1));
    const starts = ahead.map((e) => Date.parse(e.start_time));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const event of ahead) {
      const start = Date.parse(event.start_time);
      expect(start).toBeLessThan(today + 14 * DAY);
      expect(event.home_team_id).not.toBe(event.away_team_id);
      expect(leagueOf.get(event.home_team_id)).toBe(event.league_id);
      expect(leagueOf.get(event.away_team_id)).toBe(event.league_id);
    }
    // Spread over the whole fortnight, not bunched on one day.
    const days = new Set(starts.map((start) => Math.floor((start - today) / DAY)));
    expect(days.size).toBe(14);
  });

  it('has a past: the 7 UTC days before today, played in every league, final with a score but for a few called off, priced before kick-off', () => {
    const today = Math.floor(NOW / DAY) * DAY;
    const { ahead, past } = split(data);
    expect(past.map((e) => e.id)).toEqual(past.map((_, i) => ahead.length + i + 1));
    for (const event of past) {
      const start = Date.parse(event.start_time);
      expect(start).toBeGreaterThanOrEqual(today - 7 * DAY);
      expect(['final', 'postponed', 'cancelled']).toContain(event.status);
      expect(event.status === 'final').toBe(event.home_score !== undefined && event.away_score !== undefined);
    }
    expect(past.filter((e) => e.status === 'final').length).toBeGreaterThan(0.95 * past.length);
    // Every league has played: the examples of the historical endpoints hold at any scale.
    for (const scale of [0.02, 0.1, 1]) {
      const small = scale === 1 ? data : generateDemoDataset({ now: NOW, scale });
      expect(new Set(split(small).past.map((e) => e.league_id)).size, `scale ${scale}`).toBe(30);
    }
    // Past odds open two days before kick-off.
    const startOf = new Map(past.map((e) => [e.id, Date.parse(e.start_time)]));
    const pastOdds = data.odds.filter((o) => startOf.has(o.event_id));
    for (const o of pastOdds) expect(Date.parse(o.updated_at ?? '')).toBe((startOf.get(o.event_id) ?? 0) - 2 * DAY);
  });

  it('moves prices after the dataset: started events twice before kick-off, one board in ten of the others at the moment it was made, each row listed a change', () => {
    const { dataset, moves } = generateDemo({ now: NOW, scale: 0.1 });
    expect(moves).toHaveLength(2);
    const startOf = new Map(dataset.events.map((e) => [e.id, Date.parse(e.start_time)]));
    const state = new Map(dataset.odds.map((o) => [o.id, o]));
    const at = new Set<string>();
    moves.forEach((move, i) => {
      const rows = move.odds ?? [];
      expect(new Set(rows.map((o) => o.id)).size).toBe(rows.length);
      for (const row of rows) {
        const before = state.get(row.id);
        expect(row.price_decimal !== before?.price_decimal || row.status !== before.status, `odds ${row.id}`).toBe(true);
        const start = startOf.get(row.event_id) ?? 0;
        const when = Date.parse(row.updated_at ?? '');
        // Before kick-off: a day and an hour before it, or (still to come) when the dataset was made.
        if (start <= NOW) expect(when).toBe(start - (i === 0 ? DAY : 3_600_000));
        else expect([i, when]).toEqual([0, NOW]);
        at.add(`${row.event_id}|${row.operator_id}`);
        state.set(row.id, row);
      }
    });
    expect(() => moves.forEach((move) => checkWithinDataset(checkSchema(move)))).not.toThrow();
    // A move reprices a book's board of an event: about one board in ten of the events still to come.
    const boards = (rows: readonly { event_id: number; operator_id: number }[]) => new Set(rows.filter((o) => (startOf.get(o.event_id) ?? 0) > NOW).map((o) => `${o.event_id}|${o.operator_id}`));
    const share = boards((moves[0]?.odds ?? []).filter((o) => Date.parse(o.updated_at ?? '') === NOW)).size / boards(dataset.odds).size;
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.15);
    // Most rows of the started events moved.
    const started = dataset.odds.filter((o) => (startOf.get(o.event_id) ?? 0) <= NOW);
    const moved = new Set(moves.flatMap((m) => m.odds ?? []).map((o) => o.id));
    expect(started.filter((o) => moved.has(o.id)).length).toBeGreaterThan(started.length / 2);
  });

  it('depends on the day it is made for its schedule and prices, and on the hour only for statuses, scores and times', () => {
    const midnight = Math.floor(NOW / DAY) * DAY;
    const [early, late] = [midnight + 3 * 3_600_000, midnight + 21 * 3_600_000].map((now) => generateDemoDataset({ now, scale: 0.1 }));
    const fixture = (e: (typeof data.events)[number]) => [e.id, e.start_time, e.home_team_id, e.away_team_id];
    const price = (o: (typeof data.odds)[number]) => [o.id, o.event_id, o.operator_id, o.betting_market_id, o.position, o.line, o.price_decimal];
    expect(late?.events.map(fixture)).toEqual(early?.events.map(fixture));
    expect(late?.odds.map(price)).toEqual(early?.odds.map(price));
    expect(late?.events.map((e) => e.status)).not.toEqual(early?.events.map((e) => e.status));
  });

  it('has events today, the UTC day it was made, whatever the hour: the examples of /docs ask for today', () => {
    const midnight = Math.floor(NOW / DAY) * DAY;
    for (const now of [midnight, midnight + 12 * 3600_000, midnight + DAY - 1]) {
      const { events } = generateDemoDataset({ now, scale: 0.1 });
      const today = events.filter((e) => Math.floor(Date.parse(e.start_time) / DAY) * DAY === midnight);
      // About 1/14 of the events fall on each day, in several sports.
      expect(today.length, new Date(now).toISOString()).toBeGreaterThan(events.length / 28);
      expect(new Set(today.map((e) => e.league_id)).size).toBeGreaterThan(3);
    }
  });

  it('prices odds realistically: decimal prices above 1, several operators per event', () => {
    expect(data.odds.filter((o) => !(o.price_decimal > 1))).toEqual([]);
    const operatorsOfEvent1 = new Set(data.odds.filter((o) => o.event_id === 1).map((o) => o.operator_id));
    expect(operatorsOfEvent1.size).toBeGreaterThanOrEqual(5);
  });

  it('quotes marquee games deeply: some events carry over 100 odds (a full page), most fewer', () => {
    const perEvent = new Map<number, number>();
    for (const o of data.odds) perEvent.set(o.event_id, (perEvent.get(o.event_id) ?? 0) + 1);
    const counts = [...perEvent.values()];
    expect(counts.filter((n) => n > 100).length).toBeGreaterThanOrEqual(100);
    expect(counts.filter((n) => n < 50).length).toBeGreaterThan(1_000);
  });

  it('splits a total in proportion to weights, exactly', () => {
    expect(weightedQuotas(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(weightedQuotas(100, [4, 1, 0])).toEqual([80, 20, 0]);
    expect(weightedQuotas(7, [0, 0])).toEqual([0, 0]);
  });

  it('includes every flow type and likelihood, and same-event parlays of 2–4 single legs', () => {
    expect(new Set(data.flows.map((f) => f.flow_type))).toEqual(new Set(['fact', 'fun', 'plain']));
    expect(new Set(data.flows.map((f) => f.likelihood))).toEqual(new Set(['likely', 'possible', 'longshot']));
    const byId = new Map(data.flows.map((f) => [f.id, f]));
    const parlays = data.flows.filter((f) => (f.leg_ids ?? []).length > 0);
    expect(parlays.length).toBeGreaterThan(1_000);
    for (const parlay of parlays) {
      const legs = (parlay.leg_ids ?? []).map((id) => byId.get(id));
      expect(legs.length).toBeGreaterThanOrEqual(2);
      expect(legs.length).toBeLessThanOrEqual(4);
      for (const leg of legs) {
        expect(leg?.event_id).toBe(parlay.event_id);
        expect(leg?.leg_ids).toBeUndefined();
      }
    }
    expect(data.flows.some((f) => /^.+ have covered the spread in \d+ of their last \d+ road games$/.test(f.description))).toBe(true);
  });

  it('gives every fact flow, and only fact flows, the games behind its hits and total, played by the time the dataset was made, against its league', () => {
    const facts = data.flows.filter((f) => f.flow_type === 'fact');
    expect(facts.length).toBeGreaterThan(10_000);
    const eventOf = new Map(data.events.map((e) => [e.id, e]));
    const leagueOf = new Map(data.teams.map((t) => [t.id, t.league_id]));
    for (const flow of facts) {
      const games = flow.hit_history ?? [];
      expect(games).toHaveLength(flow.total);
      expect(games.filter((g) => g.hit)).toHaveLength(flow.hits);
      const event = eventOf.get(flow.event_id);
      for (const game of games) {
        // Played by the time the dataset was made (a trend told from the demo's own results also
        // counts the games that ended earlier that day), and before the event.
        expect(game.date <= new Date(NOW).toISOString().slice(0, 10)).toBe(true);
        expect(game.date < (event?.start_time ?? '')).toBe(true);
        expect(leagueOf.get(game.opponent_team_id)).toBe(event?.league_id);
      }
    }
    expect(data.flows.filter((f) => f.flow_type !== 'fact' && f.hit_history !== undefined)).toEqual([]);
    // The example of /docs: flow 1 is a fact flow at every scale.
    for (const scale of [0.05, 0.1, 1]) expect(generateDemoDataset({ now: NOW, scale }).flows[0]).toMatchObject({ id: 1, flow_type: 'fact' });
  });

  it('carries the rest of the catalogue: countries of the leagues, market categories named by id, positions, periods of every sport', () => {
    expect(new Set(data.countries.map((c) => c.key))).toEqual(new Set(data.leagues.flatMap((l) => (l.country_key ? [l.country_key] : []))));
    const categoryIds = new Set(data.betting_market_categories.map((c) => c.id));
    for (const market of data.betting_markets) expect(categoryIds.has(market.category_id ?? -1)).toBe(true);
    expect(data.betting_market_positions.map((p) => p.key)).toEqual(['home', 'away', 'draw', 'over', 'under', 'yes', 'no']);
    expect(new Set(data.event_periods.map((p) => p.sport_id))).toEqual(new Set(data.sports.map((s) => s.id)));
  });

  it('multiplies teams (so their games), odds and flows with --scale', () => {
    const half = generateDemoDataset({ now: NOW, scale: 0.5 });
    const ratio = half.events.length / data.events.length;
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.6);
    expect(half.odds.length).toBeGreaterThanOrEqual(55_000 - 2);
    expect(half.odds.length).toBeLessThanOrEqual(55_000);
    expect(half.flows).toHaveLength(10_000);
    expect(half.teams.length).toBeGreaterThanOrEqual(295);
    expect(half.teams.length).toBeLessThanOrEqual(305);
    expect(half.leagues).toHaveLength(30);
  });
});

/** The events from the day the dataset was made on, and those before it. */
function split(dataset: ReturnType<typeof generateDemoDataset>) {
  const today = Math.floor(NOW / DAY) * DAY;
  return {
    ahead: dataset.events.filter((e) => Date.parse(e.start_time) >= today),
    past: dataset.events.filter((e) => Date.parse(e.start_time) < today),
  };
}
