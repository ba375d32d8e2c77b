import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUnauthorized } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { type Answer, type Reader, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';

/**
 * PostgreSQL text cannot hold U+0000. A NUL in a client name, or `%00` as a
 * client_id in an admin path, reached PostgreSQL and failed there (500). Every text input is
 * refused or answered before it can reach the database: a name is 422, a client_id that is
 * not a UUID names no client (404, decision 0014), a key or search matches nothing.
 */

const NUL = '\u0000';

function expectCode(res: Answer, status: number, code: string, field?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  const { error } = res.json<{ error: { code: string; details?: Array<{ field: string }> } }>();
  expect(error.code).toBe(code);
  if (field !== undefined) expect(error.details?.map((d) => d.field)).toContain(field);
}

describe.each(DIALECTS)('U+0000 in text inputs (%s)', (dialect) => {
  let h: Reader;
  let clientId: string;

  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
    clientId = (await h.t.client({ name: 'Existing', tier: 'pro', authMethod: 'both' })).clientId;
  });
  afterAll(async () => h.t.close());

  it('a client name with a NUL is 422 naming the name, and creates nothing', async () => {
    const before = await h.t.ctx.clients.count();
    for (const name of [`a${NUL}b`, NUL, `${NUL} `, `Acme${NUL}`]) {
      expectCode(await h.t.admin.post('/admin/v1/clients', { name, tier: 'pro', auth_method: 'both' }), 422, 'VALIDATION_ERROR', 'name');
    }
    expectCode(await h.t.admin.post('/admin/v1/clients', { name: 'Acme', tier: 'pro', auth_method: 'both', tenant_id: `${NUL}` }), 422, 'VALIDATION_ERROR', 'tenant_id');
    expect(await h.t.ctx.clients.count()).toBe(before);
  });

  it('a client_id with a NUL, or any other non-UUID, in an admin path is 404 on every client route', async () => {
    for (const id of ['%00', `${clientId}%00`, 'abc%00def', 'not-a-uuid', `${clientId.slice(0, -1)}%00`]) {
      expectCode(await h.t.admin.get(`/admin/v1/clients/${id}`), 404, 'NOT_FOUND');
      expectCode(await h.t.admin.patch(`/admin/v1/clients/${id}`, { tier: 'free' }), 404, 'NOT_FOUND');
      expectCode(await h.t.admin.post(`/admin/v1/clients/${id}/credentials`), 404, 'NOT_FOUND');
    }
    // The client itself is untouched, and still found by its own id.
    const res = await h.t.admin.get(`/admin/v1/clients/${clientId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ tier: string }>().tier).toBe('pro');
  });

  it('credentials with a NUL are 401, not a database error', async () => {
    const login = await h.t.anonymous.post('/v1/oauth/login', { client_id: `${clientId}${NUL}`, client_secret: `sds_${NUL}` });
    expectUnauthorized(login, 'invalid_credentials');
    for (const url of ['/v1/auth/refresh', '/v1/oauth/refresh']) {
      expectUnauthorized(await h.t.anonymous.post(url, { refresh_token: `sdr_${NUL}` }), 'token_invalid');
    }
  });

  it('keys and searches with a NUL match nothing: 404 for a key, an empty list for a search', async () => {
    expectCode(await h.get('/v1/references/teams?league_key=nba%00'), 404, 'NOT_FOUND');
    const search = await h.get('/v1/references/sports?search=%00');
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json<{ total_count: number }>().total_count).toBe(0);
    expectCode(await h.post('/v1/trends/flows', { league_key: `nba${NUL}` }), 404, 'NOT_FOUND');
    expectCode(await h.post('/v1/events/upcoming-events', { sport_key: `basketball${NUL}` }), 404, 'NOT_FOUND');
    expectCode(await h.post('/v1/odds/upcoming-odds-by-event', { event_id: 5001, operator_keys: [`x${NUL}`] }), 404, 'NOT_FOUND');
    const timezone = await h.post('/v1/events/upcoming-events', { timezone: `UTC${NUL}` });
    expect(timezone.statusCode, timezone.body).toBe(422);
  });

  it('the import refuses a NUL in any text it stores (422 naming the item) and writes nothing', async () => {
    const cases: Array<[Record<string, unknown[]>, string]> = [
      [{ sports: [{ id: 90, key: 'curling', name: `Curl${NUL}ing` }] }, 'sports[0].name'],
      [{ sports: [{ id: 90, key: `curl${NUL}`, name: 'Curling' }] }, 'sports[0].key'],
      [{ teams: [{ id: 990, key: 'x', name: 'X', location: `a${NUL}`, league_id: 10 }] }, 'teams[0].location'],
      [{ events: [{ id: 9990, league_id: 10, start_time: '2030-01-01T00:00:00Z', status: `ok${NUL}`, home_team_id: 100, away_team_id: 101 }] }, 'events[0].status'],
    ];
    for (const [dataset, field] of cases) {
      expectCode(await h.t.admin.post('/admin/v1/import', dataset), 422, 'VALIDATION_ERROR', field);
    }
    const sports = await h.get('/v1/references/sports?search=curl');
    expect(sports.json<{ total_count: number }>().total_count).toBe(0);
  });
});
