import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCases } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import type { Caller, Harness } from '../helpers/harness.js';
import { allPages as all } from '../helpers/responses.js';

/**
 * The demo's played days as the API serves them: its final events are graded, and every flow the
 * API computed from those grades says what a client recounts from POST /v1/results/graded: for
 * the flow's team and market, its last `total` graded games before the flow's event, `hits` of
 * them won.
 */

interface Flow {
  id: number;
  source: string;
  disagrees: boolean;
  event: { start_time: string };
  focus_entity: { id: number };
  betting_market: { id: number } | null;
  hit_rate: { hits: number; total: number };
  hit_history?: Array<{ date: string; hit: boolean; opponent: { id: number } }> | null;
}
interface Graded {
  odds_id: number;
  event_id: number;
  position: string;
  outcome: string;
  betting_market: { id: number };
}
interface EventItem {
  id: number;
  start_time: string;
  home_team: { id: number };
  away_team: { id: number };
}

const DAY_MS = 86_400_000;

describe.each(demoCases(0.1))('computed trends of the demo data ($name)', ({ dialect, now, scale }) => {
  /** The UTC day `offset` days from the one the demo was made on. */
  const day = (offset: number) => new Date(Math.floor(now / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10);
  let t: Harness;
  let me: Caller;

  beforeAll(async () => {
    t = await demoHarness({ dialect, now, scale });
    me = t.as(await t.client({ tier: 'enterprise' }));
  }, 240_000);
  afterAll(async () => t?.close());

  it('grades the played events, and every computed flow equals a recount from /v1/results/graded', async () => {
    const computedIds = (await t.ctx.database.db.selectFrom('flows').select('id').where('source', '=', 'computed').orderBy('id').execute()).map((r) => Number(r.id));
    expect(computedIds.length).toBeGreaterThan(0);
    const flows: Flow[] = [];
    // A page of flows by id holds 25.
    for (let i = 0; i < computedIds.length; i += 25) {
      flows.push(...(await me.page<Flow>('/v1/trends/flows-by-id', { flow_ids: computedIds.slice(i, i + 25) })).results);
    }
    expect(flows.map((f) => f.id)).toEqual(computedIds);
    const markets = [...new Set(flows.map((f) => f.betting_market?.id ?? 0))];
    const range = { start_date: day(-7), end_date: day(0) };
    const graded = await all((page) => me.page<Graded>('/v1/results/graded', { ...range, betting_market_ids: markets, page, page_size: 100 }));
    expect(graded.length).toBeGreaterThan(0);
    const events = new Map(
      (await all((page) => me.page<EventItem>(`/v1/historical/events?start_date=${range.start_date}&end_date=${range.end_date}&page=${page}&page_size=100`))).map((e) => [e.id, e]),
    );
    // The client's recount: per team and market, one game per event (the lowest odds row of the team's side), in start order.
    const games = new Map<string, Array<{ start: number; eventId: number; won: boolean }>>();
    const seen = new Set<string>();
    for (const g of [...graded].sort((a, b) => a.odds_id - b.odds_id)) {
      const event = events.get(g.event_id);
      if (event === undefined || (g.position !== 'home' && g.position !== 'away')) continue;
      const team = g.position === 'home' ? event.home_team.id : event.away_team.id;
      const key = `${g.betting_market.id}:${team}`;
      if (seen.has(`${key}:${g.event_id}`)) continue;
      seen.add(`${key}:${g.event_id}`);
      const list = games.get(key) ?? [];
      list.push({ start: Date.parse(event.start_time), eventId: g.event_id, won: g.outcome === 'won' });
      games.set(key, list);
    }
    for (const flow of flows) {
      expect(flow.source).toBe('computed');
      expect(flow.disagrees).toBe(false);
      const before = Date.parse(flow.event.start_time);
      const played = (games.get(`${flow.betting_market?.id}:${flow.focus_entity.id}`) ?? [])
        .filter((g) => g.start < before)
        .sort((a, b) => a.start - b.start || a.eventId - b.eventId);
      const last = played.slice(-flow.hit_rate.total);
      expect(last.length, `flow ${flow.id}`).toBe(flow.hit_rate.total);
      expect(last.filter((g) => g.won).length, `flow ${flow.id}`).toBe(flow.hit_rate.hits);
    }
  }, 240_000);
});
