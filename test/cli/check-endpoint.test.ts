import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { type CliDatabase, cliDatabase, sportsdata } from './cli-helpers.js';

const TOKEN = 'operator-token-never-printed-Q7w2';

describe.each(DIALECTS)('sportsdata clients check-endpoint (%s)', (dialect) => {
  let db: CliDatabase;
  let h: Harness;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
    h = await harness({ dialect, context: db.ctx });
  });
  afterAll(async () => {
    await h.close();
    await db.close();
  });

  it('shows a client\'s endpoint with its token masked, and removes it with --delete', async () => {
    const { account, credentials } = await db.ctx.clients.create({ name: 'Acme', tier: 'pro', authMethod: 'both' });
    const client = h.as(credentials);
    const set = await client.post('/v1/account/check-endpoint', { url: 'https://pricing.example.com/check', method: 'POST', auth_token: TOKEN });
    expect(set.statusCode, set.body).toBe(200);

    const shown = await sportsdata(db.env, 'clients', 'check-endpoint', account.id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^url: +https:\/\/pricing\.example\.com\/check$/m);
    expect(shown.stdout).toMatch(/^auth_token_preview: +…Q7w2$/m);
    expect(shown.stdout + shown.stderr).not.toContain(TOKEN);
    const json = await sportsdata(db.env, 'clients', 'check-endpoint', account.id, '--json');
    expect(JSON.parse(json.stdout)).toEqual((await client.get('/v1/account/check-endpoint')).json());

    expect((await sportsdata(db.env, 'clients', 'check-endpoint', account.id, '--delete')).code).toBe(0);
    expect((await sportsdata(db.env, 'clients', 'check-endpoint', account.id)).stdout).toMatch(/no check endpoint is set/);
  });

  it('refuses an unknown client', async () => {
    const res = await sportsdata(db.env, 'clients', 'check-endpoint', '00000000-0000-4000-8000-000000000000');
    expect(res.code).not.toBe(0);
  });
});
