import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUnauthorized } from '../auth/auth-helpers.js';
import { adminHeaders, DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

const VALID = { name: 'Acme', tier: 'pro', auth_method: 'both' };
const UNKNOWN_ID = '5b0e1c9e-0000-4000-8000-000000000000';

describe.each(DIALECTS)('admin API: guard and bad input (%s)', (dialect) => {
  let t: Harness;
  let clientId: string;
  beforeAll(async () => {
    t = await harness({ dialect });
    clientId = (await t.ctx.clients.create({ name: 'Existing', tier: 'pro', authMethod: 'both' })).account.id;
  });
  afterAll(async () => t.close());

  it('is in the document, /openapi.json and the one /docs reads: its paths, the AdminToken scheme and the admin tag', async () => {
    for (const url of ['/openapi.json', '/docs/json']) {
      const shown = adminApiIn((await t.app.inject({ method: 'GET', url })).json<Json>());
      expect(shown.paths, url).toEqual(expect.arrayContaining(['/admin/v1/clients', '/admin/v1/clients/{client_id}', '/admin/v1/import', '/admin/v1/usage']));
      expect(shown, url).toMatchObject({ scheme: true, tag: true });
    }
  });

  it('answers 401 without the admin token or with a wrong one, before reading the request', async () => {
    expectUnauthorized(await t.app.inject({ method: 'GET', url: '/admin/v1/clients' }), 'missing_credentials');
    const wrong = { authorization: 'Bearer not-the-admin-token-but-long-enough-0000' };
    expectUnauthorized(await t.app.inject({ method: 'GET', url: '/admin/v1/clients', headers: wrong }), 'invalid_credentials');
    expectUnauthorized(await t.app.inject({ method: 'POST', url: '/admin/v1/clients', headers: wrong, payload: 'not json{' }), 'invalid_credentials');
    expectUnauthorized(await t.app.inject({ method: 'GET', url: `/admin/v1/clients/${clientId}`, headers: { authorization: 'Basic abc' } }), 'invalid_credentials');
    expect(await t.ctx.clients.count()).toBe(1);
  });

  it('refuses a search with U+0000 (NUL), which PostgreSQL cannot compare: 422, not a 500', async () => {
    const answer = await t.admin.get('/admin/v1/clients?search=a%00b');
    expect(answer.statusCode).toBe(422);
    expect(answer.json<{ error: { details: { field: string }[] } }>().error.details[0]?.field).toBe('search');
  });

  it('names an unknown tier or auth_method (422)', async () => {
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, tier: 'gold' }), 422, 'VALIDATION_ERROR', [{ field: 'tier', rule: 'enum' }]);
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, auth_method: 'password' }), 422, 'VALIDATION_ERROR', [{ field: 'auth_method', rule: 'enum' }]);
    expect((await t.admin.post<{ error: { message: string } }>('/admin/v1/clients', { ...VALID, tier: 'gold' })).json().error.message).toMatch(/tier/);
  });

  it('names a missing field (422)', async () => {
    const { name: _name, ...noName } = VALID;
    expectError(await t.admin.post('/admin/v1/clients', noName), 422, 'VALIDATION_ERROR', [{ field: 'name', rule: 'required' }]);
    expectError(await t.admin.post('/admin/v1/clients', {}), 422, 'VALIDATION_ERROR', [
      { field: 'name', rule: 'required' },
      { field: 'tier', rule: 'required' },
      { field: 'auth_method', rule: 'required' },
    ]);
  });

  it('refuses an empty, blank or over-long name, an unknown field and a malformed tenant_id (422)', async () => {
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, name: '' }), 422, 'VALIDATION_ERROR', [{ field: 'name', rule: 'minLength' }]);
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, name: '   ' }), 422, 'VALIDATION_ERROR', [{ field: 'name', rule: 'pattern' }]);
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, name: 'x'.repeat(201) }), 422, 'VALIDATION_ERROR', [{ field: 'name', rule: 'maxLength' }]);
    expect((await t.admin.post('/admin/v1/clients', { ...VALID, name: 'x'.repeat(200) })).statusCode).toBe(201);
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, authMethod: 'both' }), 422, 'VALIDATION_ERROR', [{ field: 'authMethod', rule: 'additionalProperties' }]);
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, tenant_id: 'acme' }), 422, 'VALIDATION_ERROR', [{ field: 'tenant_id', rule: 'format' }]);
  });

  it('answers a wrong JSON type or malformed JSON with 400', async () => {
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, name: 42 }), 400, 'BAD_REQUEST', [{ field: 'name', rule: 'type' }]);
    expectError(await t.admin.post('/admin/v1/clients', [VALID]), 400, 'BAD_REQUEST');
    expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { disabled: 'yes' }), 400, 'BAD_REQUEST', [{ field: 'disabled', rule: 'type' }]);
    expectError(
      await t.app.inject({ method: 'POST', url: '/admin/v1/clients', headers: { ...adminHeaders, 'content-type': 'application/json' }, payload: '{"name":' }),
      400,
      'BAD_REQUEST',
    );
  });

  it('answers an unknown tenant_id with 404 and creates nothing', async () => {
    const before = await t.ctx.clients.count();
    expectError(await t.admin.post('/admin/v1/clients', { ...VALID, tenant_id: UNKNOWN_ID }), 404, 'NOT_FOUND');
    expect(await t.ctx.clients.count()).toBe(before);
  });

  it('refuses an empty PATCH, an unknown field and bad values (422)', async () => {
    expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, {}), 422, 'VALIDATION_ERROR');
    expectError(
      await t.app.inject({ method: 'PATCH', url: `/admin/v1/clients/${clientId}`, headers: adminHeaders }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { disable: true }), 422, 'VALIDATION_ERROR', [{ field: 'disable', rule: 'additionalProperties' }]);
    expectError(await t.admin.patch(`/admin/v1/clients/${clientId}`, { tier: 'gold' }), 422, 'VALIDATION_ERROR', [{ field: 'tier', rule: 'enum' }]);
    expect((await t.ctx.clients.get(clientId)).tier).toBe('pro');
  });

  it('refuses page 0 and page_size over 100 (422)', async () => {
    const list = (query: string) => t.admin.get(`/admin/v1/clients?${query}`);
    expectError(await list('page=0'), 422, 'VALIDATION_ERROR', [{ field: 'page', rule: 'minimum' }]);
    expectError(await list('page_size=101'), 422, 'VALIDATION_ERROR', [{ field: 'page_size', rule: 'maximum' }]);
    expect((await list('page_size=100')).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('admin API without ADMIN_TOKEN (%s)', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness({ dialect, env: { ADMIN_TOKEN: '' } });
  });
  afterAll(async () => t.close());

  it('does not exist: every admin route answers 404, with or without a token', async () => {
    expect(t.config.adminToken).toBeUndefined();
    const routes = [
      ['GET', '/admin/v1/clients'],
      ['POST', '/admin/v1/clients'],
      ['GET', `/admin/v1/clients/${UNKNOWN_ID}`],
      ['PATCH', `/admin/v1/clients/${UNKNOWN_ID}`],
      ['POST', `/admin/v1/clients/${UNKNOWN_ID}/credentials`],
    ] as const;
    for (const [method, url] of routes) {
      for (const headers of [{}, adminHeaders, { authorization: 'Bearer ' }]) {
        const res = await t.app.inject({ method, url, headers, ...(method === 'GET' ? {} : { payload: VALID }) });
        expectError(res, 404, 'NOT_FOUND');
      }
    }
    expect(await t.ctx.clients.count()).toBe(0);
  });

  it('is not in the document either: /openapi.json and /docs show no admin path, no AdminToken scheme, no admin tag', async () => {
    for (const url of ['/openapi.json', '/docs/json']) {
      const document = (await t.app.inject({ method: 'GET', url })).json<Json>();
      expect(adminApiIn(document), url).toEqual({ paths: [], scheme: false, tag: false });
      // The client API is all there.
      expect(Object.keys(record(document.paths)), url).toEqual(expect.arrayContaining(['/v1/account/config', '/v1/references/teams', '/v1/stream/odds']));
      expect(JSON.stringify(document), url).not.toContain('/admin/');
    }
  });
});

type Json = Record<string, unknown>;

/** What a document shows of the admin API: its paths, whether it has the AdminToken scheme and the admin tag. */
function adminApiIn(document: Json): { paths: string[]; scheme: boolean; tag: boolean } {
  const secured = (operation: unknown) => JSON.stringify(record(operation).security ?? []).includes('AdminToken');
  return {
    paths: Object.entries(record(document.paths)).flatMap(([path, item]) => (Object.values(record(item)).some(secured) || path.startsWith('/admin/') ? [path] : [])),
    scheme: 'AdminToken' in record(record(document.components).securitySchemes),
    tag: (Array.isArray(document.tags) ? document.tags : []).some((tag) => record(tag).name === 'admin'),
  };
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
