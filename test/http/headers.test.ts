import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { referenceDataset } from '../fixtures/references.js';
import { apiKeyLogin, pairOf } from '../auth/auth-helpers.js';
import { listen, rawExchange } from './raw-http.js';

/**
 * `X-Content-Type-Options: nosniff` on every answer; `Cache-Control: no-store`
 * on account, auth and admin answers (they carry credentials or account state) and on errors;
 * data answers depend on the caller's credentials and change with every import: `private,
 * no-cache` (decision 0031).
 */

const DATA_POLICY = 'private, no-cache';

describe.each(DIALECTS)('response headers (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let port: number;

  beforeAll(async () => {
    t = await harness({ dialect });
    await t.import({ ...referenceDataset() });
    client = await t.client();
    port = await listen(t);
  });
  afterAll(async () => t.close());

  const withKey = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    t.as(client).request({ method, url, ...(payload ? { payload } : {}) });

  function expectHeaders(res: LightMyRequestResponse, cacheControl: string, what: string): void {
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    expect(res.headers['cache-control'], what).toBe(cacheControl);
  }

  it('data answers: private, no-cache — GET and POST lists, with an API key or a bearer token', async () => {
    expectHeaders(await withKey('GET', '/v1/references/sports'), DATA_POLICY, 'sports');
    expectHeaders(await withKey('GET', '/v1/references/teams?league_key=nba'), DATA_POLICY, 'teams');
    expectHeaders(await withKey('POST', '/v1/trends/flows', {}), DATA_POLICY, 'flows');
    expectHeaders(await withKey('POST', '/v1/events/upcoming-events', {}), DATA_POLICY, 'events');
    const token = pairOf(await apiKeyLogin(t, client.apiKey)).access_token;
    const res = await t.as({ accessToken: token }).get('/v1/references/sports');
    expectHeaders(res, DATA_POLICY, 'sports with a bearer token');
    // Twice the same: the second answer comes from the rendered-page cache.
    expectHeaders(await withKey('GET', '/v1/references/sports'), DATA_POLICY, 'sports again');
  });

  it('account, auth and admin answers: no-store', async () => {
    expectHeaders(await withKey('GET', '/v1/account/config'), 'no-store', 'account');
    expectHeaders(await apiKeyLogin(t, client.apiKey), 'no-store', 'login');
    expectHeaders(await t.admin.get('/admin/v1/clients'), 'no-store', 'admin list');
    expectHeaders(await t.admin.get(`/admin/v1/clients/${client.clientId}`), 'no-store', 'admin get');
    const created = await t.admin.post('/admin/v1/clients', { name: 'H', tier: 'free', auth_method: 'both' });
    expectHeaders(created, 'no-store', 'admin create');
  });

  it('errors: no-store, whatever the route', async () => {
    expectHeaders(await t.anonymous.get('/v1/references/sports'), 'no-store', '401 on data');
    expectHeaders(await withKey('GET', '/v1/references/sports?page=0'), 'no-store', '422 on data');
    expectHeaders(await withKey('GET', '/v1/references/teams?league_key=nope'), 'no-store', '404 on data');
    expectHeaders(await t.anonymous.get('/v1/nothing'), 'no-store', 'unknown route');
    expectHeaders(await t.anonymous.delete('/v1/references/sports'), 'no-store', '405');
    expectHeaders(await t.admin.get(`/admin/v1/clients/${'a'.repeat(200)}`), 'no-store', '414');
    expectHeaders(await t.anonymous.get('/%zz'), 'no-store', 'undecodable path');
  });

  it('operations: nosniff on each; health and readiness are never stored', async () => {
    expectHeaders(await t.anonymous.get('/healthz'), 'no-store', 'healthz');
    expectHeaders(await t.anonymous.get('/readyz'), 'no-store', 'readyz');
    for (const url of ['/metrics', '/openapi.json', '/docs']) {
      const res = await t.anonymous.get(url);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('answers written to the socket by hand (malformed HTTP, headers too large) carry them too', async () => {
    for (const request of ['GARBAGE\r\n\r\n', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`]) {
      const [res] = await rawExchange(port, request);
      expect(res?.headers['x-content-type-options']).toBe('nosniff');
      expect(res?.headers['cache-control']).toBe('no-store');
    }
  });
});
