import { describe, expect, it } from 'vitest';
import { expectUnauthorized } from '../auth/auth-helpers.js';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { HOST, sessionCall, sessionOf, signIn, type WebSession } from './web-session.js';

const PORTAL = 'portal_session';

describe.each(DIALECTS)('client portal: sessions (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));
  const portalIn = (body: object, headers: Record<string, string> = {}) => signIn(h, '/portal/session', body, headers);

  it('signs in with an API key or client credentials: an HttpOnly, SameSite=Strict, Secure cookie, and no token in the answer', async () => {
    const c = await h.client();
    const res = await portalIn({ api_key: c.apiKey });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/Path=\/portal/);
    expect(res.body).not.toMatch(/access_token|refresh_token|sdk_|sdr_/);
    const byKey = sessionOf(res, PORTAL);
    expect((await sessionCall(h, byKey, 'GET', '/portal/session')).json()).toMatchObject({ client_id: c.clientId });

    const byOauth = sessionOf(await portalIn({ client_id: c.clientId, client_secret: c.clientSecret }), PORTAL);
    expect((await sessionCall(h, byOauth, 'GET', '/portal/api/config')).json()).toMatchObject({ client_id: c.clientId });
    // A localhost page over plain HTTP keeps its cookie: no Secure there.
    const local = await h.anonymous.request({ method: 'POST', url: '/portal/session', headers: { host: 'localhost:8080' }, payload: { api_key: c.apiKey } });
    expect(String(local.headers['set-cookie'])).not.toMatch(/Secure/);
    // The credentials never reach the log, not even in part.
    for (const secret of [c.apiKey, c.clientSecret]) expect(h.logs()).not.toContain(secret.slice(4, 24));
    // A wrong credential is the login's own 401.
    expectUnauthorized(await portalIn({ api_key: `${c.apiKey.slice(0, -4)}AAAA` }), 'invalid_credentials');
  });

  it("shows the same usage as GET /v1/account/usage, and the portal's calls count as the client's account calls (the minute, never the day)", async () => {
    type Usage = { days: Array<{ date: string; requests: number; by_group: Record<string, number> }>; current: { minute: { used: number }; day: { used: number } } };
    const c = await h.client();
    const s = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    const direct = await h.as(c).ok<Usage>('/v1/account/usage');
    const viaPortal = (await sessionCall(h, s, 'GET', '/portal/api/usage')).json<Usage>();
    // The same report, but for the call that read it: the portal's is one more account call, and never a charged one.
    const today = direct.days.at(-1)?.date;
    const bumped = direct.days.map((d) => (d.date === today ? { ...d, requests: d.requests + 1, by_group: { ...d.by_group, account: (d.by_group.account ?? 0) + 1 } } : d));
    expect(viaPortal.days).toEqual(bumped);
    expect(viaPortal.current.day.used).toBe(direct.current.day.used);
    expect(viaPortal.current.minute.used).toBe(direct.current.minute.used + 1);
  });

  it('refuses a state-changing call without the CSRF token (a cross-site POST), and serves it with the token; the key made works, deleted is refused', async () => {
    const c = await h.client();
    const s = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    // What another site's page can send: the cookie (a browser adds it), never the token it cannot read.
    expectError(await sessionCall(h, s, 'POST', '/portal/api/api-keys', { csrf: false, body: { name: 'csrf' } }), 403, 'FORBIDDEN');
    expectError(await sessionCall(h, { ...s, csrf: 'forged' }, 'POST', '/portal/api/api-keys', { body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectError(await sessionCall(h, s, 'DELETE', '/portal/session', { csrf: false }), 403, 'FORBIDDEN');
    expect((await h.as(c).page('/v1/account/api-keys')).results).toHaveLength(1);
    const created = await sessionCall(h, s, 'POST', '/portal/api/api-keys', { body: { name: 'from the portal' } });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ api_key: string; key_code: string }>();
    expect((await h.as({ apiKey: key.api_key }).get('/v1/account/config')).statusCode).toBe(200);
    expect((await sessionCall(h, s, 'DELETE', `/portal/api/api-keys/${key.key_code}`)).statusCode).toBe(204);
    expectUnauthorized(await h.as({ apiKey: key.api_key }).get('/v1/account/config'), 'invalid_credentials');
    // The audit log names the client, by the token the portal holds for it.
    const log = (await sessionCall(h, s, 'GET', '/portal/api/audit-log')).json<{ results: Array<{ action: string; actor: { via: string } }> }>();
    expect(log.results.slice(0, 2).map((e) => [e.action, e.actor.via])).toEqual([['api_key.deleted', 'bearer'], ['api_key.created', 'bearer']]);
  });

  it('refuses a sign-in posted from another site, and any session call without the cookie', async () => {
    const c = await h.client();
    expectError(await portalIn({ api_key: c.apiKey }, { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    expect((await portalIn({ api_key: c.apiKey }, { origin: `http://${HOST}` })).statusCode).toBe(201);
    expectUnauthorized(await h.anonymous.get('/portal/api/usage'), 'missing_credentials');
    expectUnauthorized(await h.anonymous.get('/portal/api/usage', { cookie: 'portal_session=guessed' }), 'missing_credentials');
    // A console cookie is not a portal session, nor the other way round.
    const portal = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    expectUnauthorized(await h.anonymous.get('/console/api/clients', { cookie: portal.cookie.replace(PORTAL, 'console_session') }), 'missing_credentials');
  });

  it('signs out: the session ends and its refresh token is revoked', async () => {
    const c = await h.client();
    const s = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    const out = await sessionCall(h, s, 'DELETE', '/portal/session');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expectUnauthorized(await sessionCall(h, s, 'GET', '/portal/api/usage'), 'missing_credentials');
    const tokens = await h.database.db.selectFrom('refresh_tokens').select(['revoked_at']).where('client_id', '=', c.clientId).execute();
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token.revoked_at).not.toBeNull();
  });

  it('ends a session whose key was deleted: GET /portal/session is 401 from then on, as every call is', async () => {
    const c = await h.client();
    const created = await h.as(c).post<{ api_key: string; key_code: string }>('/v1/account/api-keys', { name: 'short-lived' });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    const s = sessionOf(await portalIn({ api_key: key.api_key }), PORTAL);
    expect((await sessionCall(h, s, 'GET', '/portal/session')).statusCode).toBe(200);
    expect((await h.as(c).delete(`/v1/account/api-keys/${key.key_code}`)).statusCode).toBe(204);
    // The access token the session holds has not expired, but its key is gone: so is the session.
    expectUnauthorized(await sessionCall(h, s, 'GET', '/portal/session'), 'refresh_token_revoked');
    expectUnauthorized(await sessionCall(h, s, 'GET', '/portal/api/config'), 'missing_credentials');

    // A call of the API that refuses the session's token ends the session too.
    const other = await h.as(c).post<{ api_key: string; key_code: string }>('/v1/account/api-keys', { name: 'also short-lived' });
    const t = sessionOf(await portalIn({ api_key: other.json().api_key }), PORTAL);
    expect((await h.as(c).delete(`/v1/account/api-keys/${other.json().key_code}`)).statusCode).toBe(204);
    expectUnauthorized(await sessionCall(h, t, 'GET', '/portal/api/usage'), 'token_invalid');
    expectUnauthorized(await sessionCall(h, t, 'GET', '/portal/session'), 'missing_credentials');
  });

  it('ends an idle session, and refreshes the access token of a live one through the refresh route', async () => {
    const c = await h.client();
    const s = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    // Past the access token's lifetime, within the idle bound: refreshed, served.
    h.clock.set(h.clock.now() + 16 * 60 * 1000);
    expect((await sessionCall(h, s, 'GET', '/portal/api/config')).statusCode).toBe(200);
    h.clock.set(h.clock.now() + 16 * 60 * 1000);
    expect((await sessionCall(h, s, 'GET', '/portal/api/config')).statusCode).toBe(200);
    // Then idle past 30 minutes: gone.
    h.clock.set(h.clock.now() + 31 * 60 * 1000);
    expectUnauthorized(await sessionCall(h, s, 'GET', '/portal/api/config'), 'missing_credentials');
  });

  it("two calls at the access token's expiry refresh it once: both are served and the session lives on", async () => {
    const c = await h.client();
    const s = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    // Inside the refresh margin, the token still valid: the usage page sends these two together.
    h.clock.set(h.clock.now() + (h.config.accessTokenTtl - 30) * 1000);
    const both = await Promise.all([sessionCall(h, s, 'GET', '/portal/api/usage'), sessionCall(h, s, 'GET', '/portal/api/usage/hours')]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await sessionCall(h, s, 'GET', '/portal/api/config')).statusCode).toBe(200);
    // One rotation, no reuse: the family lives on.
    const tokens = await h.database.db.selectFrom('refresh_tokens').select(['revoked_reason']).where('client_id', '=', c.clientId).execute();
    expect(tokens.map((t) => t.revoked_reason).sort()).toEqual([null, 'rotated']);
  });

  it('Try it runs /v1 routes through the session, with the CSRF token; never the token endpoints, the stream, or a path out of /v1', async () => {
    const c = await h.client();
    const s = sessionOf(await portalIn({ api_key: c.apiKey }), PORTAL);
    const sports = await sessionCall(h, s, 'GET', '/portal/try/references/sports');
    expect(sports.statusCode, sports.body).toBe(200);
    expect(sports.headers['ratelimit-policy']).toBeDefined();
    expect((await sessionCall(h, s, 'POST', '/portal/try/events/upcoming-events', { body: {} })).statusCode).toBe(200);
    // A data call spends the quota: another site's page must not make one with the cookie.
    expectError(await sessionCall(h, s, 'GET', '/portal/try/references/sports', { csrf: false }), 403, 'FORBIDDEN');
    for (const path of ['auth/refresh', 'oauth/token', 'stream/odds']) expectError(await sessionCall(h, s, 'POST', `/portal/try/${path}`, { body: {} }), 403, 'FORBIDDEN');
    for (const path of ['../admin/v1/clients', 'references/..%2F..%2Fadmin/v1/clients', '..\\admin']) {
      expect([403, 404]).toContain((await sessionCall(h, s, 'GET', `/portal/try/${path}`)).statusCode);
    }
    // The usage counts them as the client's own calls.
    const usage = await h.as(c).ok<{ days: Array<{ by_group: Record<string, number> }> }>('/v1/account/usage');
    expect(usage.days.at(-1)?.by_group).toMatchObject({ references: 1, events: 1 });
  });

  it('answers a 404 under /portal and /console with the same security headers as the pages', async () => {
    for (const url of ['/portal/nothing-here', '/portal/api', '/console/nothing-here', '/portal/web.css/more']) {
      const res = await h.anonymous.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-security-policy'], url).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
    // The API's own 404s are not pages.
    expect((await h.anonymous.get('/v1/nothing-here')).headers['content-security-policy']).toBeUndefined();
  });

  it('serves the pages with a strict CSP, no framing, and no inline script', async () => {
    for (const url of ['/portal', '/portal/portal.js', '/portal/web.css', '/portal/uplot.css']) {
      const res = await h.anonymous.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers['content-security-policy']).toMatch(/style-src 'self'(;|$)/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const html = (await h.anonymous.get('/portal')).body;
    // Every script is a file of this server; no inline script or style, no event-handler attribute, nothing from elsewhere.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/portal/portal.js">']);
    expect(html).not.toMatch(/<script[^>]*>[^<]/);
    expect(html).not.toMatch(/\son[a-z]+=|\sstyle=|<style/i);
    expect(html).not.toMatch(/https?:\/\//);
    // uPlot is in the bundle, not fetched from a CDN.
    const script = (await h.anonymous.get('/portal/portal.js')).body;
    expect(script).toMatch(/uplot/);
    expect(script).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
  });
});

describe.each(DIALECTS)('client portal: sessions per client and per node (%s)', (dialect) => {
  // A small store, so that filling it takes a few sign-ins; the cap per client is the service's own.
  const h = forSuite(() => harness({ dialect, env: { WEB_SESSIONS_PER_NODE: '25' } }));
  const portalIn = (c: { apiKey: string }) => signIn(h, '/portal/session', { api_key: c.apiKey });
  const alive = async (s: WebSession) => (await sessionCall(h, s, 'GET', '/portal/session')).statusCode;

  it("a client's 21st session ends its own oldest, never another client's; a full store refuses a sign-in with 429 and ends nobody's session", async () => {
    const [a, b, c, d] = [await h.client(), await h.client(), await h.client(), await h.client()];
    const other = sessionOf(await portalIn(b), PORTAL);
    const own: WebSession[] = [];
    for (let i = 0; i < 21; i++) own.push(sessionOf(await portalIn(a), PORTAL));
    expect(await alive(other)).toBe(200);
    expect(await Promise.all(own.map(alive))).toEqual([401, ...Array<number>(20).fill(200)]);

    // 21 of 25: four more fill the store.
    const third: WebSession[] = [];
    for (let i = 0; i < 4; i++) third.push(sessionOf(await portalIn(c), PORTAL));
    const refused = await portalIn(d);
    expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expectError(await portalIn(c), 429, 'RATE_LIMIT_EXCEEDED');
    // The refused sign-ins leave no live refresh token behind.
    const left = await h.database.db.selectFrom('refresh_tokens').select(['revoked_reason']).where('client_id', '=', d.clientId).execute();
    expect(left.map((t) => t.revoked_reason)).toEqual(['logout']);
    // A client at its own cap still signs in, in place of its oldest.
    own.push(sessionOf(await portalIn(a), PORTAL));
    expect(await Promise.all([other, ...third, ...own].map(alive))).toEqual([200, 200, 200, 200, 200, 401, 401, ...Array<number>(20).fill(200)]);

    // A session that ends makes room; so do sessions idle past their time.
    expect((await sessionCall(h, other, 'DELETE', '/portal/session')).statusCode).toBe(204);
    sessionOf(await portalIn(d), PORTAL);
    expectError(await portalIn(d), 429, 'RATE_LIMIT_EXCEEDED');
    h.clock.set(h.clock.now() + 31 * 60 * 1000);
    sessionOf(await portalIn(d), PORTAL);
  });

  it("the console's sessions have the same bound: the operator's 21st session ends the oldest", async () => {
    const operator: WebSession[] = [];
    for (let i = 0; i < 21; i++) operator.push(sessionOf(await signIn(h, '/console/session', { admin_token: TEST_ADMIN_TOKEN }), 'console_session'));
    const statuses = await Promise.all(operator.map(async (s) => (await sessionCall(h, s, 'GET', '/console/session')).statusCode));
    expect(statuses).toEqual([401, ...Array<number>(20).fill(200)]);
  });
});
