import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS } from '../helpers/app.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { type Caller, type Harness, harness } from '../helpers/harness.js';

/**
 * The first start's dataset (what `npm start` loads into an empty database: ensureDemoData, its
 * detectors left out) holds the demo's competitions beside its matchups (decision 0331): a new user
 * asking for `event_kinds=competition` gets some, and the default answers stay matchups only.
 */
describe.each(DIALECTS)("the first start's dataset holds the competitions (%s)", (dialect) => {
  let t: Harness;
  let client: Caller;
  let upserted: Record<string, number> | undefined;
  beforeAll(async () => {
    t = await harness({ dialect, clock: manualClock(DEMO_NOW) });
    // The seeding, the moves, the competitions and the grading, as the server runs them; without the
    // steam and signal detectors after each step, which read the price history these tests do not
    // look at (two thirds of the time on PostgreSQL). The first start with them, on both databases,
    // is test/scale-out/first-start.test.ts's: two real nodes serving the dataset they made.
    const { database, clock, changes } = t.ctx;
    upserted = await ensureDemoData({ database, clock, changes });
    client = t.as(await t.client());
  }, 300_000);
  afterAll(async () => t.close());

  it('reports the competitions with the matchups, and each count is what the tables hold', async () => {
    expect(upserted).toMatchObject({ competitions: 61 });
    const count = async (table: 'events' | 'odds' | 'competitions') => Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect({ events: await count('events'), odds: await count('odds'), competitions: await count('competitions') }).toEqual({
      events: (upserted?.events ?? 0) + (upserted?.competitions ?? 0),
      odds: upserted?.odds,
      competitions: 61,
    });
  });

  it('answers the board and the competitions, on the board only when event_kinds asks for them', async () => {
    const competitions = await client.page<{ id: number; type: string; status: string; start_time: string }>('/v1/competitions?page_size=100');
    expect(competitions.total_count).toBe(61);
    expect(new Set(competitions.results.map((c) => c.type))).toEqual(new Set(['tournament', 'race', 'futures']));
    const ids = new Set(competitions.results.map((c) => c.id));
    // The board of the day this week's tournament starts on, as a user would ask for it.
    const golf = competitions.results.find((c) => c.type === 'tournament' && c.status === 'scheduled');
    const day = { event_date: golf?.start_time.slice(0, 10), page_size: 100 };
    const board = await client.page<{ event_id: number }>('/v1/odds/board', { ...day, event_kinds: ['competition'] });
    expect(board.total_count).toBeGreaterThan(0);
    expect(new Set(board.results.map((r) => r.event_id))).toContain(golf?.id);
    expect(board.results.every((r) => ids.has(r.event_id))).toBe(true);
    const matchups = await client.page<{ event_id: number }>('/v1/odds/board', day);
    expect(matchups.total_count).toBeGreaterThan(0);
    expect(matchups.results.some((r) => ids.has(r.event_id))).toBe(false);
  });
});
