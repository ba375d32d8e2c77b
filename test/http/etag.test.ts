import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { importDataset } from '../helpers/data.js';
import { referenceDataset } from '../fixtures/references.js';

/**
 * List pages carry an ETag (a digest of the bytes sent); a GET with
 * If-None-Match naming it answers 304 with no body (RFC 9110 §13.1.2). POST lists carry the tag
 * too, but RFC 9110 gives them no 304. Pages past the end are answered, never cached.
 */
describe.each(DIALECTS)('ETag and If-None-Match on list pages (%s)', (dialect) => {
  const data = referenceDataset();
  const client = forSuite(() => reader({ dialect, dataset: { ...data } }));
  const TEAMS = '/v1/references/teams?league_key=nba';

  async function etagOf(url: string): Promise<string> {
    const res = await client.get(url);
    expect(res.statusCode, res.body).toBe(200);
    const etag = res.headers.etag;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    return String(etag);
  }

  it('a GET page has a strong ETag, the same on every request while the data is unchanged', async () => {
    const etag = await etagOf(TEAMS);
    expect(await etagOf(TEAMS)).toBe(etag);
    expect(await etagOf(`${TEAMS}&page=2`)).not.toBe(etag);
  });

  it('If-None-Match naming the current tag (or W/ of it, in a list, or *) → 304 with no body, the tag and the data policy', async () => {
    const etag = await etagOf(TEAMS);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await client.get(TEAMS, { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
  });

  it('If-None-Match naming another tag → 200 with the page', async () => {
    const res = await client.get(TEAMS, { 'if-none-match': '"not-the-tag"' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ results: unknown[] }>().results.length).toBe(20);
  });

  it('credentials come first: If-None-Match without a credential is 401, not 304', async () => {
    const etag = await etagOf(TEAMS);
    const res = await client.t.app.inject({ method: 'GET', url: TEAMS, headers: { 'if-none-match': etag } });
    expect(res.statusCode).toBe(401);
  });

  it('an import that leaves a page unchanged keeps its tag (304 still holds); one that changes it gives a new tag', async () => {
    const teamsPage3 = `${TEAMS}&page=3`;
    const before = await etagOf(TEAMS);
    const lastBefore = await etagOf(teamsPage3);
    const last = data.teams.filter((team) => team.league_id === data.leagues.find((l) => l.key === 'nba')?.id).at(-1);
    if (!last) throw new Error('the fixture has NBA teams');
    await importDataset(client.t, { teams: [{ ...last, name: `${last.name} Renamed` }] });

    expect((await client.get(TEAMS, { 'if-none-match': before })).statusCode).toBe(304);
    const changed = await client.get(teamsPage3, { 'if-none-match': lastBefore });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(lastBefore);
    expect(changed.body).toContain('Renamed');
  });

  it('a POST list carries an ETag but answers 200 with its page whatever If-None-Match says', async () => {
    const first = await client.post('/v1/events/upcoming-events', {});
    expect(first.statusCode, first.body).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    const again = await client.post('/v1/events/upcoming-events', {}, { 'if-none-match': etag });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
  });

  it('pages past the end answer 200 with empty results and are not kept in the page cache', async () => {
    const pages = () => client.t.ctx.readCache.usage().pages.entries;
    await client.get(TEAMS);
    const before = pages();
    for (const page of [4, 99, 5_000, 1_000_000]) {
      const res = await client.get(`${TEAMS}&page=${page}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ results: [], total_count: 47, page, page_size: 20, total_pages: 3 });
    }
    expect(pages()).toBe(before);
  });
});
