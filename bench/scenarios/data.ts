import type { Scenario } from '../load.js';
import type { DemoCredentials } from '../run.js';
import { call, type PageOfItems, type TokenPair } from './http.js';

interface League {
  id: number;
  qualified_key: string;
  sport_id: number;
}

/** An event with at least 100 odds (a marquee game), so that a page of 100 is full. */
export async function busiestEvent(baseUrl: string, auth: Record<string, string>): Promise<{ id: number; total: number }> {
  let busiest = { id: 0, total: -1 };
  for (let day = 0; day < 4 && busiest.total < 100; day += 1) {
    const event_date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    const events = await call<PageOfItems<{ id: number }>>(baseUrl, 'POST', '/v1/events/upcoming-events', { headers: auth, body: { event_date, page_size: 100 } });
    for (const event of events.results) {
      const odds = await call<PageOfItems<unknown>>(baseUrl, 'POST', '/v1/odds/upcoming-odds-by-event', { headers: auth, body: { event_id: event.id, page_size: 1 } });
      if (odds.total_count > busiest.total) busiest = { id: event.id, total: odds.total_count };
      if (busiest.total >= 100) break;
    }
  }
  return busiest;
}

export async function bearerFor(baseUrl: string, demo: DemoCredentials): Promise<string> {
  const pair = await call<TokenPair>(baseUrl, 'POST', '/v1/auth/login', { headers: { 'x-api-key': demo.api_key } });
  return `Bearer ${pair.access_token}`;
}

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The cached read the other figures are measured against: a page of teams by league key. */
async function teamsPage(baseUrl: string, auth: Record<string, string>): Promise<{ league: League; teamsPath: string }> {
  const leagues = await call<PageOfItems<League>>(baseUrl, 'GET', '/v1/references/leagues?page_size=100', { headers: auth });
  const league = leagues.results[0];
  if (!league) throw new Error('the demo dataset has no leagues');
  return { league, teamsPath: `/v1/references/teams?league_key=${encodeURIComponent(league.qualified_key)}` };
}

/** GET teams?league_key with Bearer against `baseUrl`, named `name` (the limits comparison, bench/limits.ts). */
export async function teamsWithBearer(baseUrl: string, demo: DemoCredentials, name: string, pid?: number): Promise<Scenario> {
  const auth = { authorization: await bearerFor(baseUrl, demo) };
  const { teamsPath } = await teamsPage(baseUrl, auth);
  return { name, baseUrl, ...(pid === undefined ? {} : { pid }), requests: [{ method: 'GET', path: teamsPath, headers: auth }] };
}

/** The read scenarios on the scale-1 demo dataset. */
export async function dataScenarios(baseUrl: string, demo: DemoCredentials): Promise<Scenario[]> {
  const authorization = await bearerFor(baseUrl, demo);
  const auth = { authorization };
  const { league, teamsPath } = await teamsPage(baseUrl, auth);

  const busiest = await busiestEvent(baseUrl, auth);

  return [
    { name: `GET teams?league_key (Bearer)`, requests: [{ method: 'GET', path: teamsPath, headers: auth }] },
    { name: `GET teams?league_key (X-API-Key)`, requests: [{ method: 'GET', path: teamsPath, headers: { 'x-api-key': demo.api_key } }] },
    {
      name: 'POST trends/flows, 2 filters',
      requests: [{ method: 'POST', path: '/v1/trends/flows', ...withAuth(json({ sport_ids: [league.sport_id], likelihood_type: 'likely' }), auth) }],
    },
    {
      name: `POST odds-by-event, page of 100 (${busiest.total} odds)`,
      requests: [{ method: 'POST', path: '/v1/odds/upcoming-odds-by-event', ...withAuth(json({ event_id: busiest.id, page_size: 100 }), auth) }],
    },
  ];
}

/** Deep paging on the scale-10 dataset: page 5,000 must cost about what page 1 costs. */
export async function deepPagingScenarios(baseUrl: string, demo: DemoCredentials): Promise<Scenario[]> {
  const auth = { authorization: await bearerFor(baseUrl, demo) };
  const first = await call<PageOfItems<unknown> & { total_pages: number }>(baseUrl, 'POST', '/v1/trends/flows', { headers: auth, body: { page_size: 25 } });
  const deep = Math.min(5000, first.total_pages);
  return [
    { name: `POST trends/flows page 1 of ${first.total_pages}`, requests: [{ method: 'POST', path: '/v1/trends/flows', ...withAuth(json({ page: 1, page_size: 25 }), auth) }] },
    { name: `POST trends/flows page ${deep}`, requests: [{ method: 'POST', path: '/v1/trends/flows', ...withAuth(json({ page: deep, page_size: 25 }), auth) }] },
  ];
}

function withAuth(request: { headers: Record<string, string>; body: string }, auth: Record<string, string>) {
  return { ...request, headers: { ...request.headers, ...auth } };
}

/**
 * Pages never asked before (not in the page cache), fetched one after another: the real cost
 * of a page once the filter's id list exists. Mean latency of `count` distinct pages from `first`.
 */
export async function coldPageLatency(baseUrl: string, demo: DemoCredentials, first: number, count: number): Promise<number> {
  const auth = { authorization: await bearerFor(baseUrl, demo) };
  // Not measured: builds the (default, fact) id list once, as any first request would.
  await call(baseUrl, 'POST', '/v1/trends/flows', { headers: auth, body: { page: first + count, page_size: 25 } });
  const started = performance.now();
  for (let page = first; page < first + count; page += 1) {
    await call(baseUrl, 'POST', '/v1/trends/flows', { headers: auth, body: { page, page_size: 25 } });
  }
  return (performance.now() - started) / count;
}
