import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { LEAGUE } from '../fixtures/references.js';
import { expectError } from '../helpers/responses.js';
import { forSuite, reader } from '../helpers/harness.js';
import { idsOf } from '../helpers/responses.js';
import { referenceDataset } from '../fixtures/references.js';

const ENDPOINTS = [
  'sports',
  'leagues',
  'teams',
  'players',
  'operators',
  'betting-markets',
  'countries',
  'betting-market-categories',
  'betting-market-positions',
  'event-periods',
  'odds-format',
] as const;

describe.each(DIALECTS)('reference lists: the paging law (%s)', (dialect) => {
  const data = referenceDataset();
  const h = forSuite(() => reader({ dialect, dataset: { ...data } }));

  /** Walks every page of `url` and checks the law against the ids the fixture says it holds. */
  async function expectPagingLaw(url: string, expected: number[], pageSize: number, sizes: number[]): Promise<void> {
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(expected.length);
    const sep = url.includes('?') ? '&' : '?';
    const walk = async () => {
      const seen: number[] = [];
      for (const [i, size] of sizes.entries()) {
        const body = await h.page(`${url}${sep}page=${i + 1}&page_size=${pageSize}`);
        expect(body).toMatchObject({ total_count: expected.length, total_pages: sizes.length, page: i + 1, page_size: pageSize });
        expect(body.results).toHaveLength(size);
        seen.push(...body.results.map((r) => r.id));
      }
      return seen;
    };
    const first = await walk();
    // The union of the pages is the whole set, without a duplicate, in id order.
    expect(first).toEqual(expected);
    expect(new Set(first).size).toBe(first.length);
    // The order is stable between calls.
    expect(await walk()).toEqual(first);

    const past = await h.page(`${url}${sep}page=${sizes.length + 1}&page_size=${pageSize}`);
    expect(past).toEqual({ results: [], total_count: expected.length, page: sizes.length + 1, page_size: pageSize, total_pages: sizes.length });
    const farPast = await h.page(`${url}${sep}page=1000000&page_size=${pageSize}`);
    expect(farPast).toMatchObject({ results: [], total_count: expected.length, total_pages: sizes.length });
  }

  it('teams of one league: 47 teams in pages of 20 are 20, 20, 7', async () => {
    const nba = idsOf(data.teams.filter((t) => t.league_id === LEAGUE.nba));
    expect(nba).toHaveLength(47);
    await expectPagingLaw('/v1/references/teams?league_key=nba', nba, 20, [20, 20, 7]);
  });

  it('sports: 5 in pages of 2 are 2, 2, 1', async () => {
    await expectPagingLaw('/v1/references/sports', idsOf(data.sports), 2, [2, 2, 1]);
  });

  it('leagues: 13 in pages of 5 are 5, 5, 3', async () => {
    await expectPagingLaw('/v1/references/leagues', idsOf(data.leagues), 5, [5, 5, 3]);
  });

  it('all teams: 68 in pages of 30 are 30, 30, 8', async () => {
    await expectPagingLaw('/v1/references/teams', idsOf(data.teams), 30, [30, 30, 8]);
  });

  it('players: 157 in pages of 50 are 50, 50, 50, 7; 141 NBA players in pages of 100 are 100, 41', async () => {
    await expectPagingLaw('/v1/references/players', idsOf(data.players), 50, [50, 50, 50, 7]);
    const nbaTeams = new Set(data.teams.filter((t) => t.league_id === LEAGUE.nba).map((t) => t.id));
    await expectPagingLaw('/v1/references/players?league_key=nba', idsOf(data.players.filter((p) => nbaTeams.has(p.team_id))), 100, [100, 41]);
  });

  it('operators: 23 in pages of 10 are 10, 10, 3', async () => {
    await expectPagingLaw('/v1/references/operators', idsOf(data.operators), 10, [10, 10, 3]);
  });

  it('betting markets: 25 in pages of 10 are 10, 10, 5', async () => {
    await expectPagingLaw('/v1/references/betting-markets', idsOf(data.betting_markets), 10, [10, 10, 5]);
  });

  it('an empty filtered list is one page-less answer: total 0, total_pages 0', async () => {
    expect(await h.page('/v1/references/teams?search=no-such-team')).toEqual({ results: [], total_count: 0, page: 1, page_size: 20, total_pages: 0 });
  });

  it.each(ENDPOINTS)('%s: defaults are page 1 and page_size 20', async (endpoint) => {
    const body = await h.page(`/v1/references/${endpoint}`);
    expect(body.page).toBe(1);
    expect(body.page_size).toBe(20);
    expect(body.results).toHaveLength(Math.min(20, body.total_count));
    expect(body.total_pages).toBe(Math.ceil(body.total_count / 20));
  });

  it.each(ENDPOINTS)('%s: page 0, page_size 0 and page_size 101 are 422 naming the field', async (endpoint) => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page=-3', 'page'],
    ] as const) {
      const error = expectError(await h.get(`/v1/references/${endpoint}?${query}`), 422, 'VALIDATION_ERROR');
      expect(error.details).toContainEqual({ field, rule: expect.any(String) });
    }
    // The maximum itself is allowed.
    expect((await h.get(`/v1/references/${endpoint}?page_size=100`)).statusCode).toBe(200);
  });

  it.each(ENDPOINTS)('%s: a non-integer page or page_size is 400 or 422, never 500', async (endpoint) => {
    for (const query of ['page=abc', 'page_size=abc', 'page=1.5', 'page_size=2.5', 'page=', 'page=1&page=2']) {
      const res = await h.get(`/v1/references/${endpoint}?${query}`);
      expect([400, 422], `${query}: ${res.body}`).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ error: { code: expect.stringMatching(/^(BAD_REQUEST|VALIDATION_ERROR)$/) } });
    }
  });

  it.each(ENDPOINTS)('%s: an unknown query parameter is 422 naming it', async (endpoint) => {
    const error = expectError(await h.get(`/v1/references/${endpoint}?league_kye=nba`), 422, 'VALIDATION_ERROR');
    expect(error.details).toContainEqual({ field: 'league_kye', rule: 'additionalProperties' });
  });

  it.each(ENDPOINTS)('%s: a call without credentials is 401, with a bad key too', async (endpoint) => {
    const none = expectError(await h.t.app.inject({ method: 'GET', url: `/v1/references/${endpoint}` }), 401, 'UNAUTHORIZED');
    expect(none.reason).toBe('missing_credentials');
    const bad = await h.t.app.inject({ method: 'GET', url: `/v1/references/${endpoint}`, headers: { 'x-api-key': 'sdk_not-a-real-key' } });
    expect(expectError(bad, 401, 'UNAUTHORIZED').reason).toBe('invalid_credentials');
  });
});
