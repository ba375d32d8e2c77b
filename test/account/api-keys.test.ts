import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE_CREDENTIALS } from '../../src/modules/clients/index.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, expectUnauthorized, pairOf, refresh } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient, type OnboardedClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';
import { type ApiKeyBody, createdKey, expectDeleted, pageOf, selfService, withKey, withToken } from './credentials-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('a client manages its own API keys (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  async function client(authMethod: 'api_key' | 'oauth' | 'both' = 'both'): Promise<OnboardedClient> {
    return onboardClient(t, { authMethod });
  }

  it('a new key works at once and the old one keeps working; a deleted key answers 401 on the next request', async () => {
    const c = await client();
    const me = selfService(t, withKey(c.apiKey));
    const created = createdKey(await me.createKey({ name: 'production' }));
    expect(created).toEqual({ api_key: expect.stringMatching(/^sdk_/), key_code: expect.stringMatching(UUID), name: 'production', created_at: expect.any(String), expires_at: null });
    expect(new Date(created.created_at).getTime()).toBe(t.clock.now());

    // Both keys, side by side: rotation without downtime.
    expect((await accountWithApiKey(t, created.api_key)).statusCode).toBe(200);
    expect((await accountWithApiKey(t, c.apiKey)).statusCode).toBe(200);
    const oldPair = pairOf(await apiKeyLogin(t, c.apiKey));
    const newPair = pairOf(await apiKeyLogin(t, created.api_key));

    // The client deletes its old key, calling with the new one.
    const onboardingKey = pageOf<ApiKeyBody>(await me.listKeys()).results.find((k) => k.name === 'onboarding');
    expectDeleted(await selfService(t, withKey(created.api_key)).deleteKey(onboardingKey?.key_code ?? ''));

    expectUnauthorized(await accountWithApiKey(t, c.apiKey), 'invalid_credentials');
    expectUnauthorized(await apiKeyLogin(t, c.apiKey), 'invalid_credentials');
    // The sessions it started end at once: its access tokens and its refresh tokens.
    expectUnauthorized(await accountWithBearer(t, oldPair.access_token), 'token_invalid');
    expectUnauthorized(await refresh(t, 'api_key', oldPair.refresh_token), 'refresh_token_revoked');
    // Ending a session is not theft: no reuse warning for a token its key's deletion revoked.
    expect(t.logs()).not.toContain('revoked refresh token presented');
    // The new key's session is untouched.
    expect((await accountWithBearer(t, newPair.access_token)).statusCode).toBe(200);
    pairOf(await refresh(t, 'api_key', newPair.refresh_token));
    expect((await accountWithApiKey(t, created.api_key)).statusCode).toBe(200);
  });

  it('lists keys in the paginated shape, with a preview and never a key or a digest', async () => {
    const c = await client();
    const me = selfService(t, withKey(c.apiKey));
    const keys = [c.apiKey];
    for (const name of ['ci', 'staging']) {
      // Oldest first: keys created in the same millisecond are ordered by code instead.
      t.clock.advance(1000);
      keys.push(createdKey(await me.createKey({ name })).api_key);
    }
    const res = await me.listKeys('?page_size=2');
    expect(res.headers['cache-control']).toBe('no-store');
    const first = pageOf<ApiKeyBody>(res);
    expect(first).toMatchObject({ total_count: 3, page: 1, page_size: 2, total_pages: 2 });
    const second = pageOf<ApiKeyBody>(await me.listKeys('?page=2&page_size=2'));
    const all = [...first.results, ...second.results];
    expect(all.map((k) => k.name)).toEqual(['onboarding', 'ci', 'staging']);
    for (const key of all) {
      expect(Object.keys(key).sort()).toEqual(['active', 'created_at', 'expires_at', 'key_code', 'last_used_at', 'name', 'preview']);
      expect(key).toMatchObject({ key_code: expect.stringMatching(UUID), active: true, expires_at: null });
    }
    // The prefix and the last 4 characters, enough to tell keys apart.
    all.forEach((key, i) => expect(key.preview).toBe(`sdk_…${keys[i]?.slice(-4)}`));
    const digests = (await t.database.db.selectFrom('client_credentials').select('digest').execute()).map((r) => r.digest);
    const body = JSON.stringify(all);
    for (const secret of [...keys, c.clientSecret, ...digests]) expect(body.includes(secret)).toBe(false);
    for (const key of keys) expect(body.includes(key.slice(4, 20))).toBe(false);
  });

  it('Bearer tokens and X-API-Key may both manage keys; without credentials it is 401', async () => {
    const c = await client();
    const pair = pairOf(await apiKeyLogin(t, c.apiKey));
    createdKey(await selfService(t, withToken(pair.access_token)).createKey({ name: 'from a token' }));
    expect(pageOf<ApiKeyBody>(await selfService(t, withToken(pair.access_token)).listKeys()).total_count).toBe(2);
    expectUnauthorized(await t.app.inject({ method: 'GET', url: '/v1/account/api-keys' }), 'missing_credentials');
  });

  it(`holds at most ${MAX_ACTIVE_CREDENTIALS} active keys: the next is 409 CONFLICT; expired and deleted keys do not count`, async () => {
    const c = await client();
    const me = selfService(t, withKey(c.apiKey));
    const soon = new Date(t.clock.now() + 60_000).toISOString();
    const expiring = createdKey(await me.createKey({ name: 'expiring', expires_at: soon }));
    for (let i = 2; i < MAX_ACTIVE_CREDENTIALS; i++) createdKey(await me.createKey({ name: `key ${i}` }));
    const refused = expectError(await me.createKey({ name: 'one too many' }), 409, 'CONFLICT');
    expect(refused.message).toMatch(/10 active API keys/);
    // Concurrent creations cannot overshoot either: the cap is checked under the client's lock.
    t.clock.advance(120_000);
    const burst = await Promise.all(Array.from({ length: 5 }, (_, i) => me.createKey({ name: `burst ${i}` })));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const listed = pageOf<ApiKeyBody>(await me.listKeys('?page_size=100'));
    expect(listed.results.filter((k) => k.active)).toHaveLength(MAX_ACTIVE_CREDENTIALS);
    expect(listed.results.find((k) => k.key_code === expiring.key_code)?.active).toBe(false);
    // Deleting one frees a place.
    expectDeleted(await me.deleteKey(listed.results.find((k) => k.name === 'key 2')?.key_code ?? ''));
    createdKey(await me.createKey({ name: 'in its place' }));
  });

  it('an expired key is refused like a deleted one, and so are the sessions it started', async () => {
    const c = await client();
    const me = selfService(t, withKey(c.apiKey));
    // Within the access token's lifetime, so that the token is refused for its key, not its own expiry.
    const expiresAt = t.clock.now() + 300_000;
    const key = createdKey(await me.createKey({ name: 'temporary', expires_at: new Date(expiresAt).toISOString() }));
    expect(key.expires_at).toBe(new Date(expiresAt).toISOString());
    const pair = pairOf(await apiKeyLogin(t, key.api_key));
    expect((await accountWithApiKey(t, key.api_key)).statusCode).toBe(200);

    t.clock.set(expiresAt);
    expectUnauthorized(await accountWithApiKey(t, key.api_key), 'invalid_credentials');
    expectUnauthorized(await apiKeyLogin(t, key.api_key), 'invalid_credentials');
    expectUnauthorized(await accountWithBearer(t, pair.access_token), 'token_invalid');
    expectUnauthorized(await refresh(t, 'api_key', pair.refresh_token), 'refresh_token_revoked');
    expect(pageOf<ApiKeyBody>(await me.listKeys()).results.find((k) => k.key_code === key.key_code)?.active).toBe(false);
    // An expired key is not an active one: deleting it is always allowed.
    expectDeleted(await me.deleteKey(key.key_code));
  });

  it('refuses an expires_at in the past or that no clock shows (422), and unknown fields (422)', async () => {
    const c = await client();
    const me = selfService(t, withKey(c.apiKey));
    expectError(await me.createKey({ name: 'leap', expires_at: '2036-12-31T23:59:60Z' }), 422, 'VALIDATION_ERROR', { field: 'expires_at', rule: 'format' });
    expectError(await me.createKey({ name: 'nope', expires_at: 'tomorrow' }), 422, 'VALIDATION_ERROR', 'expires_at');
    expectError(await me.createKey({ name: 'late', expires_at: new Date(t.clock.now() - 1000).toISOString() }), 422, 'VALIDATION_ERROR', 'expires_at');
    expectError(await me.createKey({ name: 'x', expiresAt: '2099-01-01T00:00:00Z' }), 422, 'VALIDATION_ERROR');
    expectError(await me.createKey({}), 422, 'VALIDATION_ERROR', 'name');
    expectError(await me.createKey({ name: ' ' }), 422, 'VALIDATION_ERROR', 'name');
  });

  it('keeps last_used_at to the minute, without a write per request', async () => {
    const c = await client();
    const me = selfService(t, withKey(c.apiKey));
    const key = createdKey(await me.createKey({ name: 'measured' }));
    const listedKey = async () => pageOf<ApiKeyBody>(await me.listKeys()).results.find((k) => k.key_code === key.key_code);
    expect((await listedKey())?.last_used_at).toBeNull();
    t.clock.set(Date.parse('2031-05-06T07:08:09.123Z'));
    for (let i = 0; i < 3; i++) expect((await accountWithApiKey(t, key.api_key)).statusCode).toBe(200);
    pairOf(await apiKeyLogin(t, key.api_key));
    expect((await listedKey())?.last_used_at).toBe('2031-05-06T07:08:00.000Z');
    t.clock.advance(60_000);
    expect((await accountWithApiKey(t, key.api_key)).statusCode).toBe(200);
    expect((await listedKey())?.last_used_at).toBe('2031-05-06T07:09:00.000Z');
  });

  it("answers 404 for an unknown key_code and for another client's key, which stays untouched", async () => {
    const mine = await client();
    const theirs = await client();
    const theirKey = createdKey(await selfService(t, withKey(theirs.apiKey)).createKey({ name: 'theirs' }));
    const me = selfService(t, withKey(mine.apiKey));
    for (const code of [theirKey.key_code, '5b0e1c9e-0000-4000-8000-000000000000', 'not-a-code']) expectError(await me.deleteKey(code), 404, 'NOT_FOUND');
    expect((await accountWithApiKey(t, theirKey.api_key)).statusCode).toBe(200);
  });

  describe('the last active key of an account that logs in with API keys', () => {
    it.each(['api_key', 'both'] as const)('cannot be deleted when auth_method is %s: 409 CONFLICT saying why', async (authMethod) => {
      const c = await client(authMethod);
      const me = selfService(t, withKey(c.apiKey));
      const [only] = pageOf<ApiKeyBody>(await me.listKeys()).results;
      const error = expectError(await me.deleteKey(only?.key_code ?? ''), 409, 'CONFLICT');
      expect(error.message).toMatch(/last active API key/);
      expect(error.message).toContain(`auth_method (${authMethod})`);
      expect((await accountWithApiKey(t, c.apiKey)).statusCode).toBe(200);
      // Nor can it by racing: two deletions of the last two keys, at once, leave one.
      const second = createdKey(await me.createKey({ name: 'second' }));
      const both = await Promise.all([me.deleteKey(only?.key_code ?? ''), selfService(t, withKey(second.api_key)).deleteKey(second.key_code)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    });

    it('can be deleted when auth_method is oauth (its keys serve no flow)', async () => {
      const c = await client('oauth');
      const pair = pairOf(await t.app.inject({ method: 'POST', url: '/v1/oauth/login', payload: { client_id: c.clientId, client_secret: c.clientSecret } }));
      const me = selfService(t, withToken(pair.access_token));
      const [only] = pageOf<ApiKeyBody>(await me.listKeys()).results;
      expectDeleted(await me.deleteKey(only?.key_code ?? ''));
      expect(pageOf<ApiKeyBody>(await me.listKeys()).total_count).toBe(0);
    });
  });
});
