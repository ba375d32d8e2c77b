import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCredential } from '../../src/modules/auth/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { onboardClient, type OnboardedClient } from '../helpers/clients.js';
import { apiKeyLogin, expectUnauthorized, oauthLogin, pairOf } from './auth-helpers.js';

/**
 * Decision 0070: OpenAPI-generated clients configured with an API key and a bearer token send
 * both on every call. Served when both are valid, allowed and name one client; otherwise a 401
 * with the reason of the credential at fault, or `credentials_mismatch`.
 */
describe.each(DIALECTS)('X-API-Key and Authorization: Bearer on one call (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  let other: OnboardedClient;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await harness({ dialect });
    client = await onboardClient(t, { authMethod: 'both', name: 'Acme' });
    other = await onboardClient(t, { authMethod: 'both', name: 'Globex' });
    token = pairOf(await oauthLogin(t, client.clientId, client.clientSecret)).access_token;
    otherToken = pairOf(await apiKeyLogin(t, other.apiKey)).access_token;
  });
  afterAll(async () => t.close());

  /** Both credentials on one call. */
  const both = (apiKey: string, accessToken: string) => t.as({ headers: { 'x-api-key': apiKey, authorization: `Bearer ${accessToken}` } });

  it('both naming the same client → served, as that client', async () => {
    const res = await both(client.apiKey, token).get('/v1/account/config');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ client_id: client.clientId });
    const data = await both(client.apiKey, token).get('/v1/references/sports');
    expect(data.statusCode, data.body).toBe(200);
  });

  it('each valid, but of different clients → 401 credentials_mismatch, either way round', async () => {
    for (const res of [await both(client.apiKey, otherToken).get('/v1/account/config'), await both(other.apiKey, token).get('/v1/references/sports')]) {
      expectUnauthorized(res, 'credentials_mismatch');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="sports-data-api"');
    }
  });

  it('an invalid access token beside a valid key → 401 with the token’s reason', async () => {
    // Another first character of the signature: its last ones carry padding bits, so changing
    // them can leave the signature's bytes as they were (this test failed once that way).
    const [header, payload, signature = ''] = token.split('.');
    const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const res = await both(client.apiKey, tampered).get('/v1/account/config');
    expectUnauthorized(res, 'token_invalid');
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('an expired access token beside a valid key → 401 token_expired', async () => {
    const fresh = pairOf(await oauthLogin(t, client.clientId, client.clientSecret)).access_token;
    t.clock.advance((t.config.accessTokenTtl + 60) * 1000);
    try {
      expectUnauthorized(await both(client.apiKey, fresh).get('/v1/account/config'), 'token_expired');
    } finally {
      t.clock.advance(-(t.config.accessTokenTtl + 60) * 1000);
    }
  });

  it('an invalid API key beside a valid token → 401 with the key’s reason', async () => {
    expectUnauthorized(await both(generateCredential('apiKey'), token).get('/v1/account/config'), 'invalid_credentials');
    expectUnauthorized(await both('sdk_nope', token).get('/v1/account/config'), 'invalid_credentials');
  });

  it('an API key the account does not allow (auth_method oauth) → 401 flow_not_enabled, though the token is fine', async () => {
    const oauthOnly = await onboardClient(t, { authMethod: 'oauth' });
    const oauthToken = pairOf(await oauthLogin(t, oauthOnly.clientId, oauthOnly.clientSecret)).access_token;
    expect((await t.app.inject({ method: 'GET', url: '/v1/account/config', headers: { authorization: `Bearer ${oauthToken}` } })).statusCode).toBe(200);
    expectUnauthorized(await both(oauthOnly.apiKey, oauthToken).get('/v1/account/config'), 'flow_not_enabled');
  });

  it('a disabled client → 401 client_disabled with both credentials too', async () => {
    const gone = await onboardClient(t, { authMethod: 'both' });
    const goneToken = pairOf(await apiKeyLogin(t, gone.apiKey)).access_token;
    await t.ctx.clients.update(gone.clientId, { disabled: true });
    expectUnauthorized(await both(gone.apiKey, goneToken).get('/v1/account/config'), 'client_disabled');
  });
});
