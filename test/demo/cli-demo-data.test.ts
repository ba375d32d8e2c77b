import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoDataset } from '../../src/modules/demo/generator/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type CliDatabase, cliDatabase, sportsdata } from '../cli/cli-helpers.js';

describe.each(DIALECTS)('sportsdata demo-data (%s)', (dialect) => {
  let db: CliDatabase;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
  });
  afterAll(async () => db.close());

  const count = async (table: 'events' | 'odds') => Number((await db.ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const events = async () => count('events');
  // What the command makes today at a scale: the schedules' events and their odds (they depend on the day, not the hour).
  const made = (scale: number) => {
    const dataset = generateDemoDataset({ now: Date.now(), scale });
    return { events: dataset.events.length, odds: dataset.odds.length };
  };

  it('generates the dataset at the scale asked and imports it', async () => {
    const result = await sportsdata(db.env, 'demo-data', '--scale', '0.02', '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    const body = JSON.parse(result.stdout) as { scale: number; upserted: Record<string, number> };
    expect(body.scale).toBe(0.02);
    // The events ahead and past of two teams a league, with their odds.
    const expected = made(0.02);
    expect(body.upserted).toMatchObject({ sports: 6, leagues: 30, ...expected, flows: 400 });
    expect(await events()).toBe(expected.events);
  });

  it('refuses a database that has data, unless --force; --force replaces the sports data and keeps clients', async () => {
    const { account } = await db.ctx.clients.create({ name: 'Keeps', tier: 'pro', authMethod: 'both' });
    const refused = await sportsdata(db.env, 'demo-data', '--scale', '0.03');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds sports data; pass --force/);
    expect(await events()).toBe(made(0.02).events);
    expect(await count('odds')).toBe(made(0.02).odds);

    const forced = await sportsdata(db.env, 'demo-data', '--scale', '0.03', '--force');
    expect(forced, forced.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toMatch(/Generated and imported the demo dataset \(scale 0\.03, seed \d+\) in [\d.]+ s\./);
    // Two teams a league at both scales, so as many events; the odds tell the datasets apart.
    expect(await events()).toBe(made(0.03).events);
    expect(await count('odds')).toBe(made(0.03).odds);
    expect(made(0.03).odds).not.toBe(made(0.02).odds);
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
