import { describe, expect, it } from 'vitest';
import { generateCredential } from '../../src/modules/auth/credentials.js';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { forSuite, type Harness, harness } from '../helpers/harness.js';
import { basicOf, revoke, token } from '../oauth/oauth-helpers.js';
import { createdKey, createdSecret, selfService, withToken } from '../account/credentials-helpers.js';
import { pairOf, refresh } from './auth-helpers.js';

/**
 * Runs every authentication flow, successful and failed, and collects each credential that
 * crossed the wire: the suites below then look for them where they must never be.
 */
async function exerciseEveryFlow(t: Harness, client: OnboardedClient): Promise<string[]> {
  const secrets: string[] = [client.apiKey, client.clientSecret];
  const keep = (pair: { access_token: string; refresh_token: string }) => {
    secrets.push(pair.access_token, pair.refresh_token);
    return pair;
  };

  const apiKeyPair = keep(await t.login(client));
  const oauthPair = keep(await t.oauthLogin(client));
  const apiKeyNext = keep(pairOf(await refresh(t, 'api_key', apiKeyPair.refresh_token)));
  keep(pairOf(await refresh(t, 'oauth', oauthPair.refresh_token)));
  // Reuse of a rotated token: revokes the family, and logs a warning about it.
  expect((await refresh(t, 'api_key', apiKeyPair.refresh_token)).statusCode).toBe(401);
  expect((await refresh(t, 'api_key', apiKeyNext.refresh_token)).statusCode).toBe(401);
  // A pair at the wrong refresh endpoint.
  const wrongFlow = keep(await t.oauthLogin(client));
  expect((await refresh(t, 'api_key', wrongFlow.refresh_token)).statusCode).toBe(401);

  expect((await t.as({ accessToken: oauthPair.access_token }).get('/v1/account/config')).statusCode).toBe(200);
  expect((await t.as(client).get('/v1/account/config')).statusCode).toBe(200);

  // Credentials created and deleted by the client itself (decision 0100): shown once in a 201, then used.
  const me = selfService(t, withToken(apiKeyNext.access_token));
  const key = createdKey(await me.createKey({ name: 'rotation' }));
  const secret = createdSecret(await me.createSecret({ name: 'rotation' }));
  secrets.push(key.api_key, secret.client_secret);
  keep(await t.login({ apiKey: key.api_key }));
  keep(await t.oauthLogin({ clientId: client.clientId, clientSecret: secret.client_secret }));
  expect((await me.deleteKey(key.key_code)).statusCode).toBe(204);
  expect((await t.as({ apiKey: key.api_key }).get('/v1/account/config')).statusCode).toBe(401);

  // Failed logins with wrong, but well-formed, credentials, and a malformed body around a secret.
  const wrongSecret = generateCredential('clientSecret');
  const wrongKey = generateCredential('apiKey');
  secrets.push(wrongSecret, wrongKey);
  expect((await t.anonymous.post('/v1/oauth/login', { client_id: client.clientId, client_secret: wrongSecret })).statusCode).toBe(401);
  expect((await t.as({ apiKey: wrongKey }).post('/v1/auth/login')).statusCode).toBe(401);
  expect((await t.as({ apiKey: wrongKey }).get('/v1/account/config')).statusCode).toBe(401);
  const malformed = await t.anonymous.raw('POST', '/v1/oauth/login', `{"client_id":"${client.clientId}","client_secret":"${client.clientSecret}"`);
  expect(malformed.statusCode).toBe(400);
  const wrongType = await t.anonymous.post('/v1/oauth/login', { client_id: 5, client_secret: client.clientSecret });
  expect(wrongType.statusCode).toBe(400);
  // Both credentials on one call (served: one client), a mismatched pair (401), and a credential in a URL.
  const both = (apiKey: string) => t.as({ headers: { 'x-api-key': apiKey, authorization: `Bearer ${oauthPair.access_token}` } });
  expect((await both(client.apiKey).get('/v1/account/config')).statusCode).toBe(200);
  expect((await both(wrongKey).get('/v1/account/config')).statusCode).toBe(401);
  await t.anonymous.get(`/v1/account/config?api_key=${client.apiKey}&access_token=${oauthPair.access_token}`);

  // The standard OAuth endpoints (decision 0072): form bodies, Basic credentials, failures among them.
  const post = { client_id: client.clientId, client_secret: client.clientSecret };
  const granted = keep(pairOf(await token(t, { grant_type: 'client_credentials' }, basicOf(client))));
  const rotated = keep(pairOf(await token(t, { grant_type: 'refresh_token', refresh_token: granted.refresh_token, ...post })));
  expect((await token(t, { grant_type: 'refresh_token', refresh_token: granted.refresh_token }, basicOf(client))).statusCode).toBe(400);
  expect((await token(t, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: wrongSecret })).statusCode).toBe(401);
  expect((await revoke(t, { token: rotated.access_token, ...post })).statusCode).toBe(400);
  expect((await revoke(t, { token: rotated.refresh_token }, { 'x-api-key': client.apiKey })).statusCode).toBe(200);
  expect((await token(t, `grant_type=password&password=${client.clientSecret}&token=${rotated.refresh_token}`, basicOf(client))).statusCode).toBe(400);
  return secrets;
}

describe.each(DIALECTS)('no credential in the logs (%s)', (dialect) => {
  // The server's real logger at its most talkative level, writing into a buffer.
  const t = forSuite(() => harness({ dialect, env: { LOG_LEVEL: 'trace' } }));

  it('logs none of the issued access tokens, refresh tokens, API keys and client secrets, nor their first 24 characters', async () => {
    const secrets = await exerciseEveryFlow(t, await t.client({ authMethod: 'both' }));
    const logs = t.logs();
    // The logger really wrote: one JSON line per request at least, the reuse warning among them.
    expect(logs.split('\n').filter((line) => line.trim() !== '').length).toBeGreaterThan(20);
    expect(logs).toContain('revoked refresh token presented');
    expect(secrets.length).toBeGreaterThanOrEqual(20);
    for (const secret of secrets) {
      expect(logs.includes(secret), `a credential (${secret.slice(0, 4)}…) is in the log`).toBe(false);
      expect(logs.includes(secret.slice(0, 24)), `the first 24 characters of a credential (${secret.slice(0, 4)}…) are in the log`).toBe(false);
    }
    // JWTs share their header; their payload and signature segments must not appear either.
    for (const jwt of secrets.filter((s) => s.startsWith('eyJ'))) {
      for (const segment of jwt.split('.').slice(1)) expect(logs.includes(segment.slice(0, 24))).toBe(false);
    }
  });
});

describe.each(DIALECTS)('credentials at rest (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('stores no API key, client secret or refresh token in plaintext (only digests)', async () => {
    const client = await t.client({ authMethod: 'both' });
    const secrets = (await exerciseEveryFlow(t, client)).filter((s) => !s.startsWith('eyJ'));
    const { db } = t.database;
    const rows = {
      clients: await db.selectFrom('clients').selectAll().execute(),
      client_credentials: await db.selectFrom('client_credentials').selectAll().execute(),
      tenants: await db.selectFrom('tenants').selectAll().execute(),
      refresh_tokens: await db.selectFrom('refresh_tokens').selectAll().execute(),
    };
    expect(rows.clients.length).toBeGreaterThan(0);
    expect(rows.refresh_tokens.length).toBeGreaterThanOrEqual(5);
    const dump = JSON.stringify(rows);
    for (const secret of secrets) {
      expect(dump.includes(secret), `${secret.slice(0, 4)}… is stored in plaintext`).toBe(false);
      // Not even a recognisable part of one (the random body without prefix and checksum).
      expect(dump.includes(secret.slice(4, 28))).toBe(false);
    }
    for (const row of rows.refresh_tokens) expect(row.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.client_credentials.length).toBeGreaterThanOrEqual(2);
    for (const row of rows.client_credentials) expect(row.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
