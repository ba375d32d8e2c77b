import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, generateCredential } from '../../src/modules/auth/credentials.js';
import { migrateTo } from '../../src/platform/db/migrations.js';
import { type ApiKeyBody, createdKey, expectDeleted, pageOf, type SecretBody, selfService, withKey } from '../account/credentials-helpers.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, expectUnauthorized, oauthLogin, pairOf, refresh } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { ROOT } from '../helpers/process.js';

/**
 * Migration 0011: a client of before (one API key and one client secret, as digests on its row,
 * and live sessions) keeps every credential and every session, now as rows of its own.
 */
describe.each(DIALECTS)('migrating clients to several credentials (%s)', (dialect) => {
  const before = {
    clientId: randomUUID(),
    tenantId: randomUUID(),
    apiKey: generateCredential('apiKey'),
    clientSecret: generateCredential('clientSecret'),
    apiKeyRefresh: generateCredential('refreshToken'),
    oauthRefresh: generateCredential('refreshToken'),
    rotatedRefresh: generateCredential('refreshToken'),
    createdAt: Date.parse('2026-01-02T03:04:05.000Z'),
  };
  let t: Harness;

  beforeAll(async () => {
    t = await harness({
      dialect,
      async beforeMigrating({ db }) {
        await migrateTo(db, '0002_sports_data');
        const now = Date.now();
        await sql`insert into tenants (id, created_at) values (${before.tenantId}, ${before.createdAt})`.execute(db);
        await sql`insert into clients (id, tenant_id, name, tier, auth_method, disabled, api_key_digest, client_secret_digest, created_at, updated_at)
          values (${before.clientId}, ${before.tenantId}, 'Old Co', 'pro', 'both', 0, ${digest(before.apiKey)}, ${digest(before.clientSecret)},
                  ${before.createdAt}, ${before.createdAt})`.execute(db);
        const token = (refreshToken: string, flow: string, family: string, revokedAt: number | null) =>
          sql`insert into refresh_tokens (digest, client_id, family_id, flow, created_at, expires_at, revoked_at)
            values (${digest(refreshToken)}, ${before.clientId}, ${family}, ${flow}, ${now}, ${now + 86_400_000}, ${revokedAt})`.execute(db);
        await token(before.apiKeyRefresh, 'api_key', 'family-a', null);
        await token(before.oauthRefresh, 'oauth', 'family-o', null);
        await token(before.rotatedRefresh, 'api_key', 'family-r', now);
      },
    });
  });
  afterAll(async () => t.close());

  it('keeps the API key and the client secret, listed as the onboarding credentials, and no digest on the client row', async () => {
    expect((await accountWithApiKey(t, before.apiKey)).statusCode).toBe(200);
    pairOf(await apiKeyLogin(t, before.apiKey));
    pairOf(await oauthLogin(t, before.clientId, before.clientSecret));
    const me = selfService(t, withKey(before.apiKey));
    const keys = pageOf<ApiKeyBody>(await me.listKeys());
    expect(keys.results).toEqual([
      { key_code: expect.any(String), name: 'onboarding', preview: 'sdk_…', created_at: '2026-01-02T03:04:05.000Z', expires_at: null, last_used_at: expect.any(String), active: true },
    ]);
    expect(pageOf<SecretBody>(await me.listSecrets()).results).toEqual([
      { secret_code: expect.any(String), name: 'onboarding', secret_preview: 'sds_…', created_at: '2026-01-02T03:04:05.000Z' },
    ]);
    // The docs say what these listings show, not the last four characters that new credentials have.
    const prose = (path: string) => readFileSync(join(ROOT, path), 'utf8').replace(/\s+/g, ' ');
    expect(prose('docs/api.md')).toContain('is named `onboarding` and previewed by its prefix alone, `sdk_…` or `sds_…`');
    expect(prose('docs/operations.md')).toContain('listed with the name `onboarding` and their prefix alone as the preview (`sdk_…`, `sds_…`)');
    const [row] = await t.database.db.selectFrom('clients').selectAll().where('id', '=', before.clientId).execute();
    expect(Object.keys(row ?? {}).sort()).toEqual(
      ['auth_method', 'created_at', 'credential_generation', 'daily_quota', 'deleted_at', 'disabled', 'flow_vocabulary', 'id', 'name', 'rate_limit_per_minute', 'tenant_id', 'tier', 'updated_at'],
    );
    expect(row).toMatchObject({ credential_generation: 1, deleted_at: null });
  });

  it('keeps the sessions: both refresh tokens rotate, bound to the credential of their flow', async () => {
    const apiKeyPair = pairOf(await refresh(t, 'api_key', before.apiKeyRefresh));
    const oauthPair = pairOf(await refresh(t, 'oauth', before.oauthRefresh));
    expect((await accountWithBearer(t, apiKeyPair.access_token)).statusCode).toBe(200);
    expect((await accountWithBearer(t, oauthPair.access_token)).statusCode).toBe(200);
    // A token revoked before reasons were kept is handled as a rotated one: a replay.
    expectUnauthorized(await refresh(t, 'api_key', before.rotatedRefresh), 'refresh_token_revoked');
    expect(t.logs()).toContain('revoked refresh token presented');

    // Bound to the migrated key: deleting it (after creating another) ends the API-key session only.
    const me = selfService(t, withKey(before.apiKey));
    const replacement = createdKey(await me.createKey({ name: 'replacement' }));
    const migrated = pageOf<ApiKeyBody>(await me.listKeys()).results.find((k) => k.name === 'onboarding');
    expectDeleted(await selfService(t, withKey(replacement.api_key)).deleteKey(migrated?.key_code ?? ''));
    expectUnauthorized(await refresh(t, 'api_key', apiKeyPair.refresh_token), 'refresh_token_revoked');
    expectUnauthorized(await accountWithBearer(t, apiKeyPair.access_token), 'token_invalid');
    pairOf(await refresh(t, 'oauth', oauthPair.refresh_token));
  });

  it('keeps the foreign keys to clients (SQLite rebuilt the table): rows naming no client are refused', async () => {
    const { db } = t.database;
    const stranger = randomUUID();
    await expect(
      db
        .insertInto('refresh_tokens')
        .values({ digest: digest(generateCredential('refreshToken')), client_id: stranger, family_id: 'f', flow: 'api_key', credential_code: null, generation: 1, created_at: 0, expires_at: 1, revoked_at: null, revoked_reason: null })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('client_credentials')
        .values({ code: randomUUID(), client_id: stranger, kind: 'api_key', digest: 'x', name: 'x', preview: 'x', created_at: 0, expires_at: null, last_used_at: null, deleted_at: null })
        .execute(),
    ).rejects.toThrow();
    await expect(db.insertInto('clients').values({ id: randomUUID(), tenant_id: stranger, name: 'x', tier: 'pro', auth_method: 'both', disabled: 0, credential_generation: 1, deleted_at: null, created_at: 0, updated_at: 0 }).execute()).rejects.toThrow();
  });
});
