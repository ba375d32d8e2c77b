import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type CliDatabase, cliDatabase, sportsdata } from '../cli/cli-helpers.js';

describe.each(DIALECTS)('sportsdata demo-data (%s)', (dialect) => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
  });
  afterAll(async () => db.close());

  const events = async () => Number((await db.ctx.database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('generates the dataset at the scale asked and imports it', async () => {
    const result = await sportsdata(db.env, 'demo-data', '--scale', '0.02', '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    const body = JSON.parse(result.stdout) as { scale: number; upserted: Record<string, number> };
    expect(body.scale).toBe(0.02);
    // 40 upcoming events and 30 past ones (one per league at least), with their odds.
    expect(body.upserted).toMatchObject({ sports: 6, leagues: 30, events: 70, odds: 2_200, flows: 400 });
    expect(await events()).toBe(70);
  });

  it('refuses a database that has data, unless --force; --force replaces the sports data and keeps clients', async () => {
    const { account } = await db.ctx.clients.create({ name: 'Keeps', tier: 'pro', authMethod: 'both' });
    const refused = await sportsdata(db.env, 'demo-data', '--scale', '0.03');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds sports data; pass --force/);
    expect(await events()).toBe(70);

    const forced = await sportsdata(db.env, 'demo-data', '--scale', '0.03', '--force');
    expect(forced, forced.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toMatch(/Generated and imported the demo dataset \(scale 0\.03, seed \d+\) in [\d.]+ s\./);
    expect(await events()).toBe(90);
    expect((await db.ctx.clients.get(account.id)).name).toBe('Keeps');
  });

  it('rejects a scale that is not a positive number', async () => {
    for (const scale of ['0', '-1', 'abc', '21']) {
      const result = await sportsdata(db.env, 'demo-data', '--scale', scale);
      expect(result.code, scale).toBe(1);
      expect(result.stderr).toMatch(/--scale/);
    }
  });
});
