import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smallDataset } from '../import/fixture.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Received, startStandIn } from './stand-in.js';

const TOKEN = 'operator-token-Zq81-never-shown';

/** The small dataset, with flow 1 naming its side: each single then bets on a selection. */
function dataset() {
  const data = smallDataset();
  return { ...data, flows: data.flows.map((f) => (f.id === 1 ? { ...f, position: 'home' } : f)) };
}

describe.each(DIALECTS)('POST /v1/trends/flows/quote (%s)', (dialect) => {
  let t: Harness;
  let pro: OnboardedClient;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  /** The selection id of each single flow, as the import assigned it. */
  const selection: Record<number, number> = {};

  beforeAll(async () => {
    standIn = await startStandIn();
    t = await harness({ dialect, env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128', OUTBOUND_TIMEOUT_MS: '1000' } });
    await t.import(dataset());
    pro = await t.client({ tier: 'pro', authMethod: 'api_key' });
    for (const flow of await t.database.db.selectFrom('flows').select(['id', 'selection_id']).execute()) {
      if (flow.selection_id !== null) selection[Number(flow.id)] = Number(flow.selection_id);
    }
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });
  beforeEach(() => {
    standIn.received.length = 0;
  });

  const register = (url: string, extra: object = {}) =>
    t.as({ apiKey: pro.apiKey }).post('/v1/account/check-endpoint', { url, method: 'POST', auth_token: TOKEN, ...extra });
  const quote = (items: object[], apiKey = pro.apiKey): Promise<LightMyRequestResponse> => t.as({ apiKey }).post('/v1/trends/flows/quote', items);
  const item = (flowId: number, flowType: string, ids: number[], extra: object = {}) => ({ flow_id: flowId, flow_type: flowType, event_betting_market_position_ids: ids, country: 'us', ...extra });

  it('is 412 PRECONDITION_FAILED while no check endpoint is set', async () => {
    const res = await quote([item(3, 'plain', [1])]);
    expect(res.statusCode).toBe(412);
    expect(res.json().error.code).toBe('PRECONDITION_FAILED');
  });

  it('sends the endpoint exactly the hydrated payloads, with the credential, and answers per item in input order', async () => {
    expect((await register(standIn.url('/ok'))).statusCode).toBe(200);
    const s1 = selection[1] ?? 0;
    const s2 = selection[2] ?? 0;
    const s3 = selection[3] ?? 0;
    const res = await quote([
      item(3, 'plain', [s3], { region: 'nj' }),
      item(999, 'fact', [s1]),
      item(5, 'fact_flow_parlay', [s1, s2]),
      item(1, 'fact', [s3]),
      item(1, 'fact_flow', [s1]),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { flow_id: 3, flow_type: 'plain', status: 200, body: { priced: 3 } },
      { flow_id: 999, flow_type: 'fact', status: 404, body: { error: { code: 'NOT_FOUND', message: expect.stringMatching(/999/) } } },
      { flow_id: 5, flow_type: 'fact_flow_parlay', status: 200, body: { priced: 5 } },
      { flow_id: 1, flow_type: 'fact', status: 404, body: { error: { code: 'NOT_FOUND', message: `event_betting_market_position_id ${s3} is not a selection of flow 1` } } },
      { flow_id: 1, flow_type: 'fact_flow', status: 200, body: { priced: 1 } },
    ]);

    const byFlow = (id: number) => standIn.received.find((r: Received) => (r.body as { flow_id: number }).flow_id === id);
    expect(standIn.received).toHaveLength(3);
    expect(standIn.received.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const celtics = { id: 1000, key: 'boston-celtics', name: 'Boston Celtics' };
    const knicks = { id: 1001, key: 'new-york-knicks', name: 'New York Knicks' };
    const event = { id: 100, start_time: '2030-01-05T00:30:00.000Z', home_team: celtics, away_team: knicks };
    expect(byFlow(3)?.body).toEqual({
      flow_id: 3,
      flow_type: 'plain',
      country: 'US',
      region: 'NJ',
      event_betting_market_position_maps: [
        {
          event_betting_market_position_id: s3,
          event,
          betting_market: { id: 2, key: 'total', name: 'Total' },
          position: 'under',
          line: 221.5,
          period: null,
          player: null,
          prices: [{ operator: { id: 2, key: 'kingsbet', name: 'Kingsbet' }, decimal: 1.91, american: -110, status: 'open', updated_at: expect.any(String) }],
        },
      ],
    });
    expect(byFlow(5)?.body).toMatchObject({
      flow_id: 5,
      flow_type: 'fact_flow_parlay',
      country: 'US',
      event_betting_market_position_maps: [
        { event_betting_market_position_id: s1, position: 'home', line: null, prices: [{ operator: { id: 1 }, decimal: 1.8, american: -125 }] },
        { event_betting_market_position_id: s2, betting_market: { id: 3, key: 'player-points' }, position: 'over', line: 26.5, prices: [] },
      ],
    });
    expect(byFlow(5)?.body).not.toHaveProperty('region');
  });

  it('gives 504 to the item whose call times out, while the others succeed', async () => {
    await register(standIn.url('/slow-3'));
    const res = await quote([item(1, 'fact', [selection[1] ?? 0]), item(3, 'plain', [selection[3] ?? 0]), item(2, 'fun', [selection[2] ?? 0])]);
    expect(res.json().map((r: { status: number }) => r.status)).toEqual([200, 504, 200]);
    expect(res.json()[1].body.error.code).toBe('UPSTREAM_TIMEOUT');
  }, 30_000);

  it('gives 502 for an answer that is not 2xx or not JSON', async () => {
    await register(standIn.url('/error'));
    expect((await quote([item(3, 'plain', [selection[3] ?? 0])])).json()[0]).toMatchObject({ status: 502, body: { error: { code: 'UPSTREAM_ERROR' } } });
    await register(standIn.url('/text'));
    expect((await quote([item(3, 'plain', [selection[3] ?? 0])])).json()[0]).toMatchObject({ status: 502, body: { error: { message: 'the answer is not JSON' } } });
  });

  it('gives 502 for an answer nested deeper than any price needs, and the other items their answers', async () => {
    await register(standIn.url('/deep'));
    const res = await quote([item(3, 'plain', [selection[3] ?? 0])]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()[0]).toMatchObject({ status: 502, body: { error: { code: 'UPSTREAM_ERROR', message: expect.stringMatching(/nested deeper than \d+ levels/) } } });
    await register(standIn.url('/deep'), { allow_multiple: true });
    expect((await quote([item(1, 'fact', [selection[1] ?? 0]), item(3, 'plain', [selection[3] ?? 0])])).json().map((r: { status: number }) => r.status)).toEqual([502, 502]);
  });

  it('with allow_multiple, sends one call with the array and hands each item its entry', async () => {
    await register(standIn.url('/ok'), { allow_multiple: true, auth_header_name: 'X-API-Key' });
    const res = await quote([item(1, 'fact', [selection[1] ?? 0]), item(7, 'fact', [1]), item(3, 'plain', [selection[3] ?? 0])]);
    expect(res.json().map((r: { status: number; body: unknown }) => [r.status, r.body])).toEqual([
      [200, { priced: 1 }],
      [404, expect.any(Object)],
      [200, { priced: 3 }],
    ]);
    expect(standIn.received).toHaveLength(1);
    expect(standIn.received[0]?.headers['x-api-key']).toBe(TOKEN);
    expect((standIn.received[0]?.body as Array<{ flow_id: number }>).map((p) => p.flow_id)).toEqual([1, 3]);
  });

  it('counts the request once against the client limits, logs one line per call without the token, and counts the calls', async () => {
    await register(standIn.url('/ok'));
    const remaining = async () => Number((await quote([item(1, 'fact', [selection[1] ?? 0]), item(3, 'plain', [selection[3] ?? 0])])).headers['x-ratelimit-remaining']);
    const first = await remaining();
    expect(await remaining()).toBe(first - 1);
    const lines = t.logs().split('\n').filter((line) => line.includes('"outbound call"'));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.at(-1)).toContain(pro.clientId);
    expect(t.logs()).not.toContain(TOKEN);
    const metrics = await t.anonymous.get('/metrics');
    expect(metrics.body).toMatch(/outbound_calls_total\{outcome="answered"\} [1-9]/);
    expect(metrics.body).toMatch(/outbound_call_duration_seconds_count [1-9]/);
  });

  it('validates the batch: an array of 1 to 50 items, each with its fields', async () => {
    for (const body of [[], Array.from({ length: 51 }, () => item(1, 'fact', [1])), [{ flow_id: 1, flow_type: 'fact', country: 'US' }], [item(1, 'odd', [1])]]) {
      expect((await quote(body)).statusCode).toBe(422);
    }
    const object = await t.as({ apiKey: pro.apiKey }).post('/v1/trends/flows/quote', item(1, 'fact', [1]));
    expect([400, 422]).toContain(object.statusCode);
  });

  it('is for pro and enterprise: 403 for free', async () => {
    const free = await t.client({ tier: 'free', authMethod: 'api_key' });
    expect((await quote([item(1, 'fact', [1])], free.apiKey)).statusCode).toBe(403);
  });
});

describe.each(DIALECTS)('quotes without loopback opened (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  beforeAll(async () => {
    t = await harness({ dialect, env: { OUTBOUND_CALLS_PER_MINUTE: '2' } });
    await t.import(dataset());
    client = await t.client({ tier: 'enterprise', authMethod: 'api_key' });
  });
  afterAll(async () => t.close());

  const selectionOf = async (flowId: number) =>
    Number((await t.database.db.selectFrom('flows').select('selection_id').where('id', '=', flowId).executeTakeFirstOrThrow()).selection_id);
  const quote = (items: object[]): Promise<LightMyRequestResponse> => t.as({ apiKey: client.apiKey }).post('/v1/trends/flows/quote', items);

  it('answers our own sandbox in process, the same for the same payload', async () => {
    const set = await t.as({ apiKey: client.apiKey }).post('/v1/account/check-endpoint', { url: 'http://localhost/v1/trends/flows/quote-sandbox', method: 'POST', auth_token: TOKEN });
    expect(set.statusCode, set.body).toBe(200);
    const items = [1, 3].map((id) => ({ flow_id: id, flow_type: id === 1 ? 'fact' : 'plain', country: 'US' }));
    const withIds = await Promise.all(items.map(async (i) => ({ ...i, event_betting_market_position_ids: [await selectionOf(i.flow_id)] })));
    const first = await quote(withIds);
    expect(first.statusCode).toBe(200);
    expect(first.json().map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expect(first.json()[1].body).toMatchObject({ flow_id: 3, flow_type: 'plain', event_betting_market_position_maps: [{ position: 'under' }] });
    expect((await quote(withIds)).json()).toEqual(first.json());
  });

  it('refuses a call to a loopback endpoint registered under another configuration, and caps the calls of the minute', async () => {
    // The endpoint was stored when loopback was open (an operator narrowed OUTBOUND_ALLOW_CIDRS since): each call checks again.
    const cipherless = await t.as({ apiKey: client.apiKey }).post('/v1/account/check-endpoint', { url: 'https://pricing.example.com/check', method: 'POST', auth_token: TOKEN });
    expect(cipherless.statusCode).toBe(200);
    await t.database.db.updateTable('check_endpoints').set({ url: 'http://127.0.0.1:9/check' }).where('client_id', '=', client.clientId).execute();
    const id = await selectionOf(3);
    const res = await quote([1, 2, 3].map(() => ({ flow_id: 3, flow_type: 'plain', event_betting_market_position_ids: [id], country: 'US' })));
    expect(res.json().map((r: { status: number; body: { error: { code: string } } }) => [r.status, r.body.error.code]).sort()).toEqual([
      [429, 'RATE_LIMIT_EXCEEDED'],
      [502, 'UPSTREAM_REFUSED'],
      [502, 'UPSTREAM_REFUSED'],
    ]);
  });
});
