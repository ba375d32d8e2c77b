import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Harness, harness } from '../helpers/harness.js';

/**
 * Odditt's own Python client, unchanged (github.com/Odditt-Betflow/odditt-api-client-python), used
 * as its documentation shows: it lists flows, then quotes the first one passing its record's
 * `flow_type`. The client is not part of this repository: set ODDITT_CLIENT to a checkout of it
 * (python3 with pydantic, urllib3 and python-dateutil) to run these; without it they are skipped.
 */
const CLIENT = process.env.ODDITT_CLIENT;
const runnable = CLIENT !== undefined && existsSync(join(CLIENT, 'odditt_api_client'));

/** What the client listed and what its quote answered, or why the client refused to send the quote, as JSON on stdout. */
const SCRIPT = `
import json, os
import odditt_api_client as o
base = os.environ['BASE_URL']
api = o.AuthSession.from_api_key(os.environ['API_KEY'], host=base).api_client
o.AccountApi(api).v1_account_check_endpoint_post(o.AuthSetCheckEndpointRequest(url=base + '/v1/trends/flows/quote-sandbox', method='POST', auth_token='sandbox-token'))
trends = o.TrendsApi(api)
flow = trends.v1_trends_mixed_flows_post(o.V1TrendsFlowsPostRequest(page=1, page_size=25))['results'][0]
ids = [leg['event_betting_market_position_id'] for leg in flow['legs']] or [flow['event_betting_market_position_id']]
try:
    item = o.TrendsQuoteFlowItem(flow_id=flow['id'], flow_type=flow['flow_type'], event_betting_market_position_ids=ids, country='US')
except ValueError as e:
    print(json.dumps({'listed': flow['flow_type'], 'refused': str(e)}))
else:
    results = trends.v1_trends_flows_quote_post([item])
    print(json.dumps({'listed': flow['flow_type'], 'flow_id': flow['id'], 'quoted': [[r.flow_id, r.flow_type, r.status] for r in results]}))
`;

interface Outcome {
  listed: string;
  flow_id?: number;
  quoted?: Array<[number, string, number]>;
  refused?: string;
}

function runClient(baseUrl: string, apiKey: string): Promise<Outcome> {
  const env = { PATH: process.env.PATH ?? '', PYTHONPATH: CLIENT ?? '', BASE_URL: baseUrl, API_KEY: apiKey };
  return new Promise((resolve, reject) => {
    execFile('python3', ['-c', SCRIPT], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Outcome);
    });
  });
}

describe.skipIf(!runnable).each(DIALECTS)("Odditt's Python client quotes a flow it listed (%s)", (dialect) => {
  let h: Harness;
  let origin: string;
  let client: OnboardedClient;

  beforeAll(async () => {
    h = await harness({ dialect });
    await loadDemoData(h.ctx, { scale: 0.05 });
    client = await h.client({ tier: 'pro', name: 'Migrated From Odditt' });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const address = h.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
    origin = `http://127.0.0.1:${address.port}`;
  }, 120_000);
  afterAll(async () => h?.close());

  it("refuses before any request in our vocabulary; with flow_vocabulary odditt, quotes passing the record's flow_type as it came", async () => {
    const refused = await runClient(origin, client.apiKey);
    expect(refused.listed).toMatch(/^(fact|fun|plain)$/);
    expect(refused.refused).toMatch(/must be one of enum values/);

    expect((await h.admin.patch(`/admin/v1/clients/${client.clientId}`, { flow_vocabulary: 'odditt' })).statusCode).toBe(200);
    const quoted = await runClient(origin, client.apiKey);
    expect(quoted.refused).toBeUndefined();
    expect(quoted.listed).toMatch(/^(fact_flow|fun_flow|fact_flow_parlay|fun_flow_parlay|plain_flow_parlay)$/);
    expect(quoted.quoted).toEqual([[quoted.flow_id, quoted.listed, 200]]);
  }, 120_000);
});
