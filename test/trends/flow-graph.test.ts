import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { FLOWS, TEAMS } from '../fixtures/events-flows.js';
import { type Reader, reader, type Harness } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { expectError } from '../helpers/responses.js';
import { generateDemoDataset } from '../../src/modules/demo/generator/index.js';
import { demoCases } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';

const URL = '/v1/trends/flow-graph-data';

interface GraphData {
  flow_id: number;
  hits: number;
  total: number;
  games: Array<{ date: string; opponent: { id: number; key: string; name: string }; hit: boolean }>;
}

/** The graph data agrees with itself and with the flow: `total` games, `hits` of them hits, oldest first. */
function expectAgreement(graph: GraphData, flow: { hits: number; total: number }): void {
  expect(graph.games).toHaveLength(flow.total);
  expect(graph.games.filter((game) => game.hit)).toHaveLength(flow.hits);
  expect([graph.hits, graph.total]).toEqual([flow.hits, flow.total]);
  const dates = graph.games.map((game) => game.date);
  expect(dates).toEqual([...dates].sort());
}

/** The games behind a fact flow's hits / total. */
describe.each(DIALECTS)('GET /v1/trends/flow-graph-data/{fact_flow_id} (%s)', (dialect) => {
  describe('on the fixture', () => {
    let h: Reader;
    beforeAll(async () => {
      h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
    });
    afterAll(async () => h.t.close());

    it('gives every fact flow imported with its games those games, oldest first, with the opponents named', async () => {
      const withGames = FLOWS.filter((f) => f.hit_history !== undefined);
      expect(withGames.length).toBeGreaterThan(5);
      for (const flow of withGames) {
        const res = await h.get(`${URL}/${flow.id}`);
        expect(res.statusCode, res.body).toBe(200);
        const graph = res.json<GraphData>();
        expect(graph.flow_id).toBe(flow.id);
        expectAgreement(graph, flow);
        const sorted = [...(flow.hit_history ?? [])].sort((a, b) => a.date.localeCompare(b.date));
        expect(graph.games.map((g) => [g.date, g.opponent.id, g.hit])).toEqual(sorted.map((g) => [g.date, g.opponent_team_id, g.hit]));
        for (const { opponent } of graph.games) {
          const team = TEAMS.find((t) => t.id === opponent.id);
          expect(opponent).toEqual({ id: team?.id, key: team?.key, name: team?.name });
        }
      }
    });

    it('is 404 for a fact flow without games, a flow of another type and an unknown id; 4xx for a bad id', async () => {
      const factWithout = FLOWS.find((f) => f.flow_type === 'fact' && f.hit_history === undefined);
      const fun = FLOWS.find((f) => f.flow_type === 'fun');
      expectError(await h.get(`${URL}/${factWithout?.id}`), 404, 'NOT_FOUND');
      expectError(await h.get(`${URL}/${fun?.id}`), 404, 'NOT_FOUND');
      expectError(await h.get(`${URL}/424242`), 404, 'NOT_FOUND');
      for (const bad of ['0', 'abc', '1.5', '-3', '99999999999999999999']) {
        const res = await h.get(`${URL}/${bad}`);
        expect([400, 422], `${bad}: ${res.body}`).toContain(res.statusCode);
      }
      expectError(await h.get(`${URL}/8000?include_deeplinks=true`), 422, 'VALIDATION_ERROR', 'include_deeplinks');
      expectError(await h.t.anonymous.get(`${URL}/8000`), 401, 'UNAUTHORIZED');
    });
  });
});

describe.each(demoCases(0.05))('GET /v1/trends/flow-graph-data/{fact_flow_id} on the demo dataset ($name)', ({ dialect, now, scale }) => {
  let t: Harness;
  let apiKey: string;
  beforeAll(async () => {
    t = await demoHarness({ dialect, now, scale });
    // One request per demo fact flow: more than a pro client's minute allows.
    ({ apiKey } = await t.client({ tier: 'enterprise' }));
  }, 60_000);
  afterAll(async () => t.close());

  it("every fact flow's graph data has the flow's hits and total", async () => {
    const facts = await t.ctx.database.db.selectFrom('flows').select(['id', 'hits', 'total']).where('flow_type', '=', 'fact').orderBy('id').execute();
    // Every fact flow the demo made at this moment and scale (hundreds: two in three of its flows).
    const made = generateDemoDataset({ now, scale }).flows.filter((f) => f.flow_type === 'fact');
    expect(facts.map((f) => Number(f.id))).toEqual(made.map((f) => f.id));
    expect(facts.length).toBeGreaterThan(20_000 * scale * 0.6);
    for (const flow of facts) {
      const res = await t.as({ apiKey }).get(`${URL}/${flow.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expectAgreement(res.json<GraphData>(), { hits: Number(flow.hits), total: Number(flow.total) });
    }
  }, 120_000);
});
