import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { EdgeFoundData, forgetOldEdges } from '../../src/modules/webhooks/index.js';
import { DIALECTS } from '../helpers/app.js';
import { expectFigure } from '../helpers/figures.js';
import { forSuite, harness } from '../helpers/harness.js';
import { odds } from '../history/fixture.js';
import { addEndpoint, deliveries } from './former-fixture.js';

/**
 * A moneyline of event 200 priced by three books at 1.90 on both sides: fair 0.5 each, no edge.
 * Book 3's home price then moves: at 2.10 it is a value bet of +5% (2.10 × 0.5 − 1), the other
 * books' medians keeping the fair price where it is; 2.10 (or 2.11) against 1.90 is no arbitrage.
 */
function dataset(now: number) {
  const at = (hours: number) => new Date(now + hours * 3600_000).toISOString();
  return {
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
    teams: [
      { id: 1000, key: 'celtics', name: 'Boston Celtics', league_id: 10 },
      { id: 1001, key: 'knicks', name: 'New York Knicks', league_id: 10 },
    ],
    operators: [
      { id: 1, key: 'northstar', name: 'Northstar Bet' },
      { id: 2, key: 'kingsbet', name: 'Kingsbet' },
      { id: 3, key: 'longshot', name: 'Longshot' },
    ],
    betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' }],
    events: [{ id: 200, league_id: 10, start_time: at(24), home_team_id: 1001, away_team_id: 1000 }],
    odds: [
      odds(1, 200, 1, 1, 'home', 1.9),
      odds(2, 200, 1, 1, 'away', 1.9),
      odds(3, 200, 2, 1, 'home', 1.9),
      odds(4, 200, 2, 1, 'away', 1.9),
      odds(5, 200, 3, 1, 'home', 1.9),
      odds(6, 200, 3, 1, 'away', 1.9),
    ],
  };
}

interface ValueEdge {
  kind: 'value';
  event_id: number;
  betting_market_id: number;
  position: string;
  operator_ids: number[];
  price_decimal: number;
  fair_probability: number;
  ev_pct: number;
  edge: number;
}
interface ArbitrageEdge {
  kind: 'arbitrage';
  event_id: number;
  profit_pct: number;
  implied_sum: number;
  edge: number;
  operator_ids: number[];
  legs: Array<{ position: string; price_decimal: number; operator_ids: number[] }>;
}
type Edge = ValueEdge | ArbitrageEdge;

interface EdgesAnswer {
  value_bets: Array<{ position: string; operator: { id: number }; price_decimal: number; fair_probability: number; ev_pct: number }>;
  arbitrages: Array<{ profit_pct: number; implied_sum: number }>;
}

/** edge.found (decision 0316): a value bet or an arbitrage told when it reaches an endpoint's min_edge, not while it stays there. */
describe.each(DIALECTS)('edge.found webhooks (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect });
    const db = h.database.db;
    await addEndpoint(db, 'ep_all', ['board.changed', 'edge.found']);
    await addEndpoint(db, 'ep_edges', ['edge.found']);
    await addEndpoint(db, 'ep_min10', ['edge.found'], { filters: { min_edge: 0.1 } });
    await addEndpoint(db, 'ep_other_event', ['edge.found'], { filters: { event_ids: [999] } });
    await addEndpoint(db, 'ep_board', ['board.changed']);
    await h.import(dataset(h.clock.now()));
    await h.ctx.boardEvents.run();
    await h.ctx.webhookFormer.run();
    return h;
  });
  const db = () => t.database.db;
  /** The edges of an endpoint's edge.found deliveries, one list per delivery, each delivery's data checked against its schema. */
  const edgesOf = async (endpointId: string) => {
    const found = (await deliveries(db(), endpointId)).filter((d) => d.type === 'edge.found');
    for (const { data } of found) expect([...Value.Errors(EdgeFoundData, data)].map((e) => `${e.instancePath} ${e.message}`), JSON.stringify(data)).toEqual([]);
    return found.map((d) => d.data['edges'] as Edge[]);
  };
  const move = async (...prices: Array<ReturnType<typeof odds>>) => {
    await t.import({ odds: prices });
    await t.ctx.boardEvents.run();
    await t.ctx.webhookFormer.run();
  };
  const endpointEdges = async (minEdge: number) => {
    const { apiKey } = await t.client();
    return t.as({ apiKey }).ok<EdgesAnswer>('/v1/odds/edges', { event_ids: [200], include_alt_lines: true, min_edge: minEdge });
  };

  it('prices with no edge tell nothing', async () => {
    expect(await edgesOf('ep_all')).toEqual([]);
    expect(await edgesOf('ep_edges')).toEqual([]);
    expect((await deliveries(db(), 'ep_all')).every((d) => d.type === 'board.changed')).toBe(true);
  });

  it('a value bet that appears is told once to each subscribed endpoint, with the edge POST /v1/odds/edges reports', async () => {
    await move(odds(5, 200, 3, 1, 'home', 2.1));
    const told = await edgesOf('ep_edges');
    expect(told).toHaveLength(1);
    const [edge] = told[0] ?? [];
    expect(edge).toMatchObject({ kind: 'value', event_id: 200, betting_market_id: 1, position: 'home', operator_ids: [3], price_decimal: 2.1 });
    const listed = (await endpointEdges(0)).value_bets;
    expect(listed.map((b) => [b.position, b.operator.id, b.price_decimal])).toEqual([['home', 3, 2.1]]);
    expect(edge?.kind === 'value' && [edge.ev_pct, edge.fair_probability]).toEqual([listed[0]?.ev_pct, listed[0]?.fair_probability]);
    expectFigure(edge?.edge, 2.1 * 0.5 - 1, 'edge');
    expect(await edgesOf('ep_all')).toEqual(told);
    for (const none of ['ep_min10', 'ep_other_event', 'ep_board']) expect(await edgesOf(none)).toEqual([]);
  });

  it('an edge that stays above is not told again; gone below and back, it is', async () => {
    await move(odds(5, 200, 3, 1, 'home', 2.11));
    expect(await edgesOf('ep_edges')).toHaveLength(1);
    expect((await deliveries(db(), 'ep_all')).at(-1)?.type).toBe('board.changed');

    await move(odds(5, 200, 3, 1, 'home', 1.9));
    expect(await edgesOf('ep_edges')).toHaveLength(1);
    await move(odds(5, 200, 3, 1, 'home', 2.1));
    const told = await edgesOf('ep_edges');
    expect(told).toHaveLength(2);
    expect(told[1]?.map((e) => [e.kind, e.kind === 'value' && e.position])).toEqual([['value', 'home']]);
  });

  it('an arbitrage that appears is told, as the edges endpoint shows it', async () => {
    // Home 2.15 at book 3 and away 1.95 at book 1: 1/2.15 + 1/1.95 < 1. Away at 1.95 is no value bet (the medians keep it fair at 2.00).
    await move(odds(5, 200, 3, 1, 'home', 2.15), odds(2, 200, 1, 1, 'away', 1.95));
    const told = await edgesOf('ep_edges');
    expect(told).toHaveLength(3);
    const [edge] = told[2] ?? [];
    expect(told[2]).toHaveLength(1);
    expect(edge).toMatchObject({ kind: 'arbitrage', event_id: 200, operator_ids: [1, 3] });
    const [listed] = (await endpointEdges(0)).arbitrages;
    expect(edge?.kind === 'arbitrage' && [edge.profit_pct, edge.implied_sum]).toEqual([listed?.profit_pct, listed?.implied_sum]);
    expectFigure(edge?.edge, 1 / (1 / 2.15 + 1 / 1.95) - 1, 'edge');
    expect(edge?.kind === 'arbitrage' && edge.legs.map((leg) => [leg.position, leg.price_decimal, leg.operator_ids])).toEqual([
      ['away', 1.95, [1]],
      ['home', 2.15, [3]],
    ]);
    for (const none of ['ep_min10', 'ep_other_event', 'ep_board']) expect(await edgesOf(none)).toEqual([]);
  });

  it('a min_edge is reached from below: an edge crossing 10% is told to the endpoint that asks for 10%, one below it is not', async () => {
    // Home 2.40: EV +20% (the medians stay at 1.90); the arbitrage grows to 7.6%, already told, and below 10%.
    await move(odds(5, 200, 3, 1, 'home', 2.4));
    expect(await edgesOf('ep_edges')).toHaveLength(3);
    const told = await edgesOf('ep_min10');
    expect(told.map((edges) => edges.map((e) => e.kind))).toEqual([['value']]);
  });

  it("an endpoint's sequences stay gapless across board.changed and edge.found", async () => {
    for (const endpointId of ['ep_all', 'ep_edges', 'ep_min10']) {
      const sequences = (await deliveries(db(), endpointId)).map((d) => d.sequence);
      expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    }
    const types = (await deliveries(db(), 'ep_all')).map((d) => d.type);
    expect(types.filter((type) => type === 'edge.found')).toHaveLength(3);
    expect(types.filter((type) => type === 'board.changed').length).toBeGreaterThan(3);
  });
});

describe.each(DIALECTS)('edge.found while no endpoint is subscribed (%s)', (dialect) => {
  const queries: string[] = [];
  const t = forSuite(() => harness({ dialect, onQuery: (text) => queries.push(text) }));

  it('board changes with only board.changed subscribed read no odds rows and no edges, and write none', async () => {
    const db = t.database.db;
    await addEndpoint(db, 'ep_board', ['board.changed']);
    await t.import(dataset(t.clock.now()));
    await t.ctx.boardEvents.run();
    await t.import({ odds: [odds(5, 200, 3, 1, 'home', 2.1)] });
    await t.ctx.boardEvents.run();
    queries.length = 0;
    await t.ctx.webhookFormer.board.run();
    expect((await deliveries(db, 'ep_board')).length).toBeGreaterThan(0);
    expect(queries.filter((text) => /webhook_edges|"odds"|webhooks: edges/.test(text))).toEqual([]);
    expect(await db.selectFrom('webhook_edges').selectAll().execute()).toEqual([]);
  });

  it('what was known goes stale while nobody listens: an edge that went below and came back unwatched is told when one listens again', async () => {
    const db = t.database.db;
    const move = async (price: number) => {
      await t.import({ odds: [odds(5, 200, 3, 1, 'home', price)] });
      await t.ctx.boardEvents.run();
      await t.ctx.webhookFormer.run();
    };
    const told = async () => (await deliveries(db, 'ep_late')).filter((d) => d.type === 'edge.found').length;
    const listening = (on: boolean) => db.updateTable('webhook_endpoints').set({ enabled: on ? 1 : 0 }).where('id', '=', 'ep_late').execute();
    await addEndpoint(db, 'ep_late', ['edge.found']);
    // Nothing known yet: the value bet at 2.10 is there when the endpoint first hears of its market.
    await move(2.11);
    expect(await told()).toBe(1);
    await listening(false);
    await move(1.9);
    await move(2.1);
    await listening(true);
    await move(2.105);
    expect(await told()).toBe(2);
    await move(2.11);
    expect(await told()).toBe(2);
  });

  it('the edges of markets not looked at within WEBHOOK_RETENTION_DAYS are forgotten by the purge', async () => {
    const db = t.database.db;
    const known = async () => (await db.selectFrom('webhook_edges').select('key').execute()).length;
    expect(await known()).toBeGreaterThan(0);
    const retention = { db, clock: t.clock, retentionDays: t.config.webhookRetentionDays };
    expect(await forgetOldEdges(retention)).toBe(0);
    t.clock.advance(t.config.webhookRetentionDays * 86_400_000 + 1);
    expect(await forgetOldEdges(retention)).toBeGreaterThan(0);
    expect(await known()).toBe(0);
  });
});
