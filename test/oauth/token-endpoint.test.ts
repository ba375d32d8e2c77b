import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectUnauthorized, pairOf, refresh, type TokenPairBody } from '../auth/auth-helpers.js';
import { basic, basicOf, expectOAuthError, token } from './oauth-helpers.js';

const CLIENT_CREDENTIALS = { grant_type: 'client_credentials' };
const BASIC_CHALLENGE = 'Basic realm="sports-data-api"';

/** POST /v1/oauth/token (RFC 6749), decision 0072. */
describe.each(DIALECTS)('the OAuth 2.0 token endpoint (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  let client: OnboardedClient;
  let other: OnboardedClient;
  beforeAll(async () => {
    [client, other] = [await t.client({ authMethod: 'both' }), await t.client({ authMethod: 'oauth' })];
  });

  const grant = async (form: Record<string, string>, headers = basicOf(client)) => {
    const res = await token(t, form, headers);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    return pairOf(res);
  };

  describe('client_credentials (RFC 6749 §4.4)', () => {
    it('answers the pair /v1/oauth/login gives, with client_secret_basic', async () => {
      const pair = await grant(CLIENT_CREDENTIALS);
      expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: t.config.accessTokenTtl, refresh_token: expect.stringMatching(/^sdr_/) });
      expect((await t.as({ accessToken: pair.access_token }).get('/v1/account/config')).json()).toMatchObject({ client_id: client.clientId });
      // An OAuth-flow pair: it rotates at /v1/oauth/refresh, not at /v1/auth/refresh (0004).
      expectUnauthorized(await refresh(t, 'api_key', pair.refresh_token), 'token_invalid');
      pairOf(await refresh(t, 'oauth', pair.refresh_token));
    });

    it('with client_secret_post, and with Basic credentials that were not form-urlencoded', async () => {
      await grant({ ...CLIENT_CREDENTIALS, client_id: client.clientId, client_secret: client.clientSecret }, {});
      const plain = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
      await grant(CLIENT_CREDENTIALS, { authorization: plain });
      // A client_id beside Basic may identify the client (RFC 6749 §3.2.1): in any case.
      await grant({ ...CLIENT_CREDENTIALS, client_id: client.clientId.toUpperCase() });
    });

    it('ignores unknown parameters, in the body and in the query (RFC 6749 §3.2), and an empty scope', async () => {
      await grant({ ...CLIENT_CREDENTIALS, audience: 'x', resource: 'https://example.com', scope: '', __proto__x: '1' });
      const res = await t
        .as({ headers: basicOf(client) })
        .raw('POST', '/v1/oauth/token?client_secret=nothing&foo=bar', 'grant_type=client_credentials&__proto__=1&constructor=2', 'application/x-www-form-urlencoded; charset=UTF-8');
      pairOf(res);
    });

    it('refuses an account whose auth_method does not enable OAuth: 401 unauthorized_client', async () => {
      const apiKeyOnly = await t.client({ authMethod: 'api_key' });
      const res = await token(t, CLIENT_CREDENTIALS, basicOf(apiKeyOnly));
      expectOAuthError(res, 401, 'unauthorized_client');
      expect(res.headers['www-authenticate']).toBe(BASIC_CHALLENGE);
    });

    it('refuses a disabled client: 401 invalid_client', async () => {
      const gone = await t.client({ authMethod: 'oauth' });
      await t.ctx.clients.update(gone.clientId, { disabled: true });
      expectOAuthError(await token(t, CLIENT_CREDENTIALS, basicOf(gone)), 401, 'invalid_client');
    });
  });

  describe('refresh_token (RFC 6749 §6)', () => {
    it('rotates the refresh token; either authentication method serves either grant', async () => {
      const first = await grant(CLIENT_CREDENTIALS);
      const second = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(second.refresh_token).not.toBe(first.refresh_token);
      // client_secret_post this time: either authentication method serves either grant.
      const post = { client_id: client.clientId, client_secret: client.clientSecret };
      const third = await grant({ grant_type: 'refresh_token', refresh_token: second.refresh_token, ...post }, {});
      expect((await t.as({ accessToken: third.access_token }).get('/v1/account/config')).statusCode).toBe(200);
    });

    it('a reused refresh token → invalid_grant, and its successor stops working too', async () => {
      const first = await grant(CLIENT_CREDENTIALS);
      const second = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expectOAuthError(await token(t, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, basicOf(client)), 400, 'invalid_grant');
      expectOAuthError(await token(t, { grant_type: 'refresh_token', refresh_token: second.refresh_token }, basicOf(client)), 400, 'invalid_grant');
    });

    it('also rotates a pair from /v1/oauth/login: one implementation, one family', async () => {
      const login = await t.oauthLogin(client);
      const next = await grant({ grant_type: 'refresh_token', refresh_token: login.refresh_token });
      pairOf(await refresh(t, 'oauth', next.refresh_token));
    });

    it('needs client authentication: without it 401 invalid_client, and the token is left as it was', async () => {
      const pair = await grant(CLIENT_CREDENTIALS);
      const res = await token(t, { grant_type: 'refresh_token', refresh_token: pair.refresh_token });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers['www-authenticate']).toBe(BASIC_CHALLENGE);
      await grant({ grant_type: 'refresh_token', refresh_token: pair.refresh_token });
    });

    it('another client’s refresh token → invalid_grant, and it keeps working for its owner', async () => {
      const theirs: TokenPairBody = await grant(CLIENT_CREDENTIALS, basicOf(other));
      expectOAuthError(await token(t, { grant_type: 'refresh_token', refresh_token: theirs.refresh_token }, basicOf(client)), 400, 'invalid_grant');
      await grant({ grant_type: 'refresh_token', refresh_token: theirs.refresh_token }, basicOf(other));
    });

    it('an API-key pair’s refresh token → invalid_grant (it rotates at /v1/auth/refresh only)', async () => {
      const apiKeyPair = await t.login(client);
      expectOAuthError(await token(t, { grant_type: 'refresh_token', refresh_token: apiKeyPair.refresh_token }, basicOf(client)), 400, 'invalid_grant');
      pairOf(await refresh(t, 'api_key', apiKeyPair.refresh_token));
    });

    it('unknown, malformed or missing refresh tokens', async () => {
      for (const refreshToken of ['sdr_nope', 'x'.repeat(500), `${client.clientSecret}`]) {
        expectOAuthError(await token(t, { grant_type: 'refresh_token', refresh_token: refreshToken }, basicOf(client)), 400, 'invalid_grant');
      }
      expect(expectOAuthError(await token(t, { grant_type: 'refresh_token' }, basicOf(client)), 400, 'invalid_request')).toMatch(/refresh_token/);
    });
  });

  describe('errors in RFC 6749 §5.2’s format', () => {
    it('a wrong secret or unknown client → 401 invalid_client, with a Basic challenge', async () => {
      const cases = [
        basicOf({ ...client, clientSecret: other.clientSecret }),
        { authorization: basic('7a4c1f52-2b7e-4d0a-9c3e-5f6a7b8c9d0e', client.clientSecret) },
        { authorization: 'Basic !!!' },
        { authorization: `Basic ${Buffer.from('no colon here').toString('base64')}` },
        { authorization: `Basic ${Buffer.from(`${client.clientId}:%E0%A4%A`).toString('base64')}` },
        { authorization: 'Bearer abc' },
      ];
      for (const headers of cases) {
        const res = await token(t, CLIENT_CREDENTIALS, headers);
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers['www-authenticate']).toBe(BASIC_CHALLENGE);
      }
      const post = await token(t, { ...CLIENT_CREDENTIALS, client_id: client.clientId, client_secret: other.clientSecret });
      expectOAuthError(post, 401, 'invalid_client');
      expectOAuthError(await token(t, { ...CLIENT_CREDENTIALS, client_secret: client.clientSecret }), 401, 'invalid_client');
      expectOAuthError(await token(t, CLIENT_CREDENTIALS), 401, 'invalid_client');
    });

    it('two authentication methods, or a client_id that contradicts Basic → invalid_request', async () => {
      expectOAuthError(await token(t, { ...CLIENT_CREDENTIALS, client_id: client.clientId, client_secret: client.clientSecret }, basicOf(client)), 400, 'invalid_request');
      expectOAuthError(await token(t, { ...CLIENT_CREDENTIALS, client_id: other.clientId }, basicOf(client)), 400, 'invalid_request');
    });

    it('grant_type missing → invalid_request; another grant → unsupported_grant_type, without echoing it', async () => {
      expect(expectOAuthError(await token(t, {}, basicOf(client)), 400, 'invalid_request')).toMatch(/grant_type/);
      expectOAuthError(await token(t, '', basicOf(client)), 400, 'invalid_request');
      for (const grantType of ['password', 'authorization_code', 'CLIENT_CREDENTIALS', client.clientSecret]) {
        const description = expectOAuthError(await token(t, { grant_type: grantType }, basicOf(client)), 400, 'unsupported_grant_type');
        expect(description).not.toContain(client.clientSecret);
      }
    });

    it('a scope → invalid_scope (none are supported)', async () => {
      expectOAuthError(await token(t, { ...CLIENT_CREDENTIALS, scope: 'read' }, basicOf(client)), 400, 'invalid_scope');
    });

    it('a repeated parameter → invalid_request (RFC 6749 §3.2)', async () => {
      const description = expectOAuthError(await token(t, 'grant_type=client_credentials&grant_type=client_credentials', basicOf(client)), 400, 'invalid_request');
      expect(description).toBe('grant_type must be sent once (RFC 6749 section 3.2)');
    });

    it('a body that is not a form → invalid_request naming the media type', async () => {
      for (const type of ['application/json', 'text/plain']) {
        const res = await t.as({ headers: basicOf(client) }).raw('POST', '/v1/oauth/token', JSON.stringify(CLIENT_CREDENTIALS), type);
        expect(expectOAuthError(res, 400, 'invalid_request')).toMatch(/application\/x-www-form-urlencoded/);
      }
    });

    it('a body over 1 MiB → 413 invalid_request', async () => {
      expectOAuthError(await token(t, { ...CLIENT_CREDENTIALS, pad: 'x'.repeat(1024 * 1024) }, basicOf(client)), 413, 'invalid_request');
    });
  });
});
