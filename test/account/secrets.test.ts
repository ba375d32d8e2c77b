import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE_CREDENTIALS } from '../../src/modules/clients/index.js';
import { accountWithBearer, expectUnauthorized, oauthLogin, pairOf, refresh } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';
import { createdSecret, expectDeleted, pageOf, type SecretBody, selfService, withKey, withToken } from './credentials-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('a client manages its own client secrets (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('a new secret works at once beside the old one; a deleted secret and its sessions answer 401 at once', async () => {
    const c = await onboardClient(t, { authMethod: 'oauth' });
    const oldPair = pairOf(await oauthLogin(t, c.clientId, c.clientSecret));
    const me = selfService(t, withToken(oldPair.access_token));
    // Odditt's path is singular; the body is optional.
    const created = createdSecret(await me.createSecret());
    expect(created).toEqual({
      client_secret: expect.stringMatching(/^sds_/),
      secret_code: expect.stringMatching(UUID),
      name: 'client secret',
      secret_preview: `sds_…${created.client_secret.slice(-4)}`,
      created_at: expect.any(String),
    });
    const newPair = pairOf(await oauthLogin(t, c.clientId, created.client_secret));
    pairOf(await oauthLogin(t, c.clientId, c.clientSecret));

    const listed = pageOf<SecretBody>(await me.listSecrets());
    expect(listed).toMatchObject({ total_count: 2, page: 1, page_size: 20, total_pages: 1 });
    for (const secret of listed.results) expect(Object.keys(secret).sort()).toEqual(['created_at', 'name', 'secret_code', 'secret_preview']);
    const body = JSON.stringify(listed);
    for (const secret of [c.clientSecret, created.client_secret]) expect(body.includes(secret.slice(4, 24))).toBe(false);

    const old = listed.results.find((s) => s.name === 'onboarding');
    expect(old?.secret_preview).toBe(`sds_…${c.clientSecret.slice(-4)}`);
    expectDeleted(await selfService(t, withToken(newPair.access_token)).deleteSecret(old?.secret_code ?? ''));

    expectUnauthorized(await oauthLogin(t, c.clientId, c.clientSecret), 'invalid_credentials');
    expectUnauthorized(await accountWithBearer(t, oldPair.access_token), 'token_invalid');
    expectUnauthorized(await refresh(t, 'oauth', oldPair.refresh_token), 'refresh_token_revoked');
    expect((await accountWithBearer(t, newPair.access_token)).statusCode).toBe(200);
    pairOf(await refresh(t, 'oauth', newPair.refresh_token));
  });

  it(`holds at most ${MAX_ACTIVE_CREDENTIALS} secrets: the next is 409 CONFLICT`, async () => {
    const c = await onboardClient(t, { authMethod: 'both' });
    const me = selfService(t, withKey(c.apiKey));
    for (let i = 1; i < MAX_ACTIVE_CREDENTIALS; i++) createdSecret(await me.createSecret({ name: `secret ${i}` }));
    expect(expectError(await me.createSecret({ name: 'one too many' }), 409, 'CONFLICT').message).toMatch(/10 active client secrets/);
    expect(pageOf<SecretBody>(await me.listSecrets('?page_size=100')).total_count).toBe(MAX_ACTIVE_CREDENTIALS);
  });

  it.each(['oauth', 'both'] as const)('refuses to delete the last secret when auth_method is %s: 409 CONFLICT saying why', async (authMethod) => {
    const c = await onboardClient(t, { authMethod });
    const me = selfService(t, withToken(pairOf(await oauthLogin(t, c.clientId, c.clientSecret)).access_token));
    const [only] = pageOf<SecretBody>(await me.listSecrets()).results;
    const error = expectError(await me.deleteSecret(only?.secret_code ?? ''), 409, 'CONFLICT');
    expect(error.message).toMatch(/last active client secret .*oauth flow/);
    pairOf(await oauthLogin(t, c.clientId, c.clientSecret));
  });

  it('deletes the last secret of an api_key account (it serves no flow there)', async () => {
    const c = await onboardClient(t, { authMethod: 'api_key' });
    const me = selfService(t, withKey(c.apiKey));
    const [only] = pageOf<SecretBody>(await me.listSecrets()).results;
    expectDeleted(await me.deleteSecret(only?.secret_code ?? ''));
    expectError(await me.deleteSecret(only?.secret_code ?? ''), 404, 'NOT_FOUND');
  });
});
