import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../../../test/helpers/app.js';
import { type ClientEvent, MemoryTokenStore, SportsDataClient, SportsDataError, type TokenPair } from '../src/index.js';
import { capturingFetch, runningClock, type Server, startServer } from './helpers/server.js';

/**
 * The client's duties with tokens, against the real server on a port. The server and
 * the SDK read one clock, which the tests move to bring a token near its expiry.
 */
describe('the session: refresh before expiry, single flight, a 401 answered by a refresh and then a login', () => {
  const clock = runningClock();
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ clock });
  });
  afterAll(async () => server.close());

  const counts = () => ({
    apiKeyLogins: server.received('POST', '/v1/auth/login'),
    apiKeyRefreshes: server.received('POST', '/v1/auth/refresh'),
    oauthLogins: server.received('POST', '/v1/oauth/login'),
    oauthRefreshes: server.received('POST', '/v1/oauth/refresh'),
  });
  const since = (before: ReturnType<typeof counts>) => {
    const now = counts();
    return {
      apiKeyLogins: now.apiKeyLogins - before.apiKeyLogins,
      apiKeyRefreshes: now.apiKeyRefreshes - before.apiKeyRefreshes,
      oauthLogins: now.oauthLogins - before.oauthLogins,
      oauthRefreshes: now.oauthRefreshes - before.oauthRefreshes,
    };
  };

  it('100 concurrent calls when the access token is about to expire cause exactly one refresh', async () => {
    const client = await server.t.client();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock });
    const before = counts();
    await api.account.config();
    expect(since(before)).toMatchObject({ apiKeyLogins: 1, apiKeyRefreshes: 0 });

    // 30 s left of the token's 900: inside the 60 s skew, so the next calls renew it first.
    clock.advance(870_000);
    const answers = await Promise.all(Array.from({ length: 100 }, () => api.account.config()));
    expect(answers.every((answer) => answer.client_id === client.clientId)).toBe(true);
    expect(since(before)).toMatchObject({ apiKeyLogins: 1, apiKeyRefreshes: 1 });
    expect(server.received('GET', '/v1/account/config')).toBeGreaterThanOrEqual(101);

    // The renewed token is good for another 900 s: later calls neither refresh nor log in.
    await api.account.config();
    expect(since(before)).toMatchObject({ apiKeyLogins: 1, apiKeyRefreshes: 1 });
  });

  it('a refresh token revoked by reuse makes the SDK log in again, and the caller’s request succeeds', async () => {
    const client = await server.t.client();
    const store = new MemoryTokenStore();
    const events: ClientEvent[] = [];
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock, tokenStore: store, log: (e) => events.push(e) });
    await api.account.config();
    // Another holder of the pair (a copy, a thief) refreshes with it first: the SDK's refresh
    // token is revoked, and the SDK's refresh will be a reuse, which ends the session.
    const copied = store.get()?.refresh_token;
    const elsewhere = await fetch(`${server.baseUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: copied }),
    });
    expect(elsewhere.status).toBe(200);

    clock.advance(870_000);
    const before = counts();
    const config = await api.account.config();
    expect(config.client_id).toBe(client.clientId);
    expect(since(before)).toMatchObject({ apiKeyRefreshes: 1, apiKeyLogins: 1 });
    expect(events).toContainEqual({ type: 'refresh_failed', status: 401, code: 'UNAUTHORIZED', reason: 'refresh_token_revoked' });
    expect(store.get()?.refresh_token).not.toBe(copied);
  });

  it('a 401 for a disabled client surfaces as client_disabled after one refresh and one login, not an endless loop', async () => {
    const client = await server.t.client();
    const events: ClientEvent[] = [];
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock, log: (e) => events.push(e) });
    await api.account.config();
    await server.admin('PATCH', `/admin/v1/clients/${client.clientId}`, { disabled: true });

    const before = counts();
    const calls = server.received('GET', '/v1/account/config');
    const error = await api.account.config().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SportsDataError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'client_disabled' });
    expect((error as SportsDataError).request_id).toMatch(/\S/);
    expect(since(before)).toMatchObject({ apiKeyRefreshes: 1, apiKeyLogins: 1 });
    expect(server.received('GET', '/v1/account/config') - calls).toBe(1);
    expect(events.filter((e) => e.type === 'unauthorized')).toEqual([{ type: 'unauthorized', request: 'GET /v1/account/config', reason: 'client_disabled', next: 'refresh' }]);

    // Enabled again, the same client goes on: the session the operator's switch kept.
    await server.admin('PATCH', `/admin/v1/clients/${client.clientId}`, { disabled: false });
    expect((await api.account.config()).client_id).toBe(client.clientId);
  });

  it('an access token the server refuses (expired by its clock) is refreshed once and the call retried', async () => {
    const client = await server.t.client();
    const events: ClientEvent[] = [];
    // This client keeps its own time: the server's moves past the token's expiry unseen.
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, log: (e) => events.push(e) });
    await api.account.config();
    // Past its 900 s and the server's 10 s leeway for clock skew.
    clock.advance(1_000_000);
    const before = counts();
    expect((await api.account.config()).client_id).toBe(client.clientId);
    expect(since(before)).toMatchObject({ apiKeyRefreshes: 1, apiKeyLogins: 0 });
    expect(events).toContainEqual({ type: 'unauthorized', request: 'GET /v1/account/config', reason: 'token_expired', next: 'refresh' });
    expect(events).toContainEqual({ type: 'refresh', flow: 'api_key', cause: 'unauthorized' });
  });

  it('an access token from before an upgrade that added claims (no cred, no gen) is refused once; the SDK refreshes and the call succeeds', async () => {
    // What operations.md's "Upgrading" promises for 0011: the session continues, the caller sees only events.
    const client = await server.t.client();
    const login = await fetch(`${server.baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'x-api-key': client.apiKey } });
    const pair = (await login.json()) as TokenPair;
    // The session the client kept across the upgrade (in a shared store, or in a process that ran
    // on): its access token as the previous version signed it, same key and claims but cred and gen.
    const { cred: _cred, gen: _gen, ...claims } = decodeJwt(pair.access_token);
    const kid = String(decodeProtectedHeader(pair.access_token).kid);
    const older = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid }).sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const store = new MemoryTokenStore();
    store.set({ ...pair, access_token: older });
    const events: ClientEvent[] = [];
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock, tokenStore: store, log: (e) => events.push(e) });

    const before = counts();
    expect((await api.account.config()).client_id).toBe(client.clientId);
    expect(since(before)).toMatchObject({ apiKeyRefreshes: 1, apiKeyLogins: 0 });
    expect(events).toContainEqual({ type: 'unauthorized', request: 'GET /v1/account/config', reason: 'token_invalid', next: 'refresh' });
    expect(decodeJwt(store.get()?.access_token ?? '')).toMatchObject({ cred: expect.any(String), gen: expect.any(Number) });
  });

  it('client credentials log in and refresh at the OAuth endpoints', async () => {
    const client = await server.t.client({ authMethod: 'oauth' });
    const api = new SportsDataClient({ baseUrl: server.baseUrl, clientId: client.clientId, clientSecret: client.clientSecret, clock });
    const before = counts();
    expect((await api.account.config()).auth_method).toBe('oauth');
    clock.advance(870_000);
    await Promise.all([api.account.config(), api.references.sports()]);
    expect(since(before)).toEqual({ apiKeyLogins: 0, apiKeyRefreshes: 0, oauthLogins: 1, oauthRefreshes: 1 });
  });

  it("authMode 'apiKeyHeader' sends X-API-Key on each call and never logs in", async () => {
    const client = await server.t.client();
    const { fetch, requests } = capturingFetch();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, authMode: 'apiKeyHeader', fetch });
    await api.account.config();
    await api.references.sports();
    expect(requests.map((r) => r.url.replace(server.baseUrl, ''))).toEqual(['/v1/account/config', '/v1/references/sports']);
    expect(requests.every((r) => r.headers['x-api-key'] === client.apiKey && r.headers.authorization === undefined)).toBe(true);
  });

  it('clients sharing a token store share one session: one login, and one refresh between them', async () => {
    const client = await server.t.client();
    const store = new MemoryTokenStore();
    const first = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock, tokenStore: store });
    const second = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock, tokenStore: store });
    const before = counts();
    await first.account.config();
    await second.account.config();
    expect(since(before)).toMatchObject({ apiKeyLogins: 1, apiKeyRefreshes: 0 });
    clock.advance(870_000);
    await Promise.all([...Array.from({ length: 10 }, () => first.account.config()), ...Array.from({ length: 10 }, () => second.account.config())]);
    expect(since(before)).toMatchObject({ apiKeyLogins: 1, apiKeyRefreshes: 1 });
  });

  it('logout revokes the session: its refresh token no longer refreshes, and the next call logs in', async () => {
    const client = await server.t.client();
    const store = new MemoryTokenStore();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, clock, tokenStore: store });
    await api.account.config();
    const refreshToken = store.get()?.refresh_token;
    await api.logout();
    expect(store.get()).toBeUndefined();
    const refused = await fetch(`${server.baseUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    expect(refused.status).toBe(401);
    const before = counts();
    await api.account.config();
    expect(since(before)).toMatchObject({ apiKeyLogins: 1 });
  });

  it('wrong credentials fail at the login, once, with invalid_credentials', async () => {
    const client = await server.t.client();
    const api = new SportsDataClient({ baseUrl: server.baseUrl, clientId: client.clientId, clientSecret: `${client.clientSecret.slice(0, -1)}${client.clientSecret.endsWith('x') ? 'y' : 'x'}` });
    const before = counts();
    await expect(api.references.sports()).rejects.toMatchObject({ status: 401, reason: 'invalid_credentials' });
    expect(since(before)).toMatchObject({ oauthLogins: 1 });
  });
});
