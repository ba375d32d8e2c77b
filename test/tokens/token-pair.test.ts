import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_JWT_SECRET } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { apiKeyLogin, oauthLogin, pairOf, refresh, type TokenPairBody } from '../auth/auth-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ACCESS_TOKEN_TTL = 600;

describe.each(DIALECTS)('token pair (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;
  // JWT_SECRET as UTF-8 bytes: the HS256 key (decision 0005).
  const key = new TextEncoder().encode(TEST_JWT_SECRET);

  beforeAll(async () => {
    t = await harness({ dialect, env: { ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL) } });
    client = await t.client({ authMethod: 'both', tier: 'enterprise' });
  });
  afterAll(async () => t.close());

  async function everyPair(): Promise<Array<[string, TokenPairBody, Record<string, unknown>]>> {
    const apiKey = await apiKeyLogin(t, client.apiKey);
    const oauth = await oauthLogin(t, client.clientId, client.clientSecret);
    const apiKeyPair = pairOf(apiKey);
    const oauthPair = pairOf(oauth);
    const apiKeyRefresh = await refresh(t, 'api_key', apiKeyPair.refresh_token);
    const oauthRefresh = await refresh(t, 'oauth', oauthPair.refresh_token);
    return [
      ['POST /v1/auth/login', apiKeyPair, apiKey.headers],
      ['POST /v1/oauth/login', oauthPair, oauth.headers],
      ['POST /v1/auth/refresh', pairOf(apiKeyRefresh), apiKeyRefresh.headers],
      ['POST /v1/oauth/refresh', pairOf(oauthRefresh), oauthRefresh.headers],
    ];
  }

  it('has every field with its type, token_type Bearer, expires_in = ACCESS_TOKEN_TTL, expires_at = exp, no-store', async () => {
    for (const [endpoint, pair, headers] of await everyPair()) {
      expect(Object.keys(pair).sort(), endpoint).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type']);
      expect(pair.access_token, endpoint).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(pair.refresh_token, endpoint).toMatch(/^sdr_[0-9A-Za-z]{49}$/);
      expect(pair.token_type, endpoint).toBe('Bearer');
      expect(Number.isInteger(pair.expires_in), endpoint).toBe(true);
      expect(pair.expires_in, endpoint).toBe(ACCESS_TOKEN_TTL);
      expect(pair.expires_at, endpoint).toMatch(ISO_8601);
      const { payload } = await jwtVerify(pair.access_token, key, { algorithms: ['HS256'] });
      expect(Date.parse(pair.expires_at), endpoint).toBe((payload.exp ?? 0) * 1000);
      expect(headers['cache-control'], endpoint).toBe('no-store');
      expect(headers.pragma, endpoint).toBe('no-cache');
    }
  });

  it('gives every login and every refresh a new refresh token', async () => {
    const tokens = (await everyPair()).map(([, pair]) => pair.refresh_token);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('issues an access token an independent library verifies: HS256, at+jwt, kid, the claims of docs/api.md, cred and gen', async () => {
    // cred: the code of the credential the session was started with (decision 0101).
    const account = await t.ctx.directory.byId(client.clientId);
    const codeOf = (kind: string) => [...(account?.credentials.values() ?? [])].find((c) => c.kind === kind)?.code;
    for (const [endpoint, pair] of await everyPair()) {
      const { payload, protectedHeader } = await jwtVerify(pair.access_token, key, {
        algorithms: ['HS256'],
        issuer: 'sports-data-api',
        audience: 'sports-data-api',
        typ: 'at+jwt',
      });
      expect(protectedHeader, endpoint).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: expect.any(String) });
      expect(decodeProtectedHeader(pair.access_token).kid, endpoint).toMatch(/\S/);
      expect(payload, endpoint).toEqual({
        client_id: client.clientId,
        tenant_id: client.tenantId,
        tier: 'enterprise',
        iss: 'sports-data-api',
        sub: client.clientId,
        aud: 'sports-data-api',
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.any(String),
        cred: codeOf(endpoint.includes('oauth') ? 'client_secret' : 'api_key'),
        gen: 1,
      });
      expect(payload.cred, endpoint).toMatch(UUID);
      expect(payload.client_id, endpoint).toMatch(UUID);
      expect(payload.tenant_id, endpoint).toMatch(UUID);
      expect(payload.exp, endpoint).toBe((payload.iat ?? 0) + ACCESS_TOKEN_TTL);
      expect(Math.abs((payload.iat ?? 0) - t.clock.now() / 1000), endpoint).toBeLessThanOrEqual(1);
    }
  });

  it('gives every access token its own jti', async () => {
    const ids = await Promise.all(
      (await everyPair()).map(async ([, pair]) => (await jwtVerify(pair.access_token, key, { algorithms: ['HS256'] })).payload.jti),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('takes the issuer from JWT_ISSUER', async () => {
    const custom = await harness({ dialect, env: { JWT_ISSUER: 'https://auth.example.test' } });
    try {
      const c = await custom.client();
      const pair = pairOf(await apiKeyLogin(custom, c.apiKey));
      const { payload } = await jwtVerify(pair.access_token, key, { algorithms: ['HS256'], issuer: 'https://auth.example.test' });
      expect(payload.iss).toBe('https://auth.example.test');
    } finally {
      await custom.close();
    }
  });

  it('sends Cache-Control: no-store on errors of the token endpoints too', async () => {
    const responses = await Promise.all([
      t.anonymous.post('/v1/auth/login'),
      t.anonymous.post('/v1/oauth/login', { client_id: client.clientId, client_secret: 'sds_wrong' }),
      t.anonymous.post('/v1/oauth/login', {}),
      t.anonymous.post('/v1/auth/refresh', { refresh_token: 'sdr_nope' }),
      t.anonymous.raw('POST', '/v1/oauth/refresh', '{"refresh_token":'),
    ]);
    for (const res of responses) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.headers['cache-control'], res.body).toBe('no-store');
      expect(res.headers.pragma, res.body).toBe('no-cache');
    }
  });
});
