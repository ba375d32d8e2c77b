import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import {
  accountWithApiKey,
  accountWithBearer,
  apiKeyLogin,
  expectUnauthorized,
  oauthLogin,
  pairOf,
  refresh,
  type TokenPairBody,
} from './auth-helpers.js';

describe.each(DIALECTS)('operator changes take effect on the next request (%s)', (dialect) => {
  let t: Harness | undefined;
  let client: OnboardedClient;
  let apiKeyPair: TokenPairBody;
  let oauthPair: TokenPairBody;

  // A fresh app per test: each test changes the account.
  beforeEach(async () => {
    await t?.close();
    t = await harness({ dialect });
    client = await t.client({ authMethod: 'both' });
    apiKeyPair = pairOf(await apiKeyLogin(t, client.apiKey));
    oauthPair = pairOf(await oauthLogin(t, client.clientId, client.clientSecret));
    // Warm every cache on the way, so that the test shows invalidation, not a cold read.
    expect((await accountWithApiKey(t, client.apiKey)).statusCode).toBe(200);
    expect((await accountWithBearer(t, apiKeyPair.access_token)).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  function app(): Harness {
    if (!t) throw new Error('no app');
    return t;
  }

  it('both → oauth: X-API-Key, API-key login and API-key refresh answer 401; Bearer and OAuth keep working', async () => {
    await app().ctx.clients.update(client.clientId, { authMethod: 'oauth' });

    expectUnauthorized(await accountWithApiKey(app(), client.apiKey), 'flow_not_enabled');
    expectUnauthorized(await apiKeyLogin(app(), client.apiKey), 'flow_not_enabled');
    expectUnauthorized(await refresh(app(), 'api_key', apiKeyPair.refresh_token), 'flow_not_enabled');
    // Bearer on calls is allowed for every auth_method, also with a token from the API-key login.
    expect((await accountWithBearer(app(), apiKeyPair.access_token)).statusCode).toBe(200);
    expect((await accountWithBearer(app(), oauthPair.access_token)).statusCode).toBe(200);
    pairOf(await refresh(app(), 'oauth', oauthPair.refresh_token));
    pairOf(await oauthLogin(app(), client.clientId, client.clientSecret));

    // The refused API-key refresh changed no state: once the flow is back, the token still rotates.
    await app().ctx.clients.update(client.clientId, { authMethod: 'both' });
    pairOf(await refresh(app(), 'api_key', apiKeyPair.refresh_token));
  });

  it('both → api_key: OAuth login and OAuth refresh answer 401; X-API-Key and Bearer keep working', async () => {
    await app().ctx.clients.update(client.clientId, { authMethod: 'api_key' });

    expectUnauthorized(await oauthLogin(app(), client.clientId, client.clientSecret), 'flow_not_enabled');
    expectUnauthorized(await refresh(app(), 'oauth', oauthPair.refresh_token), 'flow_not_enabled');
    expect((await accountWithApiKey(app(), client.apiKey)).statusCode).toBe(200);
    expect((await accountWithBearer(app(), oauthPair.access_token)).statusCode).toBe(200);
    pairOf(await refresh(app(), 'api_key', apiKeyPair.refresh_token));
  });

  it('a disabled client gets 401 client_disabled everywhere, even with an unexpired access token', async () => {
    await app().ctx.clients.update(client.clientId, { disabled: true });

    const bearer = await accountWithBearer(app(), apiKeyPair.access_token);
    expectUnauthorized(bearer, 'client_disabled');
    expect(bearer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expectUnauthorized(await accountWithBearer(app(), oauthPair.access_token), 'client_disabled');
    expectUnauthorized(await accountWithApiKey(app(), client.apiKey), 'client_disabled');
    expectUnauthorized(await apiKeyLogin(app(), client.apiKey), 'client_disabled');
    expectUnauthorized(await oauthLogin(app(), client.clientId, client.clientSecret), 'client_disabled');
    expectUnauthorized(await refresh(app(), 'api_key', apiKeyPair.refresh_token), 'client_disabled');
    expectUnauthorized(await refresh(app(), 'oauth', oauthPair.refresh_token), 'client_disabled');

    // Re-enabled, the same credentials and tokens work again: disabling is not revoking.
    await app().ctx.clients.update(client.clientId, { disabled: false });
    expect((await accountWithBearer(app(), apiKeyPair.access_token)).statusCode).toBe(200);
    pairOf(await refresh(app(), 'oauth', oauthPair.refresh_token));
  });

  it('a changed tier shows at once in /v1/account/config, also through an access token issued before', async () => {
    await app().ctx.clients.update(client.clientId, { tier: 'enterprise' });
    const res = await accountWithBearer(app(), apiKeyPair.access_token);
    expect(res.json()).toMatchObject({ tier: 'enterprise', auth_method: 'both' });
  });

  it('rotated credentials: the old API key, client secret and refresh tokens stop working at once', async () => {
    const { credentials } = await app().ctx.clients.rotateCredentials(client.clientId);
    expectUnauthorized(await accountWithApiKey(app(), client.apiKey), 'invalid_credentials');
    expectUnauthorized(await apiKeyLogin(app(), client.apiKey), 'invalid_credentials');
    expectUnauthorized(await oauthLogin(app(), client.clientId, client.clientSecret), 'invalid_credentials');
    expectUnauthorized(await refresh(app(), 'api_key', apiKeyPair.refresh_token), 'refresh_token_revoked');
    pairOf(await apiKeyLogin(app(), credentials.apiKey));
    pairOf(await oauthLogin(app(), client.clientId, credentials.clientSecret));
  });
});
