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
  // What the command makes at a scale on the UTC day it runs: the schedules' events and their odds
  // (they depend on the day, not the hour). The command reads the real clock, so the test takes the
  // days at its start and its end (the same but for a run across midnight) and the one it made.
  const run = async (...args: string[]) => {
    const before = Date.now();
    const result = await sportsdata(db.env, ...args);
    const after = Date.now();
    const made = (scale: number) =>
      [before, after].map((now) => {
        const dataset = generateDemoDataset({ now, scale });
        return { events: dataset.events.length, odds: dataset.odds.length };
      });
    return { result, made };
  };
  /** What the first import stored, which the refused import must leave. */
  let first: { events: number; odds: number } | undefined;

  it('generates the dataset at the scale asked and imports it', async () => {
    // The matchups alone, which this suite counts; the competitions added by default are the last test's.
    const { result, made } = await run('demo-data', '--scale', '0.02', '--no-competitions', '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    const body = JSON.parse(result.stdout) as { scale: number; upserted: Record<string, number> };
    expect(body.scale).toBe(0.02);
    // The events ahead and past of two teams a league, with their odds.
    first = { events: body.upserted.events ?? 0, odds: body.upserted.odds ?? 0 };
    expect(made(0.02)).toContainEqual(first);
    expect(body.upserted).toMatchObject({ sports: 6, leagues: 30, flows: 400 });
    expect({ events: await events(), odds: await count('odds') }).toEqual(first);
  });

  it('leaves the work that follows the price history done: every cursor over it at its newest change', async () => {
    // The command runs no background work; a cursor it left behind would be worked through by the first server to start.
    const read = db.ctx.database.db;
    const newest = async (table: 'odds_history' | 'odds_moves') => Number((await read.selectFrom(table).select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id ?? 0);
    const cursors = new Map((await read.selectFrom('feed_cursors').select(['name', 'last_id']).execute()).map((c) => [c.name, Number(c.last_id)]));
    const [changes, moves] = [await newest('odds_history'), await newest('odds_moves')];
    expect(changes).toBeGreaterThan(0);
    expect(Object.fromEntries(['odds moves', 'signals: detector', 'webhooks: odds', 'signals: moves', 'webhooks: moves'].map((name) => [name, cursors.get(name)]))).toEqual({
      'odds moves': changes,
      'signals: detector': changes,
      'webhooks: odds': changes,
      'signals: moves': moves,
      'webhooks: moves': moves,
    });
  });

  it('refuses a database that has data, unless --force; --force replaces the sports data and keeps clients', async () => {
    const { account } = await db.ctx.clients.create({ name: 'Keeps', tier: 'pro', authMethod: 'both' });
    const refused = await sportsdata(db.env, 'demo-data', '--scale', '0.03');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds sports data; pass --force/);
    expect(first).toBeDefined();
    expect({ events: await events(), odds: await count('odds') }).toEqual(first);

    const { result: forced, made } = await run('demo-data', '--scale', '0.03', '--force', '--no-competitions');
    expect(forced, forced.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toMatch(/Generated and imported the demo dataset \(scale 0\.03, seed \d+\) in [\d.]+ s\./);
    // Two teams a league at both scales, so as many events; the odds tell the datasets apart.
    const stored = { events: await events(), odds: await count('odds') };
    expect(made(0.03)).toContainEqual(stored);
    expect(made(0.03).map((m) => m.odds)).not.toContain(made(0.02)[0]?.odds);
    expect((await db.ctx.clients.get(account.id)).name).toBe('Keeps');
  });

  it('adds the competitions by default, as the first start does, and counts them with the matchups', async () => {
    const { result, made } = await run('demo-data', '--scale', '0.02', '--force', '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    const { upserted } = JSON.parse(result.stdout) as { upserted: Record<string, number> };
    expect(upserted).toMatchObject({ competitions: 61 });
    const matchups = await db.ctx.database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', 'matchup').executeTakeFirstOrThrow();
    expect(made(0.02).map((m) => m.events)).toContain(Number(matchups.n));
    expect({ events: await events(), odds: await count('odds') }).toEqual({ events: (upserted.events ?? 0) + 61, odds: upserted.odds });
  });

  it('rejects a scale that is not a positive number', async () => {
    for (const scale of ['0', '-1', 'abc', '21']) {
      const result = await sportsdata(db.env, 'demo-data', '--scale', scale);
      expect(result.code, scale).toBe(1);
      expect(result.stderr).toMatch(/--scale/);
    }
  });
});
