import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { purgeOldAudit, createAuditRepository } from '../../src/modules/audit/index.js';
import { type As, createdKey, createdSecret, pageOf, selfService, withKey, withToken } from '../account/credentials-helpers.js';
import { apiKeyLogin, pairOf } from '../auth/auth-helpers.js';
import { adminHeaders, DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { expectError } from '../helpers/responses.js';

interface EntryBody {
  id: number;
  at: string;
  client_id: string;
  action: string;
  actor: { type: string; via: string; client_id: string | null; credential_code: string | null; token_id: string | null; address: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const OPERATOR_ADDRESS = '203.0.113.7';
const CLIENT_ADDRESS = '198.51.100.23';

/** The claims of an access token, read without verifying it (the test only names the token's id). */
function claimsOf(accessToken: string): { jti: string; cred: string } {
  const [, payload = ''] = accessToken.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti: string; cred: string };
}

describe.each(DIALECTS)('audit log (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: adminHeaders, remoteAddress: OPERATOR_ADDRESS, ...(payload ? { payload } : {}) });
  /** The client's self-service calls, from the client's own address. */
  const client = (as: As) => {
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: as, remoteAddress: CLIENT_ADDRESS, ...(payload ? { payload } : {}) });
    return {
      createKey: (body: object) => call('POST', '/v1/account/api-keys', body),
      deleteKey: (code: string) => call('DELETE', `/v1/account/api-keys/${code}`),
      createSecret: (body: object) => call('POST', '/v1/account/secret', body),
      deleteSecret: (code: string) => call('DELETE', `/v1/account/secrets/${code}`),
    };
  };
  const adminLog = async (clientId: string) => pageOf<EntryBody>(await admin('GET', `/admin/v1/audit-log?client_id=${clientId}&page_size=100`)).results;
  const entryCount = async () => Number((await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('records each kind of change once, with its actor, address and the fields before and after, and never a secret', async () => {
    const onboarded = await admin('POST', '/admin/v1/clients', { name: 'Audited Co', tier: 'pro', auth_method: 'both' });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    const { client_id: clientId, api_key: apiKey, client_secret: clientSecret } = onboarded.json<{ client_id: string; api_key: string; client_secret: string }>();
    const [onboardingKey] = pageOf<{ key_code: string }>(await selfService(t, withKey(apiKey)).listKeys()).results;
    const [onboardingSecret] = pageOf<{ secret_code: string }>(await selfService(t, withKey(apiKey)).listSecrets()).results;

    expect((await admin('PATCH', `/admin/v1/clients/${clientId}`, { tier: 'enterprise' })).statusCode).toBe(200);
    expect((await admin('PATCH', `/admin/v1/clients/${clientId}`, { rate_limit_per_minute: 50, daily_quota: 900 })).statusCode).toBe(200);
    expect((await admin('PATCH', `/admin/v1/clients/${clientId}`, { disabled: true })).statusCode).toBe(200);
    expect((await admin('PATCH', `/admin/v1/clients/${clientId}`, { disabled: false })).statusCode).toBe(200);

    // The client, with its key and then with a token: each names what it called with.
    const second = createdKey(await client(withKey(apiKey)).createKey({ name: 'deploy' }));
    const pair = pairOf(await apiKeyLogin(t, second.api_key));
    const token = claimsOf(pair.access_token);
    const secret = createdSecret(await client(withToken(pair.access_token)).createSecret({ name: 'rotation' }));
    expect((await client(withToken(pair.access_token)).deleteSecret(secret.secret_code)).statusCode).toBe(204);
    expect((await client(withToken(pair.access_token)).deleteKey(onboardingKey?.key_code ?? '')).statusCode).toBe(204);
    // The operator deletes a key too; the CLI (the services in process) changes the tier.
    const third = createdKey(await client(withKey(second.api_key)).createKey({ name: 'spare', expires_at: '2099-01-01T00:00:00Z' }));
    expect((await admin('DELETE', `/admin/v1/clients/${clientId}/api-keys/${third.key_code}`)).statusCode).toBe(204);
    await t.ctx.clients.update(clientId, { tier: 'pro' });

    const reset = await admin('POST', `/admin/v1/clients/${clientId}/credentials`);
    expect(reset.statusCode).toBe(200);
    const afterReset = reset.json<{ api_key: string; client_secret: string }>();
    expect((await admin('DELETE', `/admin/v1/clients/${clientId}`)).statusCode).toBe(204);
    // Offboarding an offboarded client changes nothing, and records nothing.
    expect((await admin('DELETE', `/admin/v1/clients/${clientId}`)).statusCode).toBe(204);

    const log = await adminLog(clientId);
    const operator = { type: 'operator', via: 'admin_api', client_id: null, credential_code: null, token_id: null, address: OPERATOR_ADDRESS };
    const byKey = { type: 'client', via: 'api_key', client_id: clientId, token_id: null, address: CLIENT_ADDRESS };
    const byToken = { type: 'client', via: 'bearer', client_id: clientId, credential_code: second.key_code, token_id: token.jti, address: CLIENT_ADDRESS };
    // Newest first.
    expect(log.map((e) => e.action)).toEqual([
      'client.offboarded',
      'client.reset',
      'client.updated',
      'api_key.deleted',
      'api_key.created',
      'api_key.deleted',
      'secret.deleted',
      'secret.created',
      'api_key.created',
      'client.updated',
      'client.updated',
      'client.updated',
      'client.updated',
      'client.onboarded',
    ]);
    const [offboarded, resetEntry, cliTier, operatorDelete, spare, keyDeleted, secretDeleted, secretCreated, keyCreated, enabled, disabled, limits, tier, onboarding] = log;
    expect(onboarding).toMatchObject({
      client_id: clientId,
      actor: operator,
      before: null,
      after: { name: 'Audited Co', tier: 'pro', auth_method: 'both', key_code: onboardingKey?.key_code, secret_code: onboardingSecret?.secret_code },
    });
    expect(tier).toMatchObject({ actor: operator, before: { tier: 'pro' }, after: { tier: 'enterprise' } });
    expect(limits).toMatchObject({ before: { rate_limit_per_minute: null, daily_quota: null }, after: { rate_limit_per_minute: 50, daily_quota: 900 } });
    expect(disabled).toMatchObject({ before: { disabled: false }, after: { disabled: true } });
    expect(enabled).toMatchObject({ before: { disabled: true }, after: { disabled: false } });
    expect(keyCreated).toMatchObject({ actor: { ...byKey, credential_code: onboardingKey?.key_code }, before: null, after: { key_code: second.key_code, name: 'deploy', expires_at: null } });
    expect(secretCreated).toMatchObject({ actor: byToken, after: { secret_code: secret.secret_code, name: 'rotation' } });
    expect(secretDeleted).toMatchObject({ actor: byToken, before: { secret_code: secret.secret_code, deleted_at: null } });
    expect(keyDeleted).toMatchObject({ actor: byToken, after: { key_code: onboardingKey?.key_code } });
    expect(spare).toMatchObject({ actor: { ...byKey, credential_code: second.key_code }, after: { expires_at: '2099-01-01T00:00:00.000Z' } });
    expect(operatorDelete).toMatchObject({ actor: operator, before: { key_code: third.key_code } });
    expect(cliTier).toMatchObject({ actor: { type: 'operator', via: 'cli', address: null }, before: { tier: 'enterprise' }, after: { tier: 'pro' } });
    expect(resetEntry).toMatchObject({ actor: operator, before: { credential_generation: 1 }, after: { credential_generation: 2 } });
    expect(offboarded).toMatchObject({ actor: operator, before: { deleted_at: null } });
    expect(offboarded?.after?.deleted_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    for (const entry of log) expect(Date.parse(entry.at)).toBeGreaterThan(0);

    const written = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
    const digests = (await t.database.db.selectFrom('client_credentials').select('digest').where('client_id', '=', clientId).execute()).map((r) => r.digest);
    for (const value of [apiKey, clientSecret, second.api_key, secret.client_secret, third.api_key, afterReset.api_key, afterReset.client_secret, pair.access_token, pair.refresh_token, TEST_ADMIN_TOKEN, ...digests]) {
      // Any stretch of a secret, not only the whole of it.
      expect(written.includes(value.slice(4, 20))).toBe(false);
    }
  });

  it("shows a client its own entries only, newest first, in pages; operators every client's or one's", async () => {
    const a = await onboardClient(t, { name: 'Own Log A' });
    const b = await onboardClient(t, { name: 'Own Log B' });
    for (const name of ['one', 'two', 'three']) createdKey(await selfService(t, withKey(a.apiKey)).createKey({ name }));
    createdKey(await selfService(t, withKey(b.apiKey)).createKey({ name: 'other' }));

    const first = await t.app.inject({ method: 'GET', url: '/v1/account/audit-log?page_size=2', headers: withKey(a.apiKey) });
    expect(first.headers['cache-control']).toBe('no-store');
    const page1 = pageOf<EntryBody>(first);
    expect(page1).toMatchObject({ total_count: 4, page: 1, page_size: 2, total_pages: 2 });
    expect(page1.results.map((e) => e.after?.name)).toEqual(['three', 'two']);
    const page2 = pageOf<EntryBody>(await t.app.inject({ method: 'GET', url: '/v1/account/audit-log?page=2&page_size=2', headers: withKey(a.apiKey) }));
    expect(page2.results.map((e) => e.action)).toEqual(['api_key.created', 'client.onboarded']);
    for (const entry of [...page1.results, ...page2.results]) expect(entry.client_id).toBe(a.clientId);

    expect((await adminLog(b.clientId)).map((e) => e.after?.name)).toEqual(['other', 'Own Log B']);
    const all = pageOf<EntryBody>(await admin('GET', '/admin/v1/audit-log?page_size=100'));
    expect(all.results.some((e) => e.client_id === a.clientId) && all.results.some((e) => e.client_id === b.clientId)).toBe(true);
    expect(pageOf<EntryBody>(await admin('GET', '/admin/v1/audit-log?client_id=not-a-uuid')).total_count).toBe(0);
    // The client's log is the client's: without credentials, 401; the operators' without the token, 401.
    expect((await t.app.inject({ method: 'GET', url: '/v1/account/audit-log' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/audit-log' })).statusCode).toBe(401);
  });

  it('records nothing for a change that fails', async () => {
    const c = await onboardClient(t, { authMethod: 'api_key' });
    const [onlyKey] = pageOf<{ key_code: string }>(await selfService(t, withKey(c.apiKey)).listKeys()).results;
    const before = await entryCount();
    expectError(await selfService(t, withKey(c.apiKey)).deleteKey(onlyKey?.key_code ?? ''), 409, 'CONFLICT');
    expectError(await selfService(t, withKey(c.apiKey)).deleteKey('5b0e1c9e-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await selfService(t, withKey(c.apiKey)).createKey({ name: 'late', expires_at: '2000-01-01T00:00:00Z' }), 422, 'VALIDATION_ERROR');
    expectError(await admin('PATCH', `/admin/v1/clients/5b0e1c9e-0000-4000-8000-000000000000`, { tier: 'free' }), 404, 'NOT_FOUND');
    expect((await admin('DELETE', `/admin/v1/clients/${c.clientId}`)).statusCode).toBe(204);
    const offboarded = await entryCount();
    expect(offboarded).toBe(before + 1);
    expectError(await admin('PATCH', `/admin/v1/clients/${c.clientId}`, { tier: 'free' }), 409, 'CONFLICT');
    expectError(await admin('POST', `/admin/v1/clients/${c.clientId}/credentials`), 409, 'CONFLICT');
    expect(await entryCount()).toBe(offboarded);
  });

  it('records nothing for a change that changes nothing, and only the fields that changed of one that does', async () => {
    const c = await onboardClient(t, { tier: 'pro', authMethod: 'both' });
    const before = await entryCount();
    for (const patch of [{ tier: 'pro' }, { auth_method: 'both', disabled: false }, { rate_limit_per_minute: null }]) {
      const answer = await admin('PATCH', `/admin/v1/clients/${c.clientId}`, patch);
      expect(answer.statusCode, JSON.stringify(patch)).toBe(200);
    }
    expect(await entryCount()).toBe(before);
    expect((await admin('PATCH', `/admin/v1/clients/${c.clientId}`, { tier: 'pro', daily_quota: 500 })).statusCode).toBe(200);
    const [changed] = await adminLog(c.clientId);
    expect(changed).toMatchObject({ action: 'client.updated', before: { daily_quota: null }, after: { daily_quota: 500 } });
    expect(Object.keys(changed?.before ?? {})).toEqual(['daily_quota']);
    expect(await entryCount()).toBe(before + 1);
  });

  it('purges entries older than the retention', async () => {
    const c = await onboardClient(t, { name: 'Old Co' });
    const repository = createAuditRepository(t.database.db);
    expect((await repository.ids(c.clientId)).length).toBe(1);
    const later = { now: () => t.clock.now() + 31 * 24 * 3600 * 1000 };
    expect(await purgeOldAudit(repository, later, 30)).toBeGreaterThan(0);
    expect((await repository.ids(c.clientId)).length).toBe(0);
  });
});

describe.each(DIALECTS)('audit log: written in the transaction of the change (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('a change whose entry cannot be written does not happen', async () => {
    const c = await onboardClient(t, { tier: 'pro' });
    // The log is gone: recording the change fails after the client's row was updated in the same transaction.
    await sql`drop table audit_log`.execute(t.database.db);
    const res: LightMyRequestResponse = await t.app.inject({ method: 'PATCH', url: `/admin/v1/clients/${c.clientId}`, headers: adminHeaders, payload: { tier: 'free' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    const row = await t.database.db.selectFrom('clients').select('tier').where('id', '=', c.clientId).executeTakeFirstOrThrow();
    expect(row.tier).toBe('pro');
    const created = await selfService(t, withKey(c.apiKey)).createKey({ name: 'unrecorded' });
    expect(created.statusCode).toBeGreaterThanOrEqual(500);
    const keys = await t.database.db.selectFrom('client_credentials').select('name').where('client_id', '=', c.clientId).execute();
    expect(keys.map((k) => k.name)).not.toContain('unrecorded');
  });
});

describe.each(DIALECTS)('admin API: clients searched by name (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('keeps the clients whose name contains the search, ignoring case, with LIKE wildcards taken literally', async () => {
    for (const name of ['Acme Betting', 'ACME Odds', 'Globex', '50% Sports', '500 Sports']) await onboardClient(t, { name });
    const search = async (q: string) =>
      pageOf<{ name: string }>(await t.app.inject({ method: 'GET', url: `/admin/v1/clients?search=${encodeURIComponent(q)}`, headers: adminHeaders }));
    const acme = await search('acme');
    expect(acme.results.map((c) => c.name).sort()).toEqual(['ACME Odds', 'Acme Betting']); // created in the same millisecond: either order
    expect(acme.total_count).toBe(2);
    expect((await search('50%')).results.map((c) => c.name)).toEqual(['50% Sports']);
    expect((await search('_')).total_count).toBe(0);
    expect((await search('nobody')).results).toEqual([]);
    expectError(await t.app.inject({ method: 'GET', url: '/admin/v1/clients?search=', headers: adminHeaders }), 422, 'VALIDATION_ERROR');
  });
});
