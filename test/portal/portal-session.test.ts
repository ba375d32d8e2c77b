import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithApiKey, expectUnauthorized } from '../auth/auth-helpers.js';
import { buildTestApp, DIALECTS, type TestApp } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';

const HOST = 'portal.example.com';

interface Session {
  cookie: string;
  csrf: string;
}

function sessionOf(res: LightMyRequestResponse): Session {
  expect(res.statusCode, res.body).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = /^(portal_session=[^;]+);/.exec(setCookie)?.[1];
  expect(cookie).toBeDefined();
  return { cookie: cookie ?? '', csrf: res.json<{ csrf_token: string }>().csrf_token };
}

describe.each(DIALECTS)('client portal: sessions (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ dialect });
  });
  afterAll(async () => t.close());

  const signIn = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/portal/session', headers: { host: HOST, ...headers }, payload });
  const portal = (s: Session, method: 'GET' | 'POST' | 'DELETE', url: string, options: { csrf?: boolean; payload?: object } = {}) =>
    t.app.inject({
      method,
      url,
      headers: { host: HOST, cookie: s.cookie, ...(options.csrf === false ? {} : { 'x-csrf-token': s.csrf }) },
      ...(options.payload ? { payload: options.payload } : {}),
    });

  it('signs in with an API key or client credentials: an HttpOnly, SameSite=Strict, Secure cookie, and no token in the answer', async () => {
    const c = await onboardClient(t);
    const res = await signIn({ api_key: c.apiKey });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/Path=\/portal/);
    expect(res.body).not.toMatch(/access_token|refresh_token|sdk_|sdr_/);
    const byKey = sessionOf(res);
    expect((await portal(byKey, 'GET', '/portal/session')).json()).toMatchObject({ client_id: c.clientId });

    const byOauth = sessionOf(await signIn({ client_id: c.clientId, client_secret: c.clientSecret }));
    const config = await portal(byOauth, 'GET', '/portal/api/config');
    expect(config.json()).toMatchObject({ client_id: c.clientId });
    // A localhost page over plain HTTP keeps its cookie: no Secure there.
    const local = await t.app.inject({ method: 'POST', url: '/portal/session', headers: { host: 'localhost:8080' }, payload: { api_key: c.apiKey } });
    expect(String(local.headers['set-cookie'])).not.toMatch(/Secure/);
    // The credentials never reach the log, not even in part.
    for (const secret of [c.apiKey, c.clientSecret]) expect(t.logs()).not.toContain(secret.slice(4, 24));
    // A wrong credential is the login's own 401.
    expectUnauthorized(await signIn({ api_key: `${c.apiKey.slice(0, -4)}AAAA` }), 'invalid_credentials');
  });

  it("shows the same usage as GET /v1/account/usage, and portal calls count as the client's account calls", async () => {
    type Usage = { days: Array<{ date: string; requests: number; charged: number; by_group: Record<string, number> }>; current: { day: { used: number } } };
    const c = await onboardClient(t);
    const s = sessionOf(await signIn({ api_key: c.apiKey }));
    const direct = (await t.app.inject({ method: 'GET', url: '/v1/account/usage', headers: { 'x-api-key': c.apiKey } })).json<Usage>();
    const viaPortal = (await portal(s, 'GET', '/portal/api/usage')).json<Usage>();
    // The same report, but for the call that read it: the portal's is one more account call, and never a charged one.
    const today = direct.days.at(-1)?.date;
    const bumped = direct.days.map((d) => (d.date === today ? { ...d, requests: d.requests + 1, by_group: { ...d.by_group, account: (d.by_group.account ?? 0) + 1 } } : d));
    expect(viaPortal.days).toEqual(bumped);
    expect(viaPortal.current.day.used).toBe(direct.current.day.used);
  });

  it('refuses a state-changing call without the CSRF token, and serves it with the token; the key made works, deleted is refused', async () => {
    const c = await onboardClient(t);
    const s = sessionOf(await signIn({ api_key: c.apiKey }));
    expectError(await portal(s, 'POST', '/portal/api/api-keys', { csrf: false, payload: { name: 'csrf' } }), 403, 'FORBIDDEN');
    expectError(await t.app.inject({ method: 'POST', url: '/portal/api/api-keys', headers: { host: HOST, cookie: s.cookie, 'x-csrf-token': 'forged' }, payload: { name: 'x' } }), 403, 'FORBIDDEN');
    const created = await portal(s, 'POST', '/portal/api/api-keys', { payload: { name: 'from the portal' } });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ api_key: string; key_code: string }>();
    expect((await accountWithApiKey(t, key.api_key)).statusCode).toBe(200);
    expect((await portal(s, 'DELETE', `/portal/api/api-keys/${key.key_code}`)).statusCode).toBe(204);
    expectUnauthorized(await accountWithApiKey(t, key.api_key), 'invalid_credentials');
    // The audit log names the client, by the token the portal holds for it.
    const log = (await portal(s, 'GET', '/portal/api/audit-log')).json<{ results: Array<{ action: string; actor: { via: string } }> }>();
    expect(log.results.slice(0, 2).map((e) => [e.action, e.actor.via])).toEqual([['api_key.deleted', 'bearer'], ['api_key.created', 'bearer']]);
  });

  it('refuses a sign-in posted from another site, and any session call without the cookie', async () => {
    const c = await onboardClient(t);
    expectError(await signIn({ api_key: c.apiKey }, { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    expect((await signIn({ api_key: c.apiKey }, { origin: `http://${HOST}` })).statusCode).toBe(201);
    expectUnauthorized(await t.app.inject({ method: 'GET', url: '/portal/api/usage' }), 'missing_credentials');
    expectUnauthorized(await t.app.inject({ method: 'GET', url: '/portal/api/usage', headers: { cookie: 'portal_session=guessed' } }), 'missing_credentials');
  });

  it('signs out: the session ends and its refresh token is revoked', async () => {
    const c = await onboardClient(t);
    const s = sessionOf(await signIn({ api_key: c.apiKey }));
    expectError(await portal(s, 'DELETE', '/portal/session', { csrf: false }), 403, 'FORBIDDEN');
    const out = await portal(s, 'DELETE', '/portal/session');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expectUnauthorized(await portal(s, 'GET', '/portal/api/usage'), 'missing_credentials');
    const tokens = await t.database.db.selectFrom('refresh_tokens').select(['revoked_at', 'revoked_reason']).where('client_id', '=', c.clientId).execute();
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token.revoked_at).not.toBeNull();
  });

  it('ends an idle session, and refreshes the access token of a live one through the refresh route', async () => {
    const c = await onboardClient(t);
    const s = sessionOf(await signIn({ api_key: c.apiKey }));
    // Past the access token's lifetime, within the idle bound: refreshed, served.
    t.clock.set(t.clock.now() + 16 * 60 * 1000);
    expect((await portal(s, 'GET', '/portal/api/config')).statusCode).toBe(200);
    t.clock.set(t.clock.now() + 16 * 60 * 1000);
    expect((await portal(s, 'GET', '/portal/api/config')).statusCode).toBe(200);
    // Then idle past 30 minutes: gone.
    t.clock.set(t.clock.now() + 31 * 60 * 1000);
    expectUnauthorized(await portal(s, 'GET', '/portal/api/config'), 'missing_credentials');
  });

  it('serves the page with a strict CSP, no framing, and no inline script', async () => {
    for (const url of ['/portal', '/portal/portal.js', '/portal/portal.css']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const html = (await t.app.inject({ method: 'GET', url: '/portal' })).body;
    // Every script is a file of this server; no inline script, no event-handler attribute.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/portal/portal.js" defer>']);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/https?:\/\//);
  });
});
