import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { betTypeOf, eventsFlowsDataset, FLOWS, type FixtureFlow } from '../fixtures/events-flows.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

interface Flow {
  id: number;
  flow_type: string;
  bet_type: string;
  event_betting_market_position_id: number | null;
  legs: Flow[];
}
interface QuoteAnswer {
  flow_id: number;
  flow_type: string;
  status: number;
  body: { flow_type?: string };
}

/** The five values Odditt's documentation says every flow record carries, and its client's quote models accept. */
const ODDITT_VALUES = ['fact_flow', 'fun_flow', 'fact_flow_parlay', 'fun_flow_parlay', 'plain_flow_parlay'];

const flowById = (id: number): FixtureFlow => {
  const flow = FLOWS.find((f) => f.id === id);
  if (flow === undefined) throw new Error(`fixture: no flow ${id}`);
  return flow;
};
/** What a flow is named in Odditt's vocabulary: a single or a leg by its type, a parlay by its type and `_parlay`; a plain leg `plain_flow_parlay`. */
const oddittName = (flow: FixtureFlow): string =>
  betTypeOf(flow) === 'parlay' ? `${flow.flow_type}_flow_parlay` : flow.flow_type === 'plain' ? 'plain_flow_parlay' : `${flow.flow_type}_flow`;
const isPlainSingle = (flow: FixtureFlow) => flow.flow_type === 'plain' && betTypeOf(flow) === 'single';

/**
 * An account migrating from Odditt sets `flow_vocabulary: odditt`: every flow answer then names
 * flow types as Odditt's records do, so that its client can pass a record's `flow_type` back.
 */
describe.each(DIALECTS)('flow_vocabulary (%s)', (dialect) => {
  const h = forSuite(async () => {
    const built = await harness({ dialect });
    await built.import(eventsFlowsDataset);
    return built;
  });
  let ours: OnboardedClient;
  let odditt: OnboardedClient;
  let asOurs: Caller;
  let asOdditt: Caller;

  const allOf = async (caller: Caller, url: string, body: Record<string, unknown> = {}): Promise<Flow[]> => {
    const flows: Flow[] = [];
    for (let page = 1; ; page++) {
      const res = await caller.page<Flow>(url, { ...body, page, page_size: 25 });
      flows.push(...res.results);
      if (page >= res.total_pages) return flows;
    }
  };
  /** Each flow and leg as [id, flow_type]. */
  const named = (flows: readonly Flow[]) => flows.flatMap((f) => [[f.id, f.flow_type], ...f.legs.map((leg) => [leg.id, leg.flow_type])]);
  const expectedNames = (flows: readonly FixtureFlow[], name: (f: FixtureFlow) => string) =>
    flows.flatMap((f) => [[f.id, name(f)], ...(f.leg_ids ?? []).map((id) => [id, name(flowById(id))])]);

  beforeAll(async () => {
    ours = await h.client({ tier: 'pro', name: 'Ours Co' });
    odditt = await h.client({ tier: 'pro', name: 'From Odditt Co' });
    asOurs = h.as(ours);
    asOdditt = h.as(odditt);
  });

  it('is ours by default; the admin API sets it and shows it, as the account config does, the audit log records the change; an unknown value is 422', async () => {
    expect((await h.admin.get(`/admin/v1/clients/${odditt.clientId}`)).json()).toMatchObject({ flow_vocabulary: 'ours' });
    const set = await h.admin.patch(`/admin/v1/clients/${odditt.clientId}`, { flow_vocabulary: 'odditt' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ client_id: odditt.clientId, flow_vocabulary: 'odditt' });
    expect((await h.admin.get(`/admin/v1/clients/${odditt.clientId}`)).json()).toMatchObject({ flow_vocabulary: 'odditt' });
    expect(await asOdditt.ok('/v1/account/config')).toMatchObject({ flow_vocabulary: 'odditt' });
    expect(await asOurs.ok('/v1/account/config')).toMatchObject({ flow_vocabulary: 'ours' });
    const log = (await h.admin.get(`/admin/v1/audit-log?client_id=${odditt.clientId}`)).json<{ results: Array<Record<string, unknown>> }>();
    expect(log.results[0]).toMatchObject({
      action: 'client.updated',
      actor: { type: 'operator' },
      before: { flow_vocabulary: 'ours' },
      after: { flow_vocabulary: 'odditt' },
    });
    for (const value of ['Odditt', 'fact_flow', '']) {
      expectError(await h.admin.patch(`/admin/v1/clients/${ours.clientId}`, { flow_vocabulary: value }), 422, 'VALIDATION_ERROR', 'flow_vocabulary');
    }
    expect((await h.admin.get(`/admin/v1/clients/${ours.clientId}`)).json()).toMatchObject({ flow_vocabulary: 'ours' });
  });

  it("names every flow and leg of the lists in the account's vocabulary; Odditt's lists have no plain single", async () => {
    const oursFlows = await allOf(asOurs, '/v1/trends/mixed-flows');
    expect(named(oursFlows)).toEqual(expectedNames(FLOWS, (f) => f.flow_type));
    const odditts = await allOf(asOdditt, '/v1/trends/mixed-flows');
    const expected = FLOWS.filter((f) => !isPlainSingle(f));
    expect(expected.length).toBeLessThan(FLOWS.length);
    expect(named(odditts)).toEqual(expectedNames(expected, oddittName));
    expect(new Set(named(odditts).map(([, type]) => type))).toEqual(new Set(ODDITT_VALUES));
    // The two accounts' pages are cached apart: ours asked again is still named in ours.
    expect(named((await asOurs.page<Flow>('/v1/trends/mixed-flows', { page: 1, page_size: 25 })).results).map(([, type]) => type)).not.toContain('fact_flow');
    // Odditt's `plain` lists parlays only, as Odditt documents; `fact` lists fact singles and parlays.
    expect(named(await allOf(asOdditt, '/v1/trends/flows', { flow_type: 'plain' }))).toEqual(
      expectedNames(FLOWS.filter((f) => f.flow_type === 'plain' && !isPlainSingle(f)), oddittName),
    );
    expect((await allOf(asOurs, '/v1/trends/flows', { flow_type: 'plain' })).map((f) => f.id)).toEqual(FLOWS.filter((f) => f.flow_type === 'plain').map((f) => f.id));
    expect((await allOf(asOdditt, '/v1/trends/flows')).map((f) => f.flow_type).sort()).toEqual(
      FLOWS.filter((f) => f.flow_type === 'fact').map(oddittName).sort(),
    );
  });

  it('names flows by id, flows on selections and tooltips so too; a plain single is missing there', async () => {
    const plainSingle = FLOWS.find(isPlainSingle);
    const ids = [9000, 9001, 9002, 8000, 8001, plainSingle?.id ?? 0];
    const byId = await asOdditt.ok<{ results: Flow[]; missing_ids: number[] }>('/v1/trends/flows-by-id', { flow_ids: ids });
    expect(named(byId.results)).toEqual(expectedNames(ids.slice(0, 5).map(flowById), oddittName));
    expect(byId.missing_ids).toEqual([plainSingle?.id]);
    const byIdOurs = await asOurs.ok<{ results: Flow[]; missing_ids: number[] }>('/v1/trends/flows-by-id', { flow_ids: ids });
    expect(named(byIdOurs.results)).toEqual(expectedNames(ids.map(flowById), (f) => f.flow_type));
    expect(byIdOurs.missing_ids).toEqual([]);
    // An Odditt name asked is read as before, and answered in the account's vocabulary.
    expect((await asOdditt.ok<{ results: Flow[] }>('/v1/trends/flows-by-id', { flow_ids: ids, flow_type: 'fact_flow_parlay' })).results.map((f) => [f.id, f.flow_type])).toEqual([
      [9000, 'fact_flow_parlay'],
    ]);

    const selections = (await allOf(asOurs, '/v1/trends/mixed-flows')).flatMap((f) => (f.event_betting_market_position_id === null ? [] : [f.event_betting_market_position_id]));
    const onSelections = { event_betting_market_position_ids: [...new Set(selections)].slice(0, 100) };
    const oursOn = (await asOurs.page<Flow>('/v1/trends/by-betting-market-position', onSelections)).results;
    const oddittOn = (await asOdditt.page<Flow>('/v1/trends/by-betting-market-position', onSelections)).results;
    expect(oursOn.some((f) => f.flow_type === 'plain' && f.bet_type === 'single')).toBe(true);
    expect(named(oddittOn)).toEqual(expectedNames(oursOn.map((f) => flowById(f.id)).filter((f) => !isPlainSingle(f)), oddittName));

    expect((await asOdditt.ok<{ flow_type: string }>('/v1/trends/flow-tooltip/fact/9000')).flow_type).toBe('fact_flow_parlay');
    expect((await asOdditt.ok<{ flow_type: string }>('/v1/trends/flow-tooltip/fun/8001')).flow_type).toBe('fun_flow');
    expect((await asOurs.ok<{ flow_type: string }>('/v1/trends/flow-tooltip/fact/9000')).flow_type).toBe('fact');
  });

  it("quotes a flow it listed, passing its record's flow_type as it came; a type of ours is answered as Odditt's name of it", async () => {
    for (const client of [ours, odditt]) {
      const set = await h.as(client).post('/v1/account/check-endpoint', { url: 'http://localhost/v1/trends/flows/quote-sandbox', method: 'POST', auth_token: 'sandbox' });
      expect(set.statusCode, set.body).toBe(200);
    }
    const selectionsOf = (f: Flow) => (f.bet_type === 'parlay' ? f.legs.map((leg) => leg.event_betting_market_position_id) : [f.event_betting_market_position_id]);
    const priced = (await allOf(asOdditt, '/v1/trends/mixed-flows')).filter((f) => selectionsOf(f).every((id) => id !== null));
    const single = priced.find((f) => f.bet_type === 'single');
    const parlay = priced.find((f) => f.bet_type === 'parlay');
    expect([single?.flow_type, parlay?.flow_type]).toEqual([expect.stringMatching(/^(fact|fun)_flow$/), expect.stringMatching(/_flow_parlay$/)]);
    const item = (f: Flow | undefined, flowType = f?.flow_type) => ({ flow_id: f?.id, flow_type: flowType, event_betting_market_position_ids: f ? selectionsOf(f) : [], country: 'US' });
    const singleType = flowById(single?.id ?? 0).flow_type;
    const asked = [item(single), item(parlay), item(single, singleType)];
    const answers = (await asOdditt.post<QuoteAnswer[]>('/v1/trends/flows/quote', asked)).json();
    expect(answers.map((a) => [a.flow_id, a.status, a.flow_type, a.body.flow_type])).toEqual([
      [single?.id, 200, single?.flow_type, single?.flow_type],
      [parlay?.id, 200, parlay?.flow_type, parlay?.flow_type],
      [single?.id, 200, `${singleType}_flow`, `${singleType}_flow`],
    ]);
    // Ours answers as asked, as before.
    expect((await asOurs.post<QuoteAnswer[]>('/v1/trends/flows/quote', [item(single, singleType)])).json().map((a) => [a.status, a.flow_type])).toEqual([[200, singleType]]);
    // `plain` is Odditt's plain_flow_parlay: a plain single has no name there, and answers 404.
    const plainSingle = (await allOf(asOurs, '/v1/trends/mixed-flows', { flow_type: 'plain', bet_type: 'single' })).find((f) => f.event_betting_market_position_id !== null);
    const plainAsked = [item(plainSingle, 'plain')];
    expect((await asOurs.post<QuoteAnswer[]>('/v1/trends/flows/quote', plainAsked)).json().map((a) => [a.status, a.flow_type])).toEqual([[200, 'plain']]);
    expect((await asOdditt.post<QuoteAnswer[]>('/v1/trends/flows/quote', plainAsked)).json().map((a) => [a.status, a.flow_type])).toEqual([[404, 'plain_flow_parlay']]);
  });
});
