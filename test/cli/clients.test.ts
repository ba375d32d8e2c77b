import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { cliSuite, sportsdata } from './cli-helpers.js';

interface CreatedJson {
  client_id: string;
  tenant_id: string;
  name: string;
  tier: string;
  auth_method: string;
  disabled: boolean;
  created_at: string;
  api_key: string;
  client_secret: string;
}

describe.each(DIALECTS)('sportsdata clients (%s)', (dialect) => {
  const { db, run, authenticate } = cliSuite(dialect);

  async function createJson(...extra: string[]): Promise<CreatedJson> {
    const result = await run('clients', 'create', '--name', 'Acme', '--tier', 'pro', '--auth-method', 'both', '--json', ...extra);
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as CreatedJson;
  }

  it('create --json prints the client and its credentials as JSON, and they authenticate', async () => {
    const created = await createJson();
    expect(Object.keys(created).sort()).toEqual(
      [
        ...['api_key', 'auth_method', 'client_id', 'client_secret', 'created_at', 'disabled', 'name', 'tenant_id', 'tier'],
        ...['rate_limit_per_minute', 'daily_quota', 'flow_vocabulary', 'effective_limits'],
      ].sort(),
    );
    expect(created).toMatchObject({ name: 'Acme', tier: 'pro', auth_method: 'both', disabled: false, rate_limit_per_minute: null, daily_quota: null, flow_vocabulary: 'ours' });
    const principal = await authenticate(created.api_key);
    expect(principal.client.id).toBe(created.client_id);
    const { account } = await db.ctx.authenticator.apiKeyHolder(created.api_key);
    expect(account.tenantId).toBe(created.tenant_id);
  });

  it('create adds to an existing tenant with --tenant-id', async () => {
    const first = await createJson();
    const second = await createJson('--tenant-id', first.tenant_id);
    expect(second.tenant_id).toBe(first.tenant_id);
  });

  it('create without --json shows the credentials once, saying they will not be shown again', async () => {
    const result = await run('clients', 'create', '--name', 'Human Co', '--tier', 'free', '--auth-method', 'api_key');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^api_key: +sdk_\S+$/m);
    expect(result.stdout).toMatch(/^client_secret: +sds_\S+$/m);
    expect(result.stdout).toMatch(/not be shown again/);
    const apiKey = /^api_key: +(sdk_\S+)$/m.exec(result.stdout)?.[1] ?? '';
    await expect(authenticate(apiKey)).resolves.toMatchObject({ client: { name: 'Human Co', tier: 'free' } });
  });

  it('list pages through the clients in the shape of the admin API, without secrets', async () => {
    const all = await run('clients', 'list', '--page-size', '100', '--json');
    expect(all.code).toBe(0);
    const everything = JSON.parse(all.stdout) as { results: Array<Record<string, unknown>>; total_count: number };
    expect(everything.total_count).toBeGreaterThanOrEqual(3);
    expect(everything.results).toHaveLength(everything.total_count);
    expect(all.stdout).not.toMatch(/sdk_|sds_/);

    const second = JSON.parse((await run('clients', 'list', '--page', '2', '--page-size', '1', '--json')).stdout) as unknown;
    expect(second).toEqual({ results: [everything.results[1]], total_count: everything.total_count, page: 2, page_size: 1, total_pages: everything.total_count });

    const human = await run('clients', 'list');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^CLIENT_ID +TIER +AUTH_METHOD +STATUS +CREATED_AT +NAME$/m);
    expect(human.stdout).toContain(`page 1 of 1 (${everything.total_count} clients)`);
  });

  it('list says which clients are disabled and which are offboarded: a deleted client is not shown as enabled', async () => {
    const active = await createJson();
    const disabled = await createJson();
    const deleted = await createJson();
    expect((await run('clients', 'update', disabled.client_id, '--disable')).code).toBe(0);
    // Disabled first, then deleted: deletion is what the operator needs to see.
    expect((await run('clients', 'update', deleted.client_id, '--disable')).code).toBe(0);
    expect((await run('clients', 'delete', deleted.client_id)).code).toBe(0);

    const human = await run('clients', 'list', '--page-size', '100');
    expect(human.code, human.stderr).toBe(0);
    const statusOf = (clientId: string) => new RegExp(`^${clientId} +\\S+ +\\S+ +(\\S+) `, 'm').exec(human.stdout)?.[1];
    expect(statusOf(active.client_id)).toBe('active');
    expect(statusOf(disabled.client_id)).toBe('disabled');
    expect(statusOf(deleted.client_id)).toBe('deleted');
    const listed = JSON.parse((await run('clients', 'list', '--page-size', '100', '--json')).stdout) as { results: Array<{ client_id: string; deleted_at: string | null }> };
    expect(listed.results.find((c) => c.client_id === deleted.client_id)?.deleted_at).toEqual(expect.any(String));
  });

  it('update disables and re-enables a client and changes tier and auth_method, effective at once', async () => {
    const created = await createJson();
    await authenticate(created.api_key);

    const disabled = await run('clients', 'update', created.client_id, '--disable', '--json');
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ client_id: created.client_id, disabled: true });
    await expect(authenticate(created.api_key)).rejects.toMatchObject({ reason: 'client_disabled' });

    const changed = await run('clients', 'update', created.client_id, '--enable', '--tier', 'enterprise', '--auth-method', 'oauth', '--json');
    expect(JSON.parse(changed.stdout)).toMatchObject({ disabled: false, tier: 'enterprise', auth_method: 'oauth' });
    await expect(authenticate(created.api_key)).rejects.toMatchObject({ reason: 'flow_not_enabled' });

    const shown = await run('clients', 'get', created.client_id, '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({ client_id: created.client_id, tier: 'enterprise', auth_method: 'oauth', disabled: false });
    expect(shown.stdout).not.toMatch(/sdk_|sds_/);
  });

  it('update --flow-vocabulary sets the names its flow answers give flow_type in; an unknown one is refused', async () => {
    const created = await createJson();
    const changed = await run('clients', 'update', created.client_id, '--flow-vocabulary', 'odditt', '--json');
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({ client_id: created.client_id, flow_vocabulary: 'odditt' });
    expect(JSON.parse((await run('clients', 'get', created.client_id, '--json')).stdout)).toMatchObject({ flow_vocabulary: 'odditt' });
    const refused = await run('clients', 'update', created.client_id, '--flow-vocabulary', 'fact_flow');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--flow-vocabulary.*'fact_flow' is invalid.*ours, odditt/);
  });

  it('rotate-credentials prints new credentials; the old API key is rejected and the new one accepted', async () => {
    const created = await createJson();
    await authenticate(created.api_key);
    const result = await run('clients', 'rotate-credentials', created.client_id, '--json');
    expect(result.code, result.stderr).toBe(0);
    const rotated = JSON.parse(result.stdout) as CreatedJson & { updated_at: string };
    expect(rotated.client_id).toBe(created.client_id);
    expect(rotated.api_key).not.toBe(created.api_key);
    await expect(authenticate(created.api_key)).rejects.toMatchObject({ reason: 'invalid_credentials' });
    await expect(authenticate(rotated.api_key)).resolves.toMatchObject({ client: { id: created.client_id } });
  });

  it('fails with exit code 1 and a one-line message on stderr', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['clients', 'create', '--name', 'X', '--tier', 'gold', '--auth-method', 'both'], /--tier.*'gold' is invalid.*free, pro, enterprise/],
      [['clients', 'create', '--tier', 'pro', '--auth-method', 'both'], /required option '--name <name>'/],
      [['clients', 'create', '--name', ' ', '--tier', 'pro', '--auth-method', 'both'], /--name.*invalid/],
      [['clients', 'create', '--name', 'X', '--tier', 'pro', '--auth-method', 'both', '--tenant-id', '5b0e1c9e-0000-4000-8000-000000000000'], /^error: no tenant with this tenant_id$/],
      [['clients', 'get', '5b0e1c9e-0000-4000-8000-000000000000'], /^error: no client with this client_id$/],
      [['clients', 'update', 'not-a-client', '--tier', 'pro'], /^error: no client with this client_id$/],
      [['clients', 'update', '5b0e1c9e-0000-4000-8000-000000000000'], /nothing to update/],
      [['clients', 'update', '5b0e1c9e-0000-4000-8000-000000000000', '--disable', '--enable'], /cannot be used with/],
      [['clients', 'list', '--page-size', '101'], /--page-size.*from 1 to 100/],
      [['clients', 'lst'], /unknown command 'lst'/],
    ];
    for (const [args, message] of cases) {
      const result = await run(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr.trim().split('\n')[0], args.join(' ')).toMatch(message);
    }
  });

  it('reports bad configuration, from the environment it was given', async () => {
    const result = await sportsdata({ ...db.env, DATABASE_URL: 'mysql://localhost/x' }, 'clients', 'list');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/DATABASE_URL must start with/);
  });

  it('reads the configuration without writing files: no JWT secret is generated for a command that signs nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-cli-untouched-'));
    try {
      const untouched = join(dataDir, 'data');
      const result = await sportsdata({ DATABASE_URL: db.env.DATABASE_URL ?? '', DATA_DIR: untouched }, 'clients', 'list', '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(untouched)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('migrate brings the database up to date; --help lists the commands', async () => {
    const migrated = await run('migrate', '--json');
    expect(migrated.code).toBe(0);
    expect(JSON.parse(migrated.stdout)).toEqual({ applied: [] });
    const help = await run('--help');
    expect(help.code).toBe(0);
    for (const command of ['serve', 'migrate', 'clients']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const clientsHelp = await run('clients', '--help');
    for (const command of ['create', 'list', 'get', 'update', 'rotate-credentials']) expect(clientsHelp.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });
});
