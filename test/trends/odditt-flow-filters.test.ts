import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { type Reader, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

const FLOWS_URL = '/v1/trends/flows';
const MIXED_URL = '/v1/trends/mixed-flows';
const BY_ID_URL = '/v1/trends/flows-by-id';

interface Game {
  date: string;
  opponent: { id: number };
  hit: boolean;
}
interface Flow {
  id: number;
  flow_type: string;
  bet_type: string;
  fact_flow_type: string;
  split: string | null;
  event_betting_market_position_id: number | null;
  hit_history?: Game[] | null;
  bet_ios_deep_link_url?: string | null;
  bet_android_deep_link_url?: string | null;
  bet_web_deep_link_url?: string | null;
  legs: Flow[];
}

const POSITIONS = [
  { id: 901, key: 'home', name: 'Home' },
  { id: 902, key: 'away', name: 'Away' },
  { id: 903, key: 'over', name: 'Over' },
  { id: 904, key: 'under', name: 'Under' },
];

const openOdds = (id: number, operator_id: number, position: string, line: number, price_decimal: number) => ({
  id,
  event_id: 5001,
  operator_id,
  betting_market_id: 2,
  position,
  line,
  price_decimal,
  status: 'open',
  updated_at: '2030-06-14T12:00:00Z',
});

const flow = (id: number, fields: Record<string, unknown>) => ({
  id,
  flow_type: 'fact',
  event_id: 5001,
  focus_entity_type: 'event',
  description: `Flow ${id}`,
  hits: 2,
  total: 4,
  likelihood: 'possible',
  price_decimal: 1.9,
  ...fields,
});

/**
 * Beside the fixture, on event 5001 whose total (market 2) three operators quote at 210.5, over and
 * under priced alike on average: one operator also quotes 215.5, over long and under short, an
 * alternate line. 8700 bets on it, 8701 on the main line (with its
 * hit history), 8702 is a parlay of both; 8703 is an expanded fact flow, 8704 a multi one, 8705 a
 * fun flow whose file says expanded (stored base), 8706 a single naming the position home.
 */
const EXTRA = {
  betting_market_positions: POSITIONS,
  odds: [openOdds(7300, 1, 'over', 215.5, 2.6), openOdds(7301, 1, 'under', 215.5, 1.5)],
  flows: [
    flow(8700, { betting_market_id: 2, line: 215.5, split: 'over' }),
    flow(8701, {
      betting_market_id: 2,
      line: 210.5,
      split: 'over',
      hit_history: [
        { date: '2030-05-01', opponent_team_id: 101, hit: true },
        { date: '2030-05-03', opponent_team_id: 100, hit: false },
        { date: '2030-05-05', opponent_team_id: 101, hit: true },
        { date: '2030-05-07', opponent_team_id: 100, hit: false },
      ],
    }),
    flow(8702, { leg_ids: [8700, 8701], price_decimal: 3.2 }),
    flow(8703, { betting_market_id: 2, line: 210.5, split: 'under', fact_flow_type: 'expanded' }),
    flow(8704, { betting_market_id: 2, line: 210.5, split: 'under', fact_flow_type: 'multi' }),
    flow(8705, { flow_type: 'fun', fact_flow_type: 'expanded' }),
    flow(8706, { focus_entity_type: 'team', focus_entity_id: 102, betting_market_id: 1, position: 'home' }),
  ],
};

/** The fields of Odditt's flow request that filter or add to the flows, through both list endpoints and flows-by-id. */
describe.each(DIALECTS)("Odditt's flow filters and additions (%s)", (dialect) => {
  let h: Reader;
  const every = async (url: string, body: Record<string, unknown>): Promise<Flow[]> => {
    const flows: Flow[] = [];
    for (let page = 1; ; page++) {
      const res = await h.page<Flow>(url, { ...body, page, page_size: 25 });
      flows.push(...res.results);
      if (page >= res.total_pages) return flows;
    }
  };
  const ids = async (url: string, body: Record<string, unknown>) => (await every(url, body)).map((f) => f.id);

  beforeAll(async () => {
    h = await reader({ dialect, dataset: eventsFlowsDataset });
    await h.t.import(EXTRA);
  });
  afterAll(async () => h.close());

  it('fact_flow_type: base by default (as Odditt), expanded and multi when asked; stored from the import, base for non-fact flows', async () => {
    const facts = await ids(FLOWS_URL, {});
    expect(facts).toEqual(expect.arrayContaining([8700, 8701, 8702]));
    expect(facts).not.toContain(8703);
    expect(facts).not.toContain(8704);
    expect(await ids(FLOWS_URL, { fact_flow_type: 'base' })).toEqual(facts);
    expect(await ids(FLOWS_URL, { fact_flow_type: 'expanded' })).toEqual([8703]);
    expect(await ids(FLOWS_URL, { fact_flow_type: 'multi' })).toEqual([8704]);
    expect(await ids(MIXED_URL, { fact_flow_type: 'expanded' })).toEqual([8703]);
    const mixed = await every(MIXED_URL, {});
    expect(mixed.map((f) => f.id)).not.toContain(8703);
    expect(mixed.find((f) => f.id === 8705)?.fact_flow_type).toBe('base');
    expect(mixed.every((f) => f.fact_flow_type === 'base')).toBe(true);
    expect((await every(FLOWS_URL, { fact_flow_type: 'multi' }))[0]?.fact_flow_type).toBe('multi');
    expectError(await h.post(FLOWS_URL, { fact_flow_type: 'basic' }), 422, 'VALIDATION_ERROR', 'fact_flow_type');
    // The import takes only Odditt's three sub-types.
    const refused = await h.t.admin.post('/admin/v1/import', { flows: [flow(8799, { fact_flow_type: 'basic' })] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.body).toContain('fact_flow_type');
  });

  it('include_only_basic_trends: base flows only; with another fact_flow_type, 422 naming it', async () => {
    expect(await ids(MIXED_URL, { include_only_basic_trends: true })).toEqual(await ids(MIXED_URL, {}));
    expect(await ids(FLOWS_URL, { include_only_basic_trends: false, fact_flow_type: 'multi' })).toEqual([8704]);
    expectError(await h.post(FLOWS_URL, { include_only_basic_trends: true, fact_flow_type: 'expanded' }), 422, 'VALIDATION_ERROR', 'include_only_basic_trends');
  });

  it('flows-by-id: fact_flow_type keeps the flows of that sub-type, the others are missing', async () => {
    const byId = async (fact_flow_type: string) => h.page<Flow>(BY_ID_URL, { flow_ids: [8703, 8701, 8704], fact_flow_type });
    const expanded = await byId('expanded');
    expect(expanded.results.map((f) => f.id)).toEqual([8703]);
    expect((expanded as unknown as { missing_ids: number[] }).missing_ids).toEqual([8701, 8704]);
    expect((await byId('base')).results.map((f) => f.id)).toEqual([8701]);
    expect((await h.page<Flow>(BY_ID_URL, { flow_ids: [8703, 8701] })).results.map((f) => f.id)).toEqual([8703, 8701]);
  });

  it('include_alt_lines: false leaves out the flow on the alternate line and the parlay with a leg on it; default true', async () => {
    for (const url of [FLOWS_URL, MIXED_URL]) {
      const all = await ids(url, {});
      expect(await ids(url, { include_alt_lines: true })).toEqual(all);
      const main = await ids(url, { include_alt_lines: false });
      expect(all.filter((id) => !main.includes(id))).toEqual([8700, 8702]);
    }
  });

  it('betting_market_position_ids and the singular betting_market_position_id: the position of the bet (a parlay by a leg)', async () => {
    expect(await ids(MIXED_URL, { betting_market_position_ids: [901] })).toEqual([8706]);
    expect(await ids(MIXED_URL, { betting_market_position_id: 901 })).toEqual([8706]);
    const mixed = await every(MIXED_URL, {});
    const isOver = (f: Flow) => f.event_betting_market_position_id !== null && f.split === 'over';
    const overs = mixed.filter((f) => (f.bet_type === 'single' ? isOver(f) : f.legs.some(isOver))).map((f) => f.id);
    expect(overs).toEqual(expect.arrayContaining([8700, 8701, 8702]));
    expect(await ids(MIXED_URL, { betting_market_position_ids: [903] })).toEqual(overs);
    expect(await ids(MIXED_URL, { betting_market_position_ids: [901, 903] })).toEqual([...overs, 8706].sort((a, b) => a - b));
    expect(await ids(MIXED_URL, { betting_market_position_ids: [424242] })).toEqual([]);
  });

  it('product_mode dfs keeps the over/under player props (a parlay by a leg), unless the entity or a position is named', async () => {
    for (const url of [FLOWS_URL, MIXED_URL]) {
      const props = async (extra: Record<string, unknown>) => {
        const sides = [...(await ids(url, { ...extra, betting_market_entity_type: 'player', split_type: 'over' })), ...(await ids(url, { ...extra, betting_market_entity_type: 'player', split_type: 'under' }))];
        return [...new Set(sides)].sort((a, b) => a - b);
      };
      const dfs = await ids(url, { product_mode: 'dfs' });
      expect(dfs.length).toBeGreaterThan(0);
      expect(dfs.length).toBeLessThan((await ids(url, {})).length);
      expect(dfs).toEqual(await props({}));
      expect(await ids(url, { product_mode: 'dfs', betting_market_entity_type: 'event' })).toEqual(await ids(url, { betting_market_entity_type: 'event' }));
      expect(await ids(url, { product_mode: 'dfs', betting_market_position_ids: [901] })).toEqual(await ids(url, { betting_market_position_ids: [901] }));
      expect(await ids(url, { product_mode: 'sportsbook' })).toEqual(await ids(url, {}));
    }
  });

  it('full_hit_rate embeds the games of flow-graph-data in each flow and leg; null without a history; absent unasked', async () => {
    const graph = await h.ok<{ games: Game[] }>('/v1/trends/flow-graph-data/8701');
    const flows = await every(MIXED_URL, { event_id: 5001, full_hit_rate: true });
    const main = flows.find((f) => f.id === 8701);
    expect(main?.hit_history).toEqual(graph.games);
    expect(main?.hit_history).toHaveLength(4);
    expect(flows.find((f) => f.id === 8700)?.hit_history).toBeNull();
    expect(flows.find((f) => f.id === 8702)?.legs.map((leg) => leg.hit_history)).toEqual([null, graph.games]);
    const plain = await every(MIXED_URL, { event_id: 5001 });
    expect(plain.some((f) => 'hit_history' in f || f.legs.some((leg) => 'hit_history' in leg))).toBe(false);
    // flows-by-id never carries it.
    expect((await h.page<Flow>(BY_ID_URL, { flow_ids: [8701] })).results[0]).not.toHaveProperty('hit_history');
  });

  it('include_deeplinks: exactly one operator, else 422 naming it; the link fields are null; absent unasked', async () => {
    const links = ['bet_ios_deep_link_url', 'bet_android_deep_link_url', 'bet_web_deep_link_url'];
    const flows = await every(MIXED_URL, { include_deeplinks: true, operator_ids: [1] });
    expect(flows.length).toBeGreaterThan(0);
    for (const f of flows) for (const link of links) expect(f).toHaveProperty(link, null);
    expect((await every(MIXED_URL, { include_deeplinks: true, operator_id: 1 })).map((f) => f.id)).toEqual(flows.map((f) => f.id));
    for (const link of links) expect((await every(MIXED_URL, { operator_ids: [1] }))[0]).not.toHaveProperty(link);
    for (const body of [{}, { operator_ids: [1, 2] }, { operator_id: 1, operator_ids: [2] }]) {
      expectError(await h.post(FLOWS_URL, { ...body, include_deeplinks: true }), 422, 'VALIDATION_ERROR', 'include_deeplinks');
    }
  });
});
