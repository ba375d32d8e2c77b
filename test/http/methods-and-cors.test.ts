import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';

type Json = Record<string, unknown>;
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

const METHODS: Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const UUID = '5b0e1c9e-0000-4000-8000-000000000000';

function noCors(res: LightMyRequestResponse, where: string): void {
  expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-')), where).toEqual([]);
}

/**
 * A known path with another method is 405 with `Allow` on every path of the document,
 * the standard OAuth endpoints included (decision 0030). No CORS (decision 0075): a browser's
 * preflight is a 405 like any OPTIONS, and no answer carries an Access-Control-* header.
 */
describe.each(DIALECTS)('methods and CORS on every path (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let paths: Array<{ path: string; methods: Method[]; stream: boolean }>;

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await t.client({ authMethod: 'both' });
    const doc = (await t.anonymous.get('/openapi.json')).json<Json>();
    paths = Object.entries(doc.paths as Json).map(([path, item]) => ({
      path: path.replace(/\{[^}]+\}/g, UUID),
      methods: METHODS.filter((m) => (item as Json)[m.toLowerCase()] !== undefined),
      stream: JSON.stringify((item as Json).get ?? {}).includes('text/event-stream'),
    }));
  });
  afterAll(async () => t.close());

  it('every other method → 405 METHOD_NOT_ALLOWED with Allow naming the documented ones (HEAD wherever GET, but for an event stream)', async () => {
    expect(paths.map((p) => p.path)).toEqual(expect.arrayContaining(['/v1/oauth/token', '/v1/oauth/revoke', '/.well-known/oauth-authorization-server']));
    for (const { path, methods, stream } of paths) {
      const allowed = [...methods, ...(methods.includes('GET') && !stream ? (['HEAD'] as const) : [])].sort();
      for (const method of METHODS.filter((m) => !allowed.includes(m))) {
        const res = await t.anonymous.request({ method, url: path });
        const where = `${method} ${path}`;
        expect(res.statusCode, where).toBe(405);
        expect(res.headers.allow, where).toBe(allowed.join(', '));
        if (method !== 'HEAD') expect(res.json<{ error: { code: string } }>().error.code, where).toBe('METHOD_NOT_ALLOWED');
      }
    }
  });

  it('a path parameter the router cannot take (a line break before `.csv`) is a 404 or a 400, never a 405 naming the method used', async () => {
    const headers = { 'x-api-key': client.apiKey };
    const withParameters = paths.filter((p) => p.path.includes(UUID) && p.methods.includes('GET') && !p.stream);
    expect(withParameters.map((p) => p.path)).toContain(`/v1/historical/odds/${UUID}.csv`);
    for (const { path } of withParameters) {
      for (const value of ['3%0A', '%0D3', '3%E2%80%A8']) {
        const url = path.replace(UUID, value);
        const res = await t.as({ headers: url.startsWith('/admin/') ? adminHeaders : headers }).get(url);
        expect([400, 404], `${url}: ${res.body}`).toContain(res.statusCode);
      }
    }
    expectError(await t.as({ headers }).get('/v1/historical/odds/3%0A.csv'), 404, 'NOT_FOUND');
  });

  it('a CORS preflight is a 405 on a known path and a 404 elsewhere, without any Access-Control-* header', async () => {
    const preflight = (url: string) =>
      t.anonymous.request({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
      });
    for (const url of ['/v1/trends/flows', '/v1/references/sports', '/v1/oauth/token', '/v1/auth/login']) {
      const res = await preflight(url);
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      noCors(res, url);
    }
    const unknown = await preflight('/v1/nothing');
    expectError(unknown, 404, 'NOT_FOUND');
    noCors(unknown, '/v1/nothing');
  });

  it('a call from a browser origin is answered as any other, with no Access-Control-Allow-Origin', async () => {
    const origin = { origin: 'https://app.example.com' };
    const answers = [
      await t.as({ headers: { ...origin, 'x-api-key': client.apiKey } }).get('/v1/account/config'),
      await t.as({ headers: origin }).get('/v1/account/config'),
      await t.as({ headers: origin }).raw('POST', '/v1/oauth/token', 'grant_type=client_credentials', 'application/x-www-form-urlencoded'),
      await t.as({ headers: origin }).get('/.well-known/oauth-authorization-server'),
      await t.as({ headers: origin }).get('/docs'),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 401, 200, expect.any(Number)]);
    answers.forEach((res, i) => noCors(res, `answer ${i}`));
  });
});
