import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SportsDataClient, type Team } from '../src/index.js';
import { capturingFetch, importLeague, type Server, startServer } from './helpers/server.js';

/** Paging without thinking, over 53 teams of one league imported through the admin API. */
describe('paging: iterate yields every item, pages() every page, until page >= total_pages', () => {
  let server: Server;
  let api: SportsDataClient;
  let requests: ReturnType<typeof capturingFetch>['requests'];
  beforeAll(async () => {
    server = await startServer();
    await importLeague(server, 53);
    const client = await server.t.client();
    const capture = capturingFetch();
    requests = capture.requests;
    api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, fetch: capture.fetch });
  });
  afterAll(async () => server.close());

  const teamRequests = () => requests.filter((r) => new URL(r.url).pathname === '/v1/references/teams').map((r) => new URL(r.url).search);

  it('iterate yields exactly total_count items for 53 teams with page_size 20, each once, in order', async () => {
    const first = await api.references.teams.list({ league_key: 'nba', page_size: 20 });
    expect(first).toMatchObject({ total_count: 53, total_pages: 3, page: 1, page_size: 20 });
    requests.length = 0;
    const teams: Team[] = [];
    for await (const team of api.references.teams.iterate({ league_key: 'nba', page_size: 20 })) teams.push(team);
    expect(teams).toHaveLength(first.total_count);
    expect(teams.map((t) => t.id)).toEqual(Array.from({ length: 53 }, (_, i) => 1001 + i));
    expect(teamRequests()).toEqual(['?league_key=nba&page_size=20&page=1', '?league_key=nba&page_size=20&page=2', '?league_key=nba&page_size=20&page=3']);
  });

  it('pages() yields 3 pages of 20, 20 and 13, and asks for no fourth', async () => {
    requests.length = 0;
    const sizes: number[] = [];
    for await (const page of api.references.teams.pages({ league_key: 'nba', page_size: 20 })) sizes.push(page.results.length);
    expect(sizes).toEqual([20, 20, 13]);
    expect(teamRequests()).toHaveLength(3);
  });

  it('starts from the page given, and an empty list is one empty page', async () => {
    const pages: number[] = [];
    for await (const page of api.references.teams.pages({ league_key: 'nba', page_size: 20, page: 2 })) pages.push(page.page);
    expect(pages).toEqual([2, 3]);
    const empty = [];
    for await (const page of api.references.teams.pages({ search: 'no such team' })) empty.push(page);
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ total_count: 0, total_pages: 0, results: [] });
  });

  it('a caller that stops early sends no further request', async () => {
    requests.length = 0;
    for await (const team of api.references.teams.iterate({ league_key: 'nba', page_size: 20 })) {
      if (team.id === 1005) break;
    }
    expect(teamRequests()).toHaveLength(1);
  });
});
