import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_STATUS } from '../../src/platform/errors.js';
import { DIALECTS } from '../helpers/app.js';
import { type Answer, forSuite, type Harness, harness, type Method } from '../helpers/harness.js';
import { listen, openSocket, parseResponses, type RawResponse, rawExchange, readUntilClose } from './raw-http.js';

/**
 * Answers that came from the framework bypassed the error shape — 431 for
 * a 100 KB header or query, 414 for an over-long path parameter, 400 "Client Error" for
 * malformed HTTP, 503 while shutting down. Every answer is `{"error":{code,message,request_id}}`
 * with the code of its status (docs/api.md#errors).
 */

const UUID = '5b0e1c9e-0000-4000-8000-000000000000';

/** The error shape, exactly, with the code that belongs to the status. */
function expectShape(status: number, headers: Record<string, unknown>, body: string, code: keyof typeof ERROR_STATUS): Record<string, unknown> {
  expect(ERROR_STATUS[code]).toBe(status);
  expect(String(headers['content-type'])).toMatch(/^application\/json/);
  const parsed = JSON.parse(body) as { error: Record<string, unknown> };
  expect(parsed).toEqual({ error: { code, message: expect.any(String), request_id: expect.any(String) } });
  expect(headers['x-request-id']).toBe(parsed.error.request_id);
  return parsed.error;
}

const expectRaw = (res: RawResponse | undefined, status: number, code: keyof typeof ERROR_STATUS) => {
  expect(res?.status, res?.body).toBe(status);
  return expectShape(status, res?.headers ?? {}, res?.body ?? '', code);
};
const expectInjected = (res: Answer, status: number, code: keyof typeof ERROR_STATUS) => {
  expect(res.statusCode, res.body).toBe(status);
  return expectShape(status, res.headers, res.body, code);
};

describe.each(DIALECTS)('framework answers in the error shape (%s)', (dialect) => {
  let t: Harness;
  let port: number;

  beforeAll(async () => {
    t = await harness({ dialect });
    port = await listen(t);
  });
  afterAll(async () => t.close());

  it('a 100 KB header → 431 HEADERS_TOO_LARGE', async () => {
    const [res] = await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`);
    expectRaw(res, 431, 'HEADERS_TOO_LARGE');
  });

  it('a 100 KB query → 431 HEADERS_TOO_LARGE (Node counts the request line with the headers)', async () => {
    const [res] = await rawExchange(port, `GET /v1/references/sports?search=${'a'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectRaw(res, 431, 'HEADERS_TOO_LARGE');
  });

  it.each([
    ['a broken request line', 'GARBAGE\r\n\r\n'],
    ['an unknown HTTP version', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /v1/oauth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['a NUL in the request line', 'GET /healthz\u0000 HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('malformed HTTP (%s) → 400 BAD_REQUEST, then the connection closes', async (_name, request) => {
    const responses = await rawExchange(port, request);
    expect(responses).toHaveLength(1);
    expectRaw(responses[0], 400, 'BAD_REQUEST');
    expect(responses[0]?.headers.connection).toBe('close');
  });

  it('a path parameter over the router limit → 414 URI_TOO_LONG', async () => {
    const res = await t.admin.get(`/admin/v1/clients/${'a'.repeat(200)}`);
    expectInjected(res, 414, 'URI_TOO_LONG');
  });

  it('a path that cannot be decoded → 400 BAD_REQUEST', async () => {
    expectInjected(await t.admin.get('/admin/v1/clients/%zz'), 400, 'BAD_REQUEST');
    expectInjected(await t.anonymous.get('/%zz'), 400, 'BAD_REQUEST');
  });

  it('a known path with another method → 405 METHOD_NOT_ALLOWED with Allow; an unknown path stays 404', async () => {
    const cases: Array<[Method, string, string]> = [
      ['DELETE', '/v1/references/sports', 'GET, HEAD'],
      ['POST', '/v1/references/sports/', 'GET, HEAD'],
      ['GET', '/v1/trends/flows', 'POST'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['PUT', `/admin/v1/clients/${UUID}`, 'DELETE, GET, HEAD, PATCH'],
      ['GET', '/v1/account/secret', 'POST'],
      ['PATCH', '/v1/account/api-keys', 'GET, HEAD, POST'],
      ['DELETE', '/admin/v1/clients', 'GET, HEAD, POST'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.anonymous.request({ method, url });
      expectInjected(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
    }
    expectInjected(await t.anonymous.delete('/v1/references/nothing'), 404, 'NOT_FOUND');
    expectInjected(await t.anonymous.get('/v1/references/nothing'), 404, 'NOT_FOUND');
  });

  it("every token endpoint's 401 carries WWW-Authenticate, naming the credential it takes", async () => {
    const client = await t.client({ authMethod: 'api_key' });
    const apiKeyLogin = 'ApiKey realm="sports-data-api"';
    const oauthLogin = 'ClientSecretPost realm="sports-data-api"';
    const refresh = 'Bearer error="invalid_token"';
    const cases: Array<[string, Record<string, string>, unknown, string]> = [
      ['/v1/auth/login', {}, undefined, apiKeyLogin],
      ['/v1/auth/login', { 'x-api-key': 'sdk_nope' }, undefined, apiKeyLogin],
      ['/v1/oauth/login', {}, { client_id: UUID, client_secret: 'sds_nope' }, oauthLogin],
      // A flow the account does not enable is a 401 as well.
      ['/v1/oauth/login', {}, { client_id: client.clientId, client_secret: client.clientSecret }, oauthLogin],
      ['/v1/auth/refresh', {}, { refresh_token: 'sdr_nope' }, refresh],
      ['/v1/oauth/refresh', {}, { refresh_token: 'sdr_nope' }, refresh],
    ];
    for (const [url, headers, payload, challenge] of cases) {
      const res = await t.as({ headers }).post(url, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(401);
      expect(res.headers['www-authenticate'], url).toBe(challenge);
    }
    const admin = await t.anonymous.get('/admin/v1/clients');
    expect(admin.statusCode).toBe(401);
    expect(admin.headers['www-authenticate']).toBe('Bearer realm="sports-data-api-admin"');
  });
});

describe.each(DIALECTS)('answers while shutting down (%s)', (dialect) => {
  it('a request that arrives after close() began → 503 SERVICE_UNAVAILABLE with Retry-After; the one in flight finishes', async () => {
    const t = await harness({ dialect });
    try {
      const port = await listen(t);
      const socket = openSocket(port);
      const received = readUntilClose(socket);
      // A request in flight: headers sent, body not yet. It keeps its connection open through close().
      const routed = once(t.app.server, 'request');
      socket.write('POST /v1/oauth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
      await routed;
      const closing = t.app.close();
      await vi.waitFor(() => expect(t.app.server.listening).toBe(false));
      // The rest of the body, and a second request pipelined behind it on the same connection.
      socket.write('{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const [first, second, ...more] = parseResponses(await received);
      expect(more).toEqual([]);
      expect(first?.status, first?.body).toBe(422);
      expectRaw(second, 503, 'SERVICE_UNAVAILABLE');
      expect(Number(second?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(second?.headers.connection).toBe('close');
      await closing;
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)('405 without ADMIN_TOKEN (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: { ADMIN_TOKEN: '' } }));

  it('does not reveal the admin API: another method on an admin path is 404, as every admin route is', async () => {
    expectInjected(await t.anonymous.delete('/admin/v1/clients'), 404, 'NOT_FOUND');
    expectInjected(await t.anonymous.get('/admin/v1/clients'), 404, 'NOT_FOUND');
    expect((await t.anonymous.delete('/v1/references/sports')).statusCode).toBe(405);
  });
});
