import { describe, expect, it } from 'vitest';
import { type ApiKeyBody, createdKey, createdSecret, pageOf, type SecretBody, selfService, withKey } from '../account/credentials-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, expectUnauthorized, oauthLogin, pairOf, refresh } from './auth-helpers.js';

interface ResetBody {
  api_key: string;
  client_secret: string;
}

/**
 * The operator's emergency reset (POST /admin/v1/clients/{id}/credentials): every key and secret
 * is replaced by one new pair, every session ends, and every access token issued before stops at
 * once, not after ACCESS_TOKEN_TTL. Revoking for a reset is not refresh-token theft.
 */
describe.each(DIALECTS)('an operator reset (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: { LOG_LEVEL: 'info' } }));

  async function reset(clientId: string): Promise<ResetBody> {
    const res = await t.admin.post(`/admin/v1/clients/${clientId}/credentials`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ResetBody>();
  }

  it('ends every access token issued before it at once, also those of the same second, and not those issued after', async () => {
    const c = await onboardClient(t, { authMethod: 'both' });
    const key2 = createdKey(await selfService(t, withKey(c.apiKey)).createKey({ name: 'second' }));
    const before = [
      pairOf(await apiKeyLogin(t, c.apiKey)),
      pairOf(await apiKeyLogin(t, key2.api_key)),
      pairOf(await oauthLogin(t, c.clientId, c.clientSecret)),
    ];
    for (const pair of before) expect((await accountWithBearer(t, pair.access_token)).statusCode).toBe(200);

    // The manual clock stands still: the reset and the logins after it share one second (one iat).
    const fresh = await reset(c.clientId);
    for (const pair of before) expectUnauthorized(await accountWithBearer(t, pair.access_token), 'token_invalid');
    const after = pairOf(await apiKeyLogin(t, fresh.api_key));
    expect((await accountWithBearer(t, after.access_token)).statusCode).toBe(200);
    expect((await accountWithBearer(t, pairOf(await oauthLogin(t, c.clientId, fresh.client_secret)).access_token)).statusCode).toBe(200);
  });

  it('replaces every key and secret with one new pair, and ends every session without calling it theft', async () => {
    const c = await onboardClient(t, { authMethod: 'both' });
    const me = selfService(t, withKey(c.apiKey));
    const keys = [c.apiKey, createdKey(await me.createKey({ name: 'b' })).api_key, createdKey(await me.createKey({ name: 'c' })).api_key];
    const secrets = [c.clientSecret, createdSecret(await me.createSecret()).client_secret];
    const apiKeyPair = pairOf(await apiKeyLogin(t, keys[1] ?? ''));
    const oauthPair = pairOf(await oauthLogin(t, c.clientId, secrets[1] ?? ''));

    const fresh = await reset(c.clientId);
    for (const key of keys) expectUnauthorized(await accountWithApiKey(t, key), 'invalid_credentials');
    for (const secret of secrets) expectUnauthorized(await oauthLogin(t, c.clientId, secret), 'invalid_credentials');
    expectUnauthorized(await refresh(t, 'api_key', apiKeyPair.refresh_token), 'refresh_token_revoked');
    expectUnauthorized(await refresh(t, 'oauth', oauthPair.refresh_token), 'refresh_token_revoked');

    const listedKeys = pageOf<ApiKeyBody>(await t.admin.get(`/admin/v1/clients/${c.clientId}/api-keys`));
    const listedSecrets = pageOf<SecretBody>(await t.admin.get(`/admin/v1/clients/${c.clientId}/secrets`));
    expect(listedKeys.results).toEqual([expect.objectContaining({ name: 'operator reset', preview: `sdk_…${fresh.api_key.slice(-4)}` })]);
    expect(listedSecrets.results).toEqual([expect.objectContaining({ name: 'operator reset', secret_preview: `sds_…${fresh.client_secret.slice(-4)}` })]);

    // Why each token was revoked is kept, and a reset's tokens coming back are logged as such.
    const reasons = await t.database.db.selectFrom('refresh_tokens').select('revoked_reason').where('client_id', '=', c.clientId).execute();
    expect(reasons.map((r) => r.revoked_reason)).toEqual(['reset', 'reset']);
    const lines = t.logs().split('\n').filter((line) => line.includes(c.clientId));
    expect(lines.some((line) => line.includes('revoked refresh token presented'))).toBe(false);
    expect(lines.filter((line) => line.includes('refresh token of an ended session presented') && line.includes('"revoked_reason":"reset"'))).toHaveLength(2);
  });

  it('still treats a rotated token coming back as theft: warning, family revoked with reason reuse', async () => {
    const c = await onboardClient(t, { authMethod: 'api_key' });
    const first = pairOf(await apiKeyLogin(t, c.apiKey));
    const second = pairOf(await refresh(t, 'api_key', first.refresh_token));
    expectUnauthorized(await refresh(t, 'api_key', first.refresh_token), 'refresh_token_revoked');
    expectUnauthorized(await refresh(t, 'api_key', second.refresh_token), 'refresh_token_revoked');
    const lines = t.logs().split('\n').filter((line) => line.includes(c.clientId));
    expect(lines.some((line) => line.includes('revoked refresh token presented'))).toBe(true);
    const reasons = await t.database.db.selectFrom('refresh_tokens').select('revoked_reason').where('client_id', '=', c.clientId).orderBy('created_at').execute();
    expect(reasons.map((r) => r.revoked_reason).sort()).toEqual(['reuse', 'rotated']);
  });
});
