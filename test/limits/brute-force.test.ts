import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Caller, type Harness, harness, type Headers } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { limitHeaders, TEN_PAST_NOON } from './limits-helpers.js';

const ATTACKER = '203.0.113.7';
const OFFICE = '198.51.100.9';
const WRONG_SECRET = (secret: string) => `${secret.slice(0, 10)}${secret.slice(10, 11) === 'A' ? 'B' : 'A'}${secret.slice(11)}`;

/** The body of POST /v1/oauth/login. */
const secretOf = (clientId: string, clientSecret: string) => ({ client_id: clientId, client_secret: clientSecret });

/** A caller whose requests name `address` in X-Forwarded-For: the source address where the proxy (127.0.0.1) is trusted. */
const from = (t: Harness, address: string, headers: Headers = {}): Caller => t.as({ headers: { 'x-forwarded-for': address, ...headers } });

describe.each(DIALECTS)('brute force stopped (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  beforeAll(async () => {
    // The test's requests come from 127.0.0.1, the "load balancer" that sets X-Forwarded-For.
    t = await harness({ dialect, env: { TRUST_PROXY: '127.0.0.1', LOGIN_FAILURES_PER_MINUTE: '100', LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '10' } });
    client = await t.client({ authMethod: 'both', tier: 'enterprise' });
  });
  afterAll(async () => t.close());

  it("200 failed logins for one client_id from one address → 429; that client's correct login still succeeds, from there and elsewhere", async () => {
    t.clock.set(TEN_PAST_NOON);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 1) statuses.push((await from(t, ATTACKER).post('/v1/oauth/login', secretOf(client.clientId, WRONG_SECRET(client.clientSecret)))).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    const refused = await from(t, ATTACKER).post('/v1/oauth/login', secretOf(client.clientId, WRONG_SECRET(client.clientSecret)));
    expect(expectError(refused, 429, 'RATE_LIMIT_EXCEEDED').message).toMatch(/too many failed attempts from this address/);
    expect(limitHeaders(refused).retryAfter).toBe(50);

    expect((await from(t, ATTACKER).post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret))).statusCode).toBe(200);
    expect((await from(t, OFFICE).post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret))).statusCode).toBe(200);
    // The same address, the next minute: a failure is a 401 again.
    t.clock.advance(50_000);
    expect((await from(t, ATTACKER).post('/v1/oauth/login', secretOf(client.clientId, WRONG_SECRET(client.clientSecret)))).statusCode).toBe(401);
  });

  it('per source address, whatever the client_id: past LOGIN_FAILURES_PER_MINUTE every failed login from it is 429', async () => {
    t.clock.set(TEN_PAST_NOON + 3_600_000);
    const address = '203.0.113.8';
    for (let i = 0; i < 100; i += 1) expect((await from(t, address).post('/v1/oauth/login', secretOf(randomUUID(), client.clientSecret))).statusCode).toBe(401);
    expectError(await from(t, address).post('/v1/oauth/login', secretOf(randomUUID(), client.clientSecret)), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await from(t, address).post('/v1/oauth/login', secretOf(client.clientId, WRONG_SECRET(client.clientSecret))), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await from(t, address, { 'x-api-key': 'sdk_nope' }).post('/v1/auth/login'), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await from(t, OFFICE).post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret))).statusCode).toBe(200);
  });

  it('successful logins are not failures: concurrent correct logins never reach the limit', async () => {
    t.clock.set(TEN_PAST_NOON + 2 * 3_600_000);
    const address = '203.0.113.9';
    const statuses = await Promise.all(Array.from({ length: 40 }, () => from(t, address).post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret)).then((r) => r.statusCode)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    for (let i = 0; i < 9; i += 1) expect((await from(t, address).post('/v1/oauth/login', secretOf(client.clientId, 'sds_wrong'))).statusCode).toBe(401);
    expect((await from(t, address).post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret))).statusCode).toBe(200);
  });

  it('a burst of failures gets past the limit by at most the attempts in flight; then every failure is refused', async () => {
    t.clock.set(TEN_PAST_NOON + 3 * 3_600_000);
    const burst = await Promise.all(Array.from({ length: 50 }, () => from(t, '203.0.113.10').post('/v1/oauth/login', secretOf(client.clientId, 'sds_wrong')).then((r) => r.statusCode)));
    expect(burst.filter((s) => s === 401).length).toBeGreaterThanOrEqual(10);
    expect(burst.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    for (let i = 0; i < 5; i += 1) expectError(await from(t, '203.0.113.10').post('/v1/oauth/login', secretOf(client.clientId, 'sds_wrong')), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('failed API-key logins and refreshes count per address', async () => {
    t.clock.set(TEN_PAST_NOON + 4 * 3_600_000);
    const address = '203.0.113.11';
    for (let i = 0; i < 50; i += 1) {
      expect((await from(t, address, { 'x-api-key': 'sdk_nope' }).post('/v1/auth/login')).statusCode).toBe(401);
      expect((await from(t, address).post('/v1/auth/refresh', { refresh_token: 'sdr_nope' })).statusCode).toBe(401);
    }
    expectError(await from(t, address).post('/v1/oauth/refresh', { refresh_token: 'sdr_nope' }), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('refused X-API-Keys on data calls: past the limit the address gets 429 for every wrong key, Bearer calls and other addresses go on', async () => {
    t.clock.set(TEN_PAST_NOON + 5 * 3_600_000);
    const address = '203.0.113.12';
    const { access_token: accessToken } = await t.login(client);
    for (let i = 0; i < 100; i += 1) expect((await from(t, address, { 'x-api-key': `sdk_guess${i}` }).get('/v1/references/sports')).statusCode).toBe(401);
    expectError(await from(t, address, { 'x-api-key': 'sdk_guess' }).get('/v1/references/sports'), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await from(t, address, { authorization: `Bearer ${accessToken}` }).get('/v1/references/sports')).statusCode).toBe(200);
    expect((await from(t, OFFICE, { 'x-api-key': 'sdk_guess' }).get('/v1/references/sports')).statusCode).toBe(401);
    t.clock.advance(60_000);
    expect((await from(t, address, { 'x-api-key': 'sdk_guess' }).get('/v1/references/sports')).statusCode).toBe(401);
  });

  it('wrong admin tokens count per address as failed logins do, on the admin API and through the console sign-in alike (each once): 429 past the limit; the right token is still served', async () => {
    t.clock.set(TEN_PAST_NOON + 6 * 3_600_000);
    const address = '203.0.113.12';
    const wrong = { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` };
    for (let i = 0; i < 50; i += 1) {
      expect((await from(t, address, wrong).get('/admin/v1/clients')).statusCode).toBe(401);
      const signIn = await from(t, address, { host: 'localhost' }).post('/console/session', { admin_token: `${TEST_ADMIN_TOKEN}x` });
      expect(signIn.statusCode).toBe(401);
    }
    const refused = await from(t, address, wrong).get('/admin/v1/clients');
    expect(expectError(refused, 429, 'RATE_LIMIT_EXCEEDED').message).toMatch(/too many failed attempts from this address/);
    expect(limitHeaders(refused).retryAfter).toBeGreaterThan(0);
    expectError(await from(t, address, { host: 'localhost' }).post('/console/session', { admin_token: `${TEST_ADMIN_TOKEN}x` }), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await from(t, address, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }).get('/admin/v1/clients')).statusCode).toBe(200);
    expect((await from(t, OFFICE, wrong).get('/admin/v1/clients')).statusCode).toBe(401);
    // No token at all is not a guess.
    expect((await from(t, '203.0.113.13').get('/admin/v1/clients')).statusCode).toBe(401);
  });

  it('a credential that verifies is served from an address past its limit: API-key calls, both logins, both refreshes, the token endpoint', async () => {
    t.clock.set(TEN_PAST_NOON + 6 * 3_600_000);
    const address = '203.0.113.13';
    const behind = from(t, address);
    // Refresh tokens of both flows, from before the flood.
    const apiKeyPair = (await from(t, address, { 'x-api-key': client.apiKey }).post('/v1/auth/login')).json<{ refresh_token: string }>();
    const oauthPair = (await behind.post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret))).json<{ refresh_token: string }>();

    for (let i = 0; i < 100; i += 1) expect((await from(t, address, { 'x-api-key': `sdk_guess${i}` }).get('/v1/references/sports')).statusCode).toBe(401);
    expectError(await from(t, address, { 'x-api-key': 'sdk_guess' }).get('/v1/references/sports'), 429, 'RATE_LIMIT_EXCEEDED');

    // Clients behind one NAT share the address: the flood must not lock the others out.
    expect((await from(t, address, { 'x-api-key': client.apiKey }).get('/v1/references/sports')).statusCode).toBe(200);
    expect((await from(t, address, { 'x-api-key': client.apiKey }).post('/v1/auth/login')).statusCode).toBe(200);
    expect((await behind.post('/v1/oauth/login', secretOf(client.clientId, client.clientSecret))).statusCode).toBe(200);
    expect((await behind.post('/v1/auth/refresh', { refresh_token: apiKeyPair.refresh_token })).statusCode).toBe(200);
    expect((await behind.post('/v1/oauth/refresh', { refresh_token: oauthPair.refresh_token })).statusCode).toBe(200);
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret }).toString();
    expect((await behind.raw('POST', '/v1/oauth/token', form, 'application/x-www-form-urlencoded')).statusCode).toBe(200);

    // Failures from it are still refused as too many, whatever they try.
    expectError(await from(t, address, { 'x-api-key': client.apiKey.slice(0, -1) }).get('/v1/references/sports'), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await behind.post('/v1/oauth/login', secretOf(client.clientId, WRONG_SECRET(client.clientSecret))), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await from(t, address, { 'x-api-key': 'sdk_nope' }).post('/v1/auth/login'), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await behind.post('/v1/auth/refresh', { refresh_token: 'sdr_nope' }), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await behind.raw('POST', '/v1/oauth/token', form.replace(/client_secret=[^&]*/, 'client_secret=sds_nope'), 'application/x-www-form-urlencoded')).statusCode).toBe(429);
  });
});

describe('the source address without TRUST_PROXY', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite', env: { LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '5' } });
  });
  afterAll(async () => t.close());

  it('is the peer: an X-Forwarded-For a client writes itself changes nothing', async () => {
    const client = await t.client({ authMethod: 'both' });
    for (let i = 0; i < 5; i += 1) expect((await from(t, `192.0.2.${i}`).post('/v1/oauth/login', secretOf(client.clientId, 'sds_wrong'))).statusCode).toBe(401);
    expect((await from(t, '192.0.2.99').post('/v1/oauth/login', secretOf(client.clientId, 'sds_wrong'))).statusCode).toBe(429);
  });

  it('two real loopback addresses on a listening server: failures from the flooded one are refused, the other is not', async () => {
    const client = await t.client({ authMethod: 'both' });
    await t.app.listen({ host: '0.0.0.0', port: 0 });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const login = (localAddress: string, secret: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ client_id: client.clientId, client_secret: secret });
        const req = httpRequest({ host: '127.0.0.1', port, localAddress, method: 'POST', path: '/v1/oauth/login', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    const flood: number[] = [];
    for (let i = 0; i < 200; i += 1) flood.push(await login('127.0.0.2', 'sds_wrong'));
    expect(flood.slice(0, 5)).toEqual(Array(5).fill(401));
    expect(new Set(flood.slice(5))).toEqual(new Set([429]));
    expect(await login('127.0.0.2', 'sds_wrong')).toBe(429);
    expect(await login('127.0.0.1', 'sds_wrong')).toBe(401);
    expect(await login('127.0.0.2', client.clientSecret)).toBe(200);
  });
});
