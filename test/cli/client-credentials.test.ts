import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { cliSuite } from './cli-helpers.js';

interface KeysJson {
  results: Array<{ key_code: string; name: string; preview: string; active: boolean }>;
  total_count: number;
}
interface SecretsJson {
  results: Array<{ secret_code: string; name: string; secret_preview: string }>;
  total_count: number;
}

describe.each(DIALECTS)("sportsdata clients: a client's credentials, and offboarding (%s)", (dialect) => {
  const { db, run, authenticate } = cliSuite(dialect);

  it('api-keys and secrets list without secrets; delete-api-key ends a key; the last key of an enabled flow stays', async () => {
    const { account, credentials } = await db.ctx.clients.create({ name: 'Acme', tier: 'pro', authMethod: 'both' });
    const second = await db.ctx.credentials.createApiKey(account.id, { name: 'second', expiresAt: null });

    const listed = await run('clients', 'api-keys', account.id, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const keys = JSON.parse(listed.stdout) as KeysJson;
    expect(keys.total_count).toBe(2);
    expect(keys.results.map((k) => k.name)).toEqual(expect.arrayContaining(['onboarding', 'second']));
    const human = await run('clients', 'api-keys', account.id);
    expect(human.stdout).toMatch(/^KEY_CODE +PREVIEW +ACTIVE +EXPIRES_AT +LAST_USED_AT +NAME$/m);
    expect(human.stdout).toContain('page 1 of 1 (2 keys)');
    const secrets = await run('clients', 'secrets', account.id, '--json');
    expect((JSON.parse(secrets.stdout) as SecretsJson).results).toEqual([expect.objectContaining({ name: 'onboarding' })]);
    for (const output of [listed.stdout, human.stdout, secrets.stdout]) expect(output).not.toMatch(/sdk_[0-9A-Za-z]{8}|sds_[0-9A-Za-z]{8}/);

    const deleted = await run('clients', 'delete-api-key', account.id, second.credential.code);
    expect(deleted, deleted.stderr).toMatchObject({ code: 0, stderr: '' });
    await expect(authenticate(second.plaintext)).rejects.toMatchObject({ reason: 'invalid_credentials' });
    await expect(authenticate(credentials.apiKey)).resolves.toMatchObject({ client: { id: account.id } });

    const onboarding = keys.results.find((k) => k.name === 'onboarding');
    const refused = await run('clients', 'delete-api-key', account.id, onboarding?.key_code ?? '');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: this is the last active API key/);
    const secretCode = (JSON.parse(secrets.stdout) as SecretsJson).results[0]?.secret_code ?? '';
    expect((await run('clients', 'delete-secret', account.id, secretCode)).stderr).toMatch(/last active client secret/);
    expect((await run('clients', 'delete-api-key', account.id, '5b0e1c9e-0000-4000-8000-000000000000')).stderr).toMatch(/^error: no API key with this code/);
  });

  it('delete offboards a client: its key answers client_deleted, and the client stays listed with deleted_at', async () => {
    const { account, credentials } = await db.ctx.clients.create({ name: 'Leaving Co', tier: 'free', authMethod: 'api_key' });
    await authenticate(credentials.apiKey);
    const result = await run('clients', 'delete', account.id);
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    await expect(authenticate(credentials.apiKey)).rejects.toMatchObject({ reason: 'client_deleted' });
    const shown = JSON.parse((await run('clients', 'get', account.id, '--json')).stdout) as { deleted_at: string | null };
    expect(shown.deleted_at).toEqual(expect.any(String));
    expect((await run('clients', 'update', account.id, '--tier', 'pro')).stderr).toMatch(/^error: this client has been deleted/);
    expect((await run('clients', 'delete', 'not-a-client')).stderr).toBe('error: no client with this client_id\n');
  });

  it('--help lists the commands', async () => {
    const help = await run('clients', '--help');
    for (const command of ['api-keys', 'secrets', 'delete-api-key', 'delete-secret', 'delete']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });
});
