import type { Scenario } from '../load.js';
import type { DemoCredentials } from '../run.js';
import { call, type PageOfItems } from './http.js';
import { bearerFor, busiestEvent } from './data.js';

/**
 * The hot path's answers, from small to large: the account (about 170 B), a page of teams (about
 * 3.4 KB), with each credential; a page of 25 flows (about 13 KB) and of 100 odds (about 30 KB).
 */
export async function hotPathScenarios(baseUrl: string, demo: DemoCredentials): Promise<Scenario[]> {
  const bearer = { authorization: await bearerFor(baseUrl, demo) };
  const apiKey = { 'x-api-key': demo.api_key };
  const leagues = await call<PageOfItems<{ qualified_key: string }>>(baseUrl, 'GET', '/v1/references/leagues?page_size=100', { headers: bearer });
  const league = leagues.results[0];
  if (!league) throw new Error('the demo dataset has no leagues');
  const teams = `/v1/references/teams?league_key=${encodeURIComponent(league.qualified_key)}`;
  const busiest = await busiestEvent(baseUrl, bearer);
  const post = (path: string, body: unknown) => ({
    method: 'POST' as const,
    path,
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return [
    { name: 'GET /v1/account/config (Bearer)', requests: [{ method: 'GET', path: '/v1/account/config', headers: bearer }] },
    { name: 'GET /v1/account/config (X-API-Key)', requests: [{ method: 'GET', path: '/v1/account/config', headers: apiKey }] },
    { name: 'GET teams page (Bearer)', requests: [{ method: 'GET', path: teams, headers: bearer }] },
    { name: 'GET teams page (X-API-Key)', requests: [{ method: 'GET', path: teams, headers: apiKey }] },
    { name: 'POST trends/flows, page of 25', requests: [post('/v1/trends/flows', { page_size: 25 })] },
    { name: 'POST odds-by-event, page of 100', requests: [post('/v1/odds/upcoming-odds-by-event', { event_id: busiest.id, page_size: 100 })] },
  ];
}
