import { describe, expect, it } from 'vitest';
import { expectUnauthorized } from '../auth/auth-helpers.js';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { sessionCall, sessionOf, signIn } from './web-session.js';

const CONSOLE = 'console_session';

interface AuditPage {
  results: Array<{ action: string; client_id: string; actor: { type: string; via: string; address: string | null }; before: unknown; after: unknown }>;
}

describe.each(DIALECTS)('operator console: sessions (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));
  const consoleIn = (body: object, headers: Record<string, string> = {}) => signIn(h, '/console/session', body, headers);

  it('signs in with the admin token, kept on the server: an HttpOnly, SameSite=Strict cookie under /console, no token in the answer', async () => {
    const res = await consoleIn({ admin_token: TEST_ADMIN_TOKEN });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/console/);
    expect(res.body).not.toContain(TEST_ADMIN_TOKEN);
    const s = sessionOf(res, CONSOLE);
    expect((await sessionCall(h, s, 'GET', '/console/session')).json()).toEqual({ csrf_token: s.csrf });
    expectUnauthorized(await consoleIn({ admin_token: `${TEST_ADMIN_TOKEN}x` }), 'invalid_credentials');
    expectError(await consoleIn({ admin_token: TEST_ADMIN_TOKEN }, { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    expect(h.logs()).not.toContain(TEST_ADMIN_TOKEN);
  });

  it("runs the admin API's own handlers: search, change, disable (the client's next call refused), reset, offboard, each recorded once as the operator's", async () => {
    const c = await h.client({ name: 'Console Target Ltd' });
    const s = sessionOf(await consoleIn({ admin_token: TEST_ADMIN_TOKEN }), CONSOLE);
    const found = (await sessionCall(h, s, 'GET', '/console/api/clients?search=console%20target')).json<{ results: Array<{ client_id: string }> }>();
    expect(found.results.map((r) => r.client_id)).toEqual([c.clientId]);

    // A change without the CSRF token (a cross-site POST) is refused and leaves the client as it was.
    expectError(await sessionCall(h, s, 'PATCH', `/console/api/clients/${c.clientId}`, { csrf: false, body: { disabled: true } }), 403, 'FORBIDDEN');
    expect((await h.as(c).get('/v1/account/config')).statusCode).toBe(200);

    const tier = await sessionCall(h, s, 'PATCH', `/console/api/clients/${c.clientId}`, { body: { tier: 'enterprise', rate_limit_per_minute: 50 } });
    expect(tier.statusCode, tier.body).toBe(200);
    expect((await sessionCall(h, s, 'PATCH', `/console/api/clients/${c.clientId}`, { body: { disabled: true } })).statusCode).toBe(200);
    expectUnauthorized(await h.as(c).get('/v1/account/config'), 'client_disabled');
    expect((await sessionCall(h, s, 'PATCH', `/console/api/clients/${c.clientId}`, { body: { disabled: false } })).statusCode).toBe(200);
    const reset = await sessionCall(h, s, 'POST', `/console/api/clients/${c.clientId}/credentials`);
    expect(reset.statusCode, reset.body).toBe(200);
    expectUnauthorized(await h.as(c).get('/v1/account/config'), 'invalid_credentials');
    expect((await sessionCall(h, s, 'DELETE', `/console/api/clients/${c.clientId}`)).statusCode).toBe(204);

    const log = (await sessionCall(h, s, 'GET', `/console/api/audit-log?client_id=${c.clientId}`)).json<AuditPage>();
    expect(log.results.map((e) => e.action)).toEqual(['client.offboarded', 'client.reset', 'client.updated', 'client.updated', 'client.updated', 'client.onboarded']);
    for (const entry of log.results.slice(0, 5)) expect(entry.actor).toMatchObject({ type: 'operator', via: 'admin_api', address: '127.0.0.1' });
    // The credentials the reset showed are in no entry.
    const { api_key, client_secret } = reset.json<{ api_key: string; client_secret: string }>();
    expect(JSON.stringify(log)).not.toContain(api_key);
    expect(JSON.stringify(log)).not.toContain(client_secret);
  });

  it("shows the service's health as /readyz does, and the top clients by requests", async () => {
    const s = sessionOf(await consoleIn({ admin_token: TEST_ADMIN_TOKEN }), CONSOLE);
    const health = await sessionCall(h, s, 'GET', '/console/health');
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json()).toEqual({ status: 'ready', database: 'ok' });
    const c = await h.client({ name: 'Busy Co' });
    for (let i = 0; i < 3; i++) await h.as(c).ok('/v1/references/sports');
    const top = await sessionCall(h, s, 'GET', '/console/api/usage');
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json<{ results: Array<{ name: string; requests: number }> }>().results).toContainEqual(expect.objectContaining({ name: 'Busy Co', requests: 3 }));
  });

  it('refuses every call without a session, and a path out of /admin/v1', async () => {
    expectUnauthorized(await h.anonymous.get('/console/api/clients'), 'missing_credentials');
    expectUnauthorized(await h.anonymous.get('/console/health'), 'missing_credentials');
    const s = sessionOf(await consoleIn({ admin_token: TEST_ADMIN_TOKEN }), CONSOLE);
    // Normalised before routing, or refused: never the admin token on another route.
    expect([401, 403, 404]).toContain((await sessionCall(h, s, 'GET', '/console/api/../../v1/account/config')).statusCode);
    const out = await sessionCall(h, s, 'DELETE', '/console/session');
    expect(out.statusCode).toBe(204);
    expectUnauthorized(await sessionCall(h, s, 'GET', '/console/api/clients'), 'missing_credentials');
  });

  it('serves the page with a strict CSP, no framing, and no inline script', async () => {
    for (const url of ['/console', '/console/console.js', '/console/web.css', '/console/uplot.css']) {
      const res = await h.anonymous.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const html = (await h.anonymous.get('/console')).body;
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/console/console.js">']);
    expect(html).not.toMatch(/\son[a-z]+=|\sstyle=|<style/i);
  });
});

describe('operator console: guessing the admin token (sqlite)', () => {
  const h = forSuite(() => harness({ dialect: 'sqlite', env: { LOGIN_FAILURES_PER_MINUTE: '3' } }));

  it('counts a wrong admin token as a failed login of its address: past the limit, 429; the right token still signs in', async () => {
    for (let i = 0; i < 3; i++) expectUnauthorized(await signIn(h, '/console/session', { admin_token: `wrong-token-${i}-that-is-long-enough-to-look-real` }), 'invalid_credentials');
    const refused = await signIn(h, '/console/session', { admin_token: 'wrong-token-3-that-is-long-enough-to-look-real' });
    expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await signIn(h, '/console/session', { admin_token: TEST_ADMIN_TOKEN })).statusCode).toBe(201);
  });
});

describe('operator console without ADMIN_TOKEN', () => {
  const h = forSuite(() => harness({ dialect: 'sqlite', env: { ADMIN_TOKEN: '' } }));

  it('does not exist: every console URL is 404, as the admin API is', async () => {
    for (const url of ['/console', '/console/console.js', '/console/session', '/console/api/clients', '/console/health']) {
      expect((await h.anonymous.get(url)).statusCode, url).toBe(404);
    }
    expect((await signIn(h, '/console/session', { admin_token: TEST_ADMIN_TOKEN })).statusCode).toBe(404);
    // The portal is still there.
    expect((await h.anonymous.get('/portal')).statusCode).toBe(200);
  });
});
