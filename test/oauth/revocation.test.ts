import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCredential } from '../../src/modules/auth/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { apiKeyLogin, expectUnauthorized, oauthLogin, pairOf, refresh } from '../auth/auth-helpers.js';
import { basicOf, expectOAuthError, revoke, token } from './oauth-helpers.js';

/** POST /v1/oauth/revoke (RFC 7009), decision 0072. */
describe.each(DIALECTS)('OAuth 2.0 token revocation (%s)', (dialect) => {
  let t: Harness;
  let both: OnboardedClient;
  let apiKeyOnly: OnboardedClient;
  let oauthOnly: OnboardedClient;

  beforeAll(async () => {
    t = await harness({ dialect });
    both = await t.client({ authMethod: 'both' });
    apiKeyOnly = await t.client({ authMethod: 'api_key' });
    oauthOnly = await t.client({ authMethod: 'oauth' });
  });
  afterAll(async () => t.close());

  const expectRevoked = (res: Awaited<ReturnType<typeof revoke>>) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['cache-control']).toBe('no-store');
  };

  it('a refresh token ends its whole session: the token and every one rotated from the same login', async () => {
    const first = pairOf(await oauthLogin(t, both.clientId, both.clientSecret));
    const second = pairOf(await refresh(t, 'oauth', first.refresh_token));
    expectRevoked(await revoke(t, { token: second.refresh_token }, basicOf(both)));
    expectUnauthorized(await refresh(t, 'oauth', second.refresh_token), 'refresh_token_revoked');
    // A session started at the token endpoint too, revoked with client_secret_post.
    const fromGrant = pairOf(await token(t, { grant_type: 'client_credentials' }, basicOf(both)));
    expectRevoked(await revoke(t, { token: fromGrant.refresh_token, client_id: both.clientId, client_secret: both.clientSecret }));
    expectOAuthError(await token(t, { grant_type: 'refresh_token', refresh_token: fromGrant.refresh_token }, basicOf(both)), 400, 'invalid_grant');
  });

  it('revokes the client’s tokens of either flow; other sessions of the client go on', async () => {
    const apiKeyPair = pairOf(await apiKeyLogin(t, both.apiKey));
    const otherSession = pairOf(await apiKeyLogin(t, both.apiKey));
    expectRevoked(await revoke(t, { token: apiKeyPair.refresh_token }, basicOf(both)));
    expectUnauthorized(await refresh(t, 'api_key', apiKeyPair.refresh_token), 'refresh_token_revoked');
    pairOf(await refresh(t, 'api_key', otherSession.refresh_token));
  });

  it('an API-key-only client authenticates with X-API-Key', async () => {
    const pair = pairOf(await apiKeyLogin(t, apiKeyOnly.apiKey));
    expectRevoked(await revoke(t, { token: pair.refresh_token }, { 'x-api-key': apiKeyOnly.apiKey }));
    expectUnauthorized(await refresh(t, 'api_key', pair.refresh_token), 'refresh_token_revoked');
  });

  it('a credential the account’s auth_method does not enable → 401 unauthorized_client', async () => {
    const pair = pairOf(await apiKeyLogin(t, apiKeyOnly.apiKey));
    expectOAuthError(await revoke(t, { token: pair.refresh_token }, basicOf(apiKeyOnly)), 401, 'unauthorized_client');
    const oauthPair = pairOf(await oauthLogin(t, oauthOnly.clientId, oauthOnly.clientSecret));
    expectOAuthError(await revoke(t, { token: oauthPair.refresh_token }, { 'x-api-key': oauthOnly.apiKey }), 401, 'unauthorized_client');
    // Neither was revoked.
    pairOf(await refresh(t, 'api_key', pair.refresh_token));
    pairOf(await refresh(t, 'oauth', oauthPair.refresh_token));
  });

  it('another client’s token → invalid_request, and it keeps working', async () => {
    const theirs = pairOf(await oauthLogin(t, oauthOnly.clientId, oauthOnly.clientSecret));
    expectOAuthError(await revoke(t, { token: theirs.refresh_token }, basicOf(both)), 400, 'invalid_request');
    expectOAuthError(await revoke(t, { token: theirs.access_token }, basicOf(both)), 400, 'invalid_request');
    pairOf(await refresh(t, 'oauth', theirs.refresh_token));
  });

  it('an unknown, malformed or expired token answers 200 (RFC 7009 §2.2)', async () => {
    for (const value of [generateCredential('refreshToken'), 'sdr_nope', 'garbage', 'eyJhbGciOiJub25lIn0.e30.', 'x'.repeat(5_000)]) {
      expectRevoked(await revoke(t, { token: value }, basicOf(both)));
    }
    const pair = pairOf(await oauthLogin(t, both.clientId, both.clientSecret));
    t.clock.advance((t.config.accessTokenTtl + 60) * 1000);
    try {
      expectRevoked(await revoke(t, { token: pair.access_token }, basicOf(both)));
    } finally {
      t.clock.advance(-(t.config.accessTokenTtl + 60) * 1000);
    }
  });

  it('an access token → unsupported_token_type: it stays valid until it expires', async () => {
    const pair = pairOf(await oauthLogin(t, both.clientId, both.clientSecret));
    expect(expectOAuthError(await revoke(t, { token: pair.access_token }, basicOf(both)), 400, 'unsupported_token_type')).toMatch(/refresh token/);
  });

  it('token_type_hint is ignored, whatever it says', async () => {
    const pair = pairOf(await oauthLogin(t, both.clientId, both.clientSecret));
    expectRevoked(await revoke(t, { token: pair.refresh_token, token_type_hint: 'access_token' }, basicOf(both)));
    expectUnauthorized(await refresh(t, 'oauth', pair.refresh_token), 'refresh_token_revoked');
    expectRevoked(await revoke(t, { token: 'sdr_nope', token_type_hint: 'nonsense' }, basicOf(both)));
  });

  it('errors: no authentication → 401 invalid_client naming both schemes; two methods, no token → invalid_request', async () => {
    const pair = pairOf(await oauthLogin(t, both.clientId, both.clientSecret));
    const res = await revoke(t, { token: pair.refresh_token });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers['www-authenticate']).toBe('Basic realm="sports-data-api", ApiKey realm="sports-data-api"');
    expectOAuthError(await revoke(t, { token: pair.refresh_token }, { ...basicOf(both), 'x-api-key': both.apiKey }), 400, 'invalid_request');
    expectOAuthError(await revoke(t, {}, basicOf(both)), 400, 'invalid_request');
    expectOAuthError(await revoke(t, { token: pair.refresh_token }, { 'x-api-key': generateCredential('apiKey') }), 401, 'invalid_client');
    // Nothing above revoked it.
    pairOf(await refresh(t, 'oauth', pair.refresh_token));
  });
});
