import { describe, expect, it } from 'vitest';
import { type ApiKeyBody, createdKey, expectDeleted, pageOf, type SecretBody, selfService, withKey } from '../account/credentials-helpers.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, expectUnauthorized, oauthLogin, pairOf, refresh } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';

describe.each(DIALECTS)("admin API: a client's API keys and secrets (%s)", (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it("lists a client's keys and secrets without a secret or a digest, and deletes one: it answers 401 on the next request", async () => {
    const c = await onboardClient(t, { authMethod: 'both' });
    const second = createdKey(await selfService(t, withKey(c.apiKey)).createKey({ name: 'second' }));
    const pair = pairOf(await apiKeyLogin(t, second.api_key));

    const keysRes = await t.admin.get(`/admin/v1/clients/${c.clientId}/api-keys`);
    expect(keysRes.headers['cache-control']).toBe('no-store');
    const keys = pageOf<ApiKeyBody>(keysRes);
    expect(keys.results.map((k) => k.name)).toEqual(expect.arrayContaining(['onboarding', 'second']));
    const secrets = pageOf<SecretBody>(await t.admin.get(`/admin/v1/clients/${c.clientId}/secrets?page=1&page_size=5`));
    expect(secrets).toMatchObject({ total_count: 1, page_size: 5, results: [{ name: 'onboarding' }] });
    const digests = (await t.database.db.selectFrom('client_credentials').select('digest').where('client_id', '=', c.clientId).execute()).map((r) => r.digest);
    expect(digests).toHaveLength(3);
    const listed = JSON.stringify([keys, secrets]);
    for (const secret of [c.apiKey, second.api_key, c.clientSecret, ...digests]) expect(listed.includes(secret.slice(4, 28))).toBe(false);

    expectDeleted(await t.admin.delete(`/admin/v1/clients/${c.clientId}/api-keys/${second.key_code}`));
    expectUnauthorized(await accountWithApiKey(t, second.api_key), 'invalid_credentials');
    expectUnauthorized(await accountWithBearer(t, pair.access_token), 'token_invalid');
    expectUnauthorized(await refresh(t, 'api_key', pair.refresh_token), 'refresh_token_revoked');
    expect((await accountWithApiKey(t, c.apiKey)).statusCode).toBe(200);
    // The operator is held to the same rule as the client: the last key of an enabled flow stays.
    const onboarding = keys.results.find((k) => k.name === 'onboarding');
    expect(expectError(await t.admin.delete(`/admin/v1/clients/${c.clientId}/api-keys/${onboarding?.key_code}`), 409, 'CONFLICT').message).toMatch(/last active API key/);
    const secret = secrets.results[0];
    expectError(await t.admin.delete(`/admin/v1/clients/${c.clientId}/secrets/${secret?.secret_code}`), 409, 'CONFLICT');
  });

  it('answers 404 for an unknown client, and for a code of another client', async () => {
    const a = await onboardClient(t);
    const b = await onboardClient(t);
    const [bKey] = pageOf<ApiKeyBody>(await t.admin.get(`/admin/v1/clients/${b.clientId}/api-keys`)).results;
    for (const id of ['5b0e1c9e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expectError(await t.admin.get(`/admin/v1/clients/${id}/api-keys`), 404, 'NOT_FOUND');
      expectError(await t.admin.get(`/admin/v1/clients/${id}/secrets`), 404, 'NOT_FOUND');
      expectError(await t.admin.delete(`/admin/v1/clients/${id}/api-keys/${bKey?.key_code}`), 404, 'NOT_FOUND');
      expectError(await t.admin.delete(`/admin/v1/clients/${id}`), 404, 'NOT_FOUND');
    }
    expectError(await t.admin.delete(`/admin/v1/clients/${a.clientId}/api-keys/${bKey?.key_code}`), 404, 'NOT_FOUND');
    expect((await accountWithApiKey(t, b.apiKey)).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('admin API: offboarding a client (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('ends every credential and token at once: later calls get 401 client_deleted; the client row and its history stay', async () => {
    const c = await onboardClient(t, { authMethod: 'both' });
    const bystander = await onboardClient(t, { authMethod: 'both' });
    const apiKeyPair = pairOf(await apiKeyLogin(t, c.apiKey));
    const oauthPair = pairOf(await oauthLogin(t, c.clientId, c.clientSecret));
    expect((await accountWithApiKey(t, c.apiKey)).statusCode).toBe(200);

    expectDeleted(await t.admin.delete(`/admin/v1/clients/${c.clientId}`));

    expectUnauthorized(await accountWithApiKey(t, c.apiKey), 'client_deleted');
    expectUnauthorized(await accountWithBearer(t, apiKeyPair.access_token), 'client_deleted');
    expectUnauthorized(await accountWithBearer(t, oauthPair.access_token), 'client_deleted');
    expectUnauthorized(await apiKeyLogin(t, c.apiKey), 'client_deleted');
    expectUnauthorized(await oauthLogin(t, c.clientId, c.clientSecret), 'client_deleted');
    expectUnauthorized(await refresh(t, 'api_key', apiKeyPair.refresh_token), 'client_deleted');
    expectUnauthorized(await refresh(t, 'oauth', oauthPair.refresh_token), 'client_deleted');
    expect(t.logs()).not.toContain('revoked refresh token presented');
    expect((await accountWithApiKey(t, bystander.apiKey)).statusCode).toBe(200);

    // Soft delete: the client is still there for billing, marked; its tokens are revoked, not gone.
    const shown = await t.admin.get(`/admin/v1/clients/${c.clientId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ client_id: c.clientId, deleted_at: new Date(t.clock.now()).toISOString() });
    const tokens = await t.database.db.selectFrom('refresh_tokens').select(['revoked_at', 'revoked_reason']).where('client_id', '=', c.clientId).execute();
    expect(tokens).toHaveLength(2);
    expect(tokens.every((row) => row.revoked_reason === 'client_deleted' && row.revoked_at !== null)).toBe(true);
    expect(pageOf<ApiKeyBody>(await t.admin.get(`/admin/v1/clients/${c.clientId}/api-keys`)).total_count).toBe(0);

    // A deleted client can no longer be changed; deleting it again changes nothing.
    expectError(await t.admin.patch(`/admin/v1/clients/${c.clientId}`, { disabled: false }), 409, 'CONFLICT');
    expectError(await t.admin.post(`/admin/v1/clients/${c.clientId}/credentials`), 409, 'CONFLICT');
    expectDeleted(await t.admin.delete(`/admin/v1/clients/${c.clientId}`));
    expect((await t.admin.get(`/admin/v1/clients/${c.clientId}`)).json()).toMatchObject({ deleted_at: new Date(t.clock.now()).toISOString() });
  });
});
