import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../../src/modules/demo/generator/index.js';
import { generatorMoments } from '../helpers/demo-clock.js';

// The generator is pure (no database): this runs once, not per dialect. Mid-afternoon UTC, with
// games in progress; and at the unusual days of a year, at a scale whose marquee games quote
// alternate lines on every day (at 0.05 some days have none).
const NOW = Date.parse('2030-03-14T15:09:26.535Z');

describe.each([{ name: 'mid-afternoon UTC', now: NOW, scale: 0.05 }, ...generatorMoments(0.1)])('the demo odds rows name their player, and tell main lines from alternates ($name)', ({ now, scale }) => {
  let demo: ReturnType<typeof generateDemo>;
  beforeAll(() => {
    demo = generateDemo({ now, scale });
  });

  it('every player-prop row names a player of the event whose name starts its position, and no other row does', () => {
    const { dataset } = demo;
    const playerMarkets = new Set(dataset.betting_markets.filter((m) => m.entity_type === 'player').map((m) => m.id));
    const players = new Map(dataset.players.map((p) => [p.id, p]));
    const events = new Map(dataset.events.map((e) => [e.id, e]));
    const props = dataset.odds.filter((o) => playerMarkets.has(o.betting_market_id));
    expect(props.length).toBeGreaterThan(100);
    for (const row of props) {
      const player = players.get(row.player_id ?? 0);
      expect(player, `odds ${row.id}`).toBeDefined();
      expect(row.position.startsWith(player?.name ?? '\u0000')).toBe(true);
      const event = events.get(row.event_id);
      expect([event?.home_team_id, event?.away_team_id]).toContain(player?.team_id);
    }
    expect(dataset.odds.filter((o) => !playerMarkets.has(o.betting_market_id) && o.player_id !== undefined)).toEqual([]);
  });

  it('a book quotes one main line per selection; alternates are the other lines', () => {
    const mains = new Map<string, Set<number | null>>();
    let alternates = 0;
    for (const row of demo.dataset.odds) {
      if (row.is_main === false) {
        alternates++;
        continue;
      }
      const key = `${row.event_id}/${row.operator_id}/${row.betting_market_id}/${row.position}`;
      mains.set(key, (mains.get(key) ?? new Set()).add(row.line ?? null));
    }
    expect(alternates).toBeGreaterThan(0);
    for (const [key, lines] of mains) expect(lines.size, key).toBe(1);
  });

  it('live prices are those of live events, and every live event has some', () => {
    const { dataset } = demo;
    const live = new Set(dataset.events.filter((e) => e.status === 'live').map((e) => e.id));
    // Games are in progress mid-afternoon; at some hours of the year's moments none is (the demo's
    // statuses follow its clock: generator-plausibility.test.ts).
    if (now === NOW) expect(live.size).toBeGreaterThan(0);
    const liveRows = dataset.odds.filter((o) => o.is_live === true);
    expect(liveRows.length > 0).toBe(live.size > 0);
    for (const row of liveRows) expect(live.has(row.event_id), `odds ${row.id}`).toBe(true);
    const pricedLive = new Set(liveRows.map((o) => o.event_id));
    for (const row of dataset.odds) if (live.has(row.event_id)) expect(pricedLive.has(row.event_id)).toBe(true);
  });

  it('alternate lines lie around the main line of the same book and selection', () => {
    const { dataset } = demo;
    const sideOf = (position: string) => position.replace(/(over|under)$/, '$1');
    const mains = new Map<string, number>();
    for (const row of dataset.odds) {
      if (row.is_main === false || row.line === undefined || row.line === null) continue;
      mains.set(`${row.event_id}/${row.operator_id}/${row.betting_market_id}/${sideOf(row.position)}`, row.line);
    }
    const alternates = dataset.odds.filter((o) => o.is_main === false);
    expect(alternates.length).toBeGreaterThan(0);
    let below = 0;
    let above = 0;
    for (const row of alternates) {
      const main = mains.get(`${row.event_id}/${row.operator_id}/${row.betting_market_id}/${sideOf(row.position)}`);
      expect(main, `odds ${row.id} has a main line`).toBeDefined();
      expect(row.line, `odds ${row.id}`).not.toBe(main);
      if ((row.line ?? 0) < (main ?? 0)) below++;
      else above++;
    }
    expect(below).toBeGreaterThan(0);
    expect(above).toBeGreaterThan(0);
  });

  it('the moves carry the details of the rows they move', () => {
    const byId = new Map(demo.dataset.odds.map((o) => [o.id, o]));
    for (const move of demo.moves) {
      for (const row of move.odds ?? []) {
        const before = byId.get(row.id);
        expect({ player_id: row.player_id, is_main: row.is_main, is_live: row.is_live }).toEqual({
          player_id: before?.player_id,
          is_main: before?.is_main,
          is_live: before?.is_live,
        });
      }
    }
  });
});
