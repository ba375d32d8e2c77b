import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Harness, harness } from '../helpers/harness.js';
import { rawRequest } from '../helpers/raw-http.js';
import { openStream } from '../helpers/sse.js';
import { historyDataset } from '../history/fixture.js';

/** A single dot segment as a client may write it: plain, percent-encoded (either case), encoded twice. */
const DOT = ['.', '%2e', '%2E', '%252e', '%252E', '%25252e'];
/** A double dot segment likewise, and mixed. */
const DOT_DOT = ['..', '%2e%2e', '%2E%2E', '%252e%252e', '.%2e', '%2e.', '%252e.', '.%252E', '%25252e%25252e'];

/** Ways out of `/v1/` from `/portal/try/…`: to the stream, the token endpoints, the admin API, the page's root. */
const TRY_ESCAPES = [
  ...DOT.flatMap((d) => [`${d}/stream/odds`, `${d}/auth/refresh`, `references/${d}/stream/odds`]),
  ...DOT_DOT.flatMap((dd) => [`references/${dd}/stream/odds`, `references/${dd}/oauth/token`, `${dd}/admin/v1/clients`, `${dd}/${dd}/portal`]),
  // Backslashes, which a URL parser reads as slashes, and doubled or encoded slashes.
  '..\\admin\\v1\\clients',
  '..%5cadmin%5cv1%5cclients',
  '%2e%2e%5cadmin',
  'references%2f..%2f..%2fadmin/v1/clients',
  'references//../stream/odds',
  '/stream/odds',
  'stream%2fodds',
  // A letter encoded twice: once decoded by the router, once more by the route it would reach.
  '%2561uth/refresh',
  '%2573tream/odds',
  // Control characters a URL parser drops, leaving `..` behind.
  '.%09./admin/v1/clients',
  '.%0a./stream/odds',
];

/** Ways out of `/v1/account/` from `/portal/api/…`: to the data routes (a CSV here), the admin API. */
const API_ESCAPES = [
  ...DOT_DOT.map((dd) => `${dd}/historical/odds/1.csv`),
  ...DOT.map((d) => `${d}/../historical/odds/1.csv`),
  ...DOT_DOT.map((dd) => `${dd}/${dd}/admin/v1/clients`),
  '..\\historical\\odds\\1.csv',
  '%2e%2e%5chistorical/odds/1.csv',
  'config//..//..//historical/odds/1.csv',
];

/** Ways out of `/v1/webhooks/` from `/portal/webhooks/…`: to the account routes, the data routes, the stream, the admin API. */
const WEBHOOK_ESCAPES = [
  ...DOT_DOT.flatMap((dd) => [`${dd}/account/api-keys`, `ep_x/${dd}/${dd}/stream/odds`, `${dd}/historical/odds/1.csv`, `${dd}/${dd}/admin/v1/clients`]),
  ...DOT.map((d) => `${d}/ep_x`),
  '..\\account\\api-keys',
  '%2e%2e%5caccount/secrets',
  'ep_x%2f..%2f..%2fauth/refresh',
  'ep_x//../../stream/odds',
  'ep_x/deliveries/%2e%2e%2f%2e%2e%2f%2e%2e%2faccount%2fconfig',
  '.%09./account/config',
];

/** Ways out of `/admin/v1/` from `/console/api/…`: to the public API, with the admin token. */
const CONSOLE_ESCAPES = [
  ...DOT_DOT.map((dd) => `${dd}/${dd}/v1/account/config`),
  ...DOT.map((d) => `${d}/clients`),
  '..\\..\\v1\\account\\config',
  '%2e%2e%5c%2e%2e%5cv1/account/config',
  'clients//../../../v1/account/config',
];

describe.each(DIALECTS)('the portal and console proxies refuse every way out of their API, however encoded (%s)', (dialect) => {
  let t: Harness;
  let port: number;
  let url: string;
  let client: OnboardedClient;
  /** The cookie and CSRF token a browser holds after signing in. */
  const sessions: Record<'portal' | 'console', { cookie: string; csrf: string }> = { portal: { cookie: '', csrf: '' }, console: { cookie: '', csrf: '' } };

  beforeAll(async () => {
    // The usage counts stay in memory throughout (no flush), so that a report never falls between a flush and its commit.
    t = await harness({ dialect, env: { USAGE_FLUSH_MS: '600000' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(url).port);
    await t.import(historyDataset(t.clock.now()));
    client = await t.client({ tier: 'pro', name: 'Proxy paths' });
    // Signed in as the pages sign in: fetch, same origin, the cookie from Set-Cookie.
    for (const [realm, body] of [['portal', { api_key: client.apiKey }], ['console', { admin_token: TEST_ADMIN_TOKEN }]] as const) {
      const res = await fetch(`${url}/${realm}/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
      const cookie = /^([a-z_]+=[^;]+);/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
      sessions[realm] = { cookie, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
    }
  });
  afterAll(async () => t.close());

  const send = (realm: 'portal' | 'console', method: string, path: string, csrf = true) =>
    rawRequest(port, { method, path, headers: { cookie: sessions[realm].cookie, ...(csrf ? { 'x-csrf-token': sessions[realm].csrf } : {}) } });

  /** The requests the client has made today, as its usage report counts them (the report's own call included). */
  const requestsToday = async () => (await t.as(client).ok<{ days: Array<{ requests: number }> }>('/v1/account/usage')).days.at(-1)?.requests ?? 0;

  const expectRefused = (answer: { status: number; body: string }, what: string) => {
    expect(answer.status, `${what}: ${answer.body}`).toBe(403);
    expect(JSON.parse(answer.body), what).toMatchObject({ error: { code: 'FORBIDDEN' } });
  };

  it('the plain paths still run their API through the session, through the browser-like client', async () => {
    const sports = await fetch(`${url}/portal/try/references/sports`, { headers: { cookie: sessions.portal.cookie, 'x-csrf-token': sessions.portal.csrf } });
    expect(sports.status).toBe(200);
    const config = await fetch(`${url}/portal/api/config`, { headers: { cookie: sessions.portal.cookie } });
    expect(config.status).toBe(200);
    expect(((await config.json()) as { client_id: string }).client_id).toBe(client.clientId);
    const clients = await fetch(`${url}/console/api/clients?page_size=1`, { headers: { cookie: sessions.console.cookie } });
    expect(clients.status).toBe(200);
    // An encoded slash or letter inside the API is the same path.
    expect((await send('portal', 'GET', '/portal/try/references%2Fsports')).status).toBe(200);
    expect((await send('portal', 'GET', '/portal/api/c%6Fnfig')).status).toBe(200);
  });

  it('"Try it" (GET and POST): 403 for every dot segment, backslash, doubled slash or double encoding, before any call is made', async () => {
    const before = await requestsToday();
    const between = (await requestsToday()) - before;
    for (const path of TRY_ESCAPES) {
      for (const method of ['GET', 'POST']) expectRefused(await send('portal', method, `/portal/try/${path}`), `${method} /portal/try/${path}`);
    }
    // No call reached the API: the usage report moved by its own reading only.
    expect((await requestsToday()) - before).toBe(2 * between);
    // No odds stream was opened through the portal: the client's whole cap is there for its own.
    const streams = await Promise.all(Array.from({ length: 5 }, () => openStream(`${url}/v1/stream/odds`, { 'x-api-key': client.apiKey })));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    for (const s of streams) s.close();
  });

  it('/portal/api: 403 for every way out of /v1/account, without and with the CSRF token, before any call is made', async () => {
    const before = await requestsToday();
    const between = (await requestsToday()) - before;
    for (const path of API_ESCAPES) {
      expectRefused(await send('portal', 'GET', `/portal/api/${path}`, false), `GET /portal/api/${path}`);
      expectRefused(await send('portal', 'GET', `/portal/api/${path}`), `GET /portal/api/${path} with the CSRF token`);
      expectRefused(await send('portal', 'DELETE', `/portal/api/${path}`), `DELETE /portal/api/${path}`);
    }
    expect((await requestsToday()) - before).toBe(2 * between);
  });

  it('/portal/webhooks: 403 for every way out of /v1/webhooks, with any method it routes, before any call is made', async () => {
    const before = await requestsToday();
    const between = (await requestsToday()) - before;
    for (const path of WEBHOOK_ESCAPES) {
      expectRefused(await send('portal', 'GET', `/portal/webhooks/${path}`, false), `GET /portal/webhooks/${path}`);
      for (const method of ['POST', 'PATCH', 'DELETE']) expectRefused(await send('portal', method, `/portal/webhooks/${path}`), `${method} /portal/webhooks/${path}`);
    }
    expect((await requestsToday()) - before).toBe(2 * between);
    // The client's keys are all there: no DELETE reached /v1/account/api-keys.
    expect((await t.as(client).page('/v1/account/api-keys')).total_count).toBe(1);
  });

  it('/console/api: 403 for every way out of /admin/v1: the admin token reaches nothing else', async () => {
    const before = await requestsToday();
    const between = (await requestsToday()) - before;
    for (const path of CONSOLE_ESCAPES) {
      for (const method of ['GET', 'PATCH', 'DELETE']) expectRefused(await send('console', method, `/console/api/${path}`), `${method} /console/api/${path}`);
    }
    expect((await requestsToday()) - before).toBe(2 * between);
  });
});
