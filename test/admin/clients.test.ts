import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accountWithApiKey, apiKeyLogin, expectUnauthorized, oauthLogin, pairOf, refresh } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

interface ClientBody {
  client_id: string;
  tenant_id: string;
  name: string;
  tier: string;
  auth_method: string;
  disabled: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
type WithCredentials = ClientBody & { api_key: string; client_secret: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(DIALECTS)('admin API: client accounts (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  async function create(body: object = { name: 'Acme', tier: 'pro', auth_method: 'both' }): Promise<WithCredentials> {
    const res = await t.admin.post('/admin/v1/clients', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<WithCredentials>();
  }

  function clientOf(res: LightMyRequestResponse): ClientBody {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ClientBody>();
  }

  it('onboards a client: 201 with the client, its credentials once, and Cache-Control: no-store', async () => {
    const res = await t.admin.post('/admin/v1/clients', { name: 'Acme', tier: 'pro', auth_method: 'both' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<WithCredentials>();
    expect(Object.keys(body).sort()).toEqual(
      [
        ...['api_key', 'auth_method', 'client_id', 'client_secret', 'created_at', 'disabled', 'name', 'tenant_id', 'tier'],
        ...['rate_limit_per_minute', 'daily_quota', 'flow_vocabulary', 'effective_limits'],
      ].sort(),
    );
    expect(body).toMatchObject({ name: 'Acme', tier: 'pro', auth_method: 'both', disabled: false, rate_limit_per_minute: null, daily_quota: null, flow_vocabulary: 'ours' });
    expect(body.client_id).toMatch(UUID);
    expect(body.tenant_id).toMatch(UUID);
    expect(body.created_at).toMatch(ISO);
    expect(new Date(body.created_at).getTime()).toBe(t.clock.now());
    expect(body.api_key).toMatch(/^sdk_/);
    expect(body.client_secret).toMatch(/^sds_/);

    // The credentials work at once, and the read endpoints never show them again.
    expect((await accountWithApiKey(t, body.api_key)).statusCode).toBe(200);
    pairOf(await oauthLogin(t, body.client_id, body.client_secret));
    const fetched = await t.admin.get(`/admin/v1/clients/${body.client_id}`);
    // Every admin answer is no-store now, not only those with credentials (decision 0031).
    expect(fetched.headers['cache-control']).toBe('no-store');
    expect(fetched.body).not.toContain(body.api_key);
    expect(fetched.body).not.toContain(body.client_secret);
    const { api_key: _key, client_secret: _secret, ...client } = body;
    expect(clientOf(fetched)).toEqual({ ...client, updated_at: body.created_at, deleted_at: null });
  });

  it('adds a client to an existing tenant when tenant_id is given', async () => {
    const first = await create();
    const second = await create({ name: 'Acme EU', tier: 'enterprise', auth_method: 'oauth', tenant_id: first.tenant_id });
    expect(second.tenant_id).toBe(first.tenant_id);
    expect(second.client_id).not.toBe(first.client_id);
  });

  it('lists clients in the paginated shape: every client once, in a stable order', async () => {
    for (let i = 0; i < 5; i++) await create({ name: `Paged ${i}`, tier: 'free', auth_method: 'api_key' });
    const all = await t.admin.get('/admin/v1/clients?page_size=100');
    const everything = all.json<{ results: ClientBody[]; total_count: number }>();
    const total = everything.total_count;
    expect(total).toBeGreaterThanOrEqual(5);
    expect(everything.results).toHaveLength(total);
    for (const client of everything.results) expect(client).not.toHaveProperty('api_key');

    const pageSize = 2;
    const pages = Math.ceil(total / pageSize);
    const seen: string[] = [];
    for (let page = 1; page <= pages + 1; page++) {
      const res = await t.admin.get(`/admin/v1/clients?page=${page}&page_size=${pageSize}`);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ results: ClientBody[]; total_count: number; page: number; page_size: number; total_pages: number }>();
      expect(body).toMatchObject({ total_count: total, page, page_size: pageSize, total_pages: pages });
      // Full pages, then the remainder; a page past the end is empty, not an error.
      expect(body.results).toHaveLength(page < pages ? pageSize : page === pages ? total - pageSize * (pages - 1) : 0);
      seen.push(...body.results.map((c) => c.client_id));
    }
    expect(seen).toEqual(everything.results.map((c) => c.client_id));
  });

  it('defaults to page 1 of 20', async () => {
    const res = await t.admin.get('/admin/v1/clients');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ page: 1, page_size: 20 });
  });

  it('answers 404 for an unknown or malformed client_id', async () => {
    for (const id of ['5b0e1c9e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const [method, url] of [
        ['GET', `/admin/v1/clients/${id}`],
        ['PATCH', `/admin/v1/clients/${id}`],
        ['POST', `/admin/v1/clients/${id}/credentials`],
      ] as const) {
        const res = await t.admin.request({ method, url, ...(method === 'PATCH' ? { payload: { tier: 'pro' } } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), request_id: expect.any(String) } });
      }
    }
  });

  it('PATCH changes tier, auth_method and disabled, each taking effect on the next request', async () => {
    const client = await create();
    expect((await accountWithApiKey(t, client.api_key)).statusCode).toBe(200);
    t.clock.advance(1000);

    const tiered = clientOf(await t.admin.patch(`/admin/v1/clients/${client.client_id}`, { tier: 'enterprise' }));
    expect(tiered).toMatchObject({ tier: 'enterprise', auth_method: 'both', disabled: false, created_at: client.created_at });
    expect(new Date(tiered.updated_at).getTime()).toBe(t.clock.now());
    expect((await accountWithApiKey(t, client.api_key)).json()).toMatchObject({ tier: 'enterprise' });

    const disabled = clientOf(await t.admin.patch(`/admin/v1/clients/${client.client_id}`, { disabled: true }));
    expect(disabled.disabled).toBe(true);
    expectUnauthorized(await accountWithApiKey(t, client.api_key), 'client_disabled');
    expectUnauthorized(await oauthLogin(t, client.client_id, client.client_secret), 'client_disabled');

    clientOf(await t.admin.patch(`/admin/v1/clients/${client.client_id}`, { disabled: false, auth_method: 'oauth' }));
    expectUnauthorized(await accountWithApiKey(t, client.api_key), 'flow_not_enabled');
    pairOf(await oauthLogin(t, client.client_id, client.client_secret));

    expect(clientOf(await t.admin.get(`/admin/v1/clients/${client.client_id}`))).toMatchObject({ auth_method: 'oauth', disabled: false, tier: 'enterprise' });
  });

  it('rotates credentials: new ones shown once, the old key, secret and refresh tokens stop working', async () => {
    const client = await create();
    const before = pairOf(await apiKeyLogin(t, client.api_key));
    // Warm the key cache, so that the test shows invalidation rather than a cold read.
    expect((await accountWithApiKey(t, client.api_key)).statusCode).toBe(200);

    const res = await t.admin.post(`/admin/v1/clients/${client.client_id}/credentials`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const rotated = res.json<WithCredentials>();
    expect(rotated).toMatchObject({ client_id: client.client_id, tenant_id: client.tenant_id, name: 'Acme', tier: 'pro', auth_method: 'both' });
    expect(rotated.updated_at).toMatch(ISO);
    expect(rotated.api_key).toMatch(/^sdk_/);
    expect(rotated.api_key).not.toBe(client.api_key);
    expect(rotated.client_secret).not.toBe(client.client_secret);

    expectUnauthorized(await accountWithApiKey(t, client.api_key), 'invalid_credentials');
    expectUnauthorized(await oauthLogin(t, client.client_id, client.client_secret), 'invalid_credentials');
    expect((await refresh(t, 'api_key', before.refresh_token)).statusCode).toBe(401);
    expect((await accountWithApiKey(t, rotated.api_key)).statusCode).toBe(200);
    pairOf(await oauthLogin(t, client.client_id, rotated.client_secret));

    // The same through the authenticator the whole app uses.
    await expect(Promise.resolve().then(() => t.ctx.authenticator.authenticate({ 'x-api-key': client.api_key }))).rejects.toMatchObject({ reason: 'invalid_credentials' });
    await expect(Promise.resolve().then(() => t.ctx.authenticator.authenticate({ 'x-api-key': rotated.api_key }))).resolves.toMatchObject({ via: 'api_key' });
  });
});
