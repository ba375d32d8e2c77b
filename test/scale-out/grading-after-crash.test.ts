import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImportService } from '../../src/modules/import/index.js';
import { createChangeFeed } from '../../src/platform/cache/change-feed.js';
import { manualClock } from '../../src/platform/clock.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { admin, call, onboard } from './api.js';

const game = (home: number, away: number) => ({
  id: 100, league_id: 10, start_time: '2031-03-01T19:00:00Z', status: 'final' as const, home_team_id: 1000, away_team_id: 1001, home_score: home, away_score: away,
});

/** An NBA game, final, with one book's moneyline: at 110–104 home won and away lost. */
function finalGame(home: number, away: number) {
  return {
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
    teams: [
      { id: 1000, key: 'boston-celtics', name: 'Boston Celtics', league_id: 10 },
      { id: 1001, key: 'new-york-knicks', name: 'New York Knicks', league_id: 10 },
    ],
    operators: [{ id: 1, key: 'book-a', name: 'Book A' }],
    betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team', settlement: { rule: 'moneyline' } }],
    events: [game(home, away)],
    odds: [
      { id: 1, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'home', price_decimal: 1.9 },
      { id: 2, event_id: 100, operator_id: 1, betting_market_id: 1, position: 'away', price_decimal: 1.9 },
    ],
  };
}
/** The score corrected: New York won 110–104. */
const correction = { events: [game(104, 110)] };

/** The events still due for grading, read straight from the database. */
async function stillDue(url: string): Promise<number[]> {
  const database = openDatabase(url);
  try {
    return (await database.db.selectFrom('grading_due').select('event_id').execute()).map((row) => Number(row.event_id));
  } finally {
    await database.close();
  }
}

async function outcomes(url: string, apiKey: string): Promise<Array<[number, string | null]>> {
  const answer = await call(url, 'POST', '/v1/results/by-event', { 'x-api-key': apiKey }, { event_id: 100 });
  return (answer.body.grades as Array<{ odds_id: number; outcome: string | null }>).map((g) => [g.odds_id, g.outcome]);
}

/** One database, nodes started and stopped on it one after another. */
function nodesOnOneDatabase(dialect: (typeof DIALECTS)[number]) {
  let dataDir = '';
  let drop: () => Promise<void> = async () => {};
  let env: Record<string, string> = {};
  const started: NodeProcess[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-crash-'));
    const shared = dialect === 'postgres' ? await freshDatabaseUrl('postgres') : undefined;
    drop = shared?.drop ?? drop;
    env = nodeEnv(dataDir, shared ? { DATABASE_URL: shared.url } : {});
  }, 60_000);
  afterAll(async () => {
    for (const node of started) await node.stop(2000);
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    url: () => env.DATABASE_URL ?? '',
    async start(): Promise<NodeProcess> {
      const node = await startNode({ env });
      started.push(node);
      await node.waitUntilReady(60_000);
      return node;
    },
  };
}

/** The event still due, then a node started: it serves the corrected score's grades, and nothing is due any more. */
async function expectGradedOnNextStart(nodes: ReturnType<typeof nodesOnOneDatabase>, apiKey: string): Promise<void> {
  expect(await stillDue(nodes.url())).toEqual([100]);
  const next = await nodes.start();
  expect(await outcomes(next.url, apiKey)).toEqual([
    [1, 'lost'],
    [2, 'won'],
  ]);
  expect(await stillDue(nodes.url())).toEqual([]);
}

describe.each(DIALECTS)('grading an import left undone is finished before the next start serves (%s)', (dialect) => {
  const nodes = nodesOnOneDatabase(dialect);

  it('a correction committed without its grading (a node stopped between the two) is graded on the next start', async () => {
    const first = await nodes.start();
    const { apiKey } = await onboard(first.url);
    expect((await admin(first.url, 'POST', '/admin/v1/import', finalGame(110, 104))).body.graded).toEqual({ events: 1, grades: 2 });
    expect(await outcomes(first.url, apiKey)).toEqual([
      [1, 'won'],
      [2, 'lost'],
    ]);
    expect(await stillDue(nodes.url())).toEqual([]);
    first.child.kill('SIGKILL');
    await first.exited;

    // What a node killed after the import's commit and before its grading leaves behind: the
    // corrected score stored, the grades of the old one.
    const database = openDatabase(nodes.url());
    try {
      const importer = createImportService({ database, clock: manualClock(Date.parse('2031-03-02T00:00:00Z')), changes: createChangeFeed(database.db, 3_600_000) });
      await importer.importChecked(correction, { grade: false });
    } finally {
      await database.close();
    }

    await expectGradedOnNextStart(nodes, apiKey);
  }, 180_000);
});

describe('a node killed while it grades an import: the next start finishes the grading (postgres)', () => {
  const nodes = nodesOnOneDatabase('postgres');

  it('grades the corrected score before it serves', async () => {
    const first = await nodes.start();
    const { apiKey } = await onboard(first.url);
    await admin(first.url, 'POST', '/admin/v1/import', finalGame(110, 104));

    // The grades table held against writes (reads go on): the import commits, then its grading waits.
    const outside = openDatabase(nodes.url());
    try {
      await outside.db.connection().execute(async (connection) => {
        await sql`begin`.execute(connection);
        await sql`lock table odds_grades in exclusive mode`.execute(connection);
        const answered = admin(first.url, 'POST', '/admin/v1/import', correction).catch(() => undefined);
        for (;;) {
          const waiting = await sql<{ n: number }>`
            select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'odds_grades' and not l.granted`.execute(outside.db);
          if ((waiting.rows[0]?.n ?? 0) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const stored = await outside.db.selectFrom('events').select(['home_score', 'away_score']).where('id', '=', 100).executeTakeFirstOrThrow();
        expect(stored).toEqual({ home_score: 104, away_score: 110 });
        first.child.kill('SIGKILL');
        await first.exited;
        await answered;
        await sql`rollback`.execute(connection);
      });
    } finally {
      await outside.close();
    }

    await expectGradedOnNextStart(nodes, apiKey);
  }, 180_000);
});
