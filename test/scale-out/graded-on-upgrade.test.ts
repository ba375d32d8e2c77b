import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateTo } from '../../src/platform/db/migrations.js';
import type { Schema } from '../../src/platform/db/schema.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { admin, call, onboard } from './api.js';

type Loose = Kysely<Record<string, Record<string, unknown>>>;

/**
 * A database of the version before results, holding a game that had ended (Boston 110–104) and
 * one still to come, each with a moneyline priced by one book. The first start of this version
 * migrates it and grades the ended game before it serves; the markets of then have no settlement
 * rule, so its rows say so, until the operator imports the markets' rules and they are graded.
 */
async function seedBeforeResults(url: string): Promise<void> {
  const database = openDatabase(url);
  try {
    await migrateTo(database.db as unknown as Kysely<Schema>, '0020_operator_deep_links');
    const db = database.db as unknown as Loose;
    await db.insertInto('sports').values({ id: 1, key: 'basketball', name: 'Basketball' }).execute();
    await db.insertInto('leagues').values({ id: 10, key: 'nba', name: 'NBA', sport_id: 1, country_key: null, country_name: null, is_popular: 0 }).execute();
    await db.insertInto('teams').values([
      { id: 1000, key: 'boston-celtics', name: 'Boston Celtics', abbreviation: 'BOS', location: null, league_id: 10 },
      { id: 1001, key: 'new-york-knicks', name: 'New York Knicks', abbreviation: 'NYK', location: null, league_id: 10 },
    ]).execute();
    await db.insertInto('betting_markets').values({ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', category_id: null, entity_type: 'team', sport_id: null }).execute();
    const event = (id: number, status: string, home: number | null, away: number | null) => ({
      id, league_id: 10, sport_id: 1, start_time: Date.parse('2031-03-01T19:00:00Z'), status, home_team_id: 1000, away_team_id: 1001, home_score: home, away_score: away,
    });
    await db.insertInto('events').values([event(100, 'final', 110, 104), event(200, 'scheduled', null, null)]).execute();
    const row = (id: number, eventId: number, position: string) => ({
      id, event_id: eventId, operator_id: 1, betting_market_id: 1, position, line: null, price_decimal: 1.9, status: 'open', updated_at: 0, selection_id: null,
    });
    await db.insertInto('operators').values({ id: 1, key: 'book-a', name: 'Book A' }).execute();
    await db.insertInto('odds').values([row(1, 100, 'home'), row(2, 100, 'away'), row(3, 200, 'home')]).execute();
  } finally {
    await database.close();
  }
}

describe.each(DIALECTS)('events that ended before results existed are graded on upgrade (%s)', (dialect) => {
  let node: NodeProcess;
  let dataDir: string;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-upgrade-'));
    const shared = dialect === 'postgres' ? await freshDatabaseUrl('postgres') : undefined;
    drop = shared?.drop ?? drop;
    const env = nodeEnv(dataDir, shared ? { DATABASE_URL: shared.url } : {});
    await seedBeforeResults(env.DATABASE_URL ?? '');
    node = await startNode({ env });
    await node.waitUntilReady();
  }, 90_000);

  afterAll(async () => {
    await node?.stop(2000);
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('grades the ended game on start (its market without a rule says so), and by its rule once the rule is imported', async () => {
    const { apiKey } = await onboard(node.url);
    const results = async (eventId: number) =>
      (await call(node.url, 'POST', '/v1/results/by-event', { 'x-api-key': apiKey }, { event_id: eventId })).body.grades as Array<{ odds_id: number; outcome: string | null; reason: string | null }>;
    expect((await results(100)).map((g) => [g.odds_id, g.outcome, g.reason])).toEqual([
      [1, null, 'unknown_rule'],
      [2, null, 'unknown_rule'],
    ]);
    expect(await results(200)).toEqual([]);
    const market = { id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', settlement: { rule: 'moneyline' } };
    const answer = await admin(node.url, 'POST', '/admin/v1/import', { betting_markets: [market] });
    expect(answer.body.graded).toEqual({ events: 1, grades: 2 });
    expect((await results(100)).map((g) => [g.odds_id, g.outcome])).toEqual([
      [1, 'won'],
      [2, 'lost'],
    ]);
  }, 60_000);
});
