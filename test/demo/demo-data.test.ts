import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import { ensureDemoData, loadDemoData } from '../../src/modules/demo/demo-data.js';
import { generateDemoDataset } from '../../src/modules/demo/generator/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { demoCases } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';

const DAY = 24 * 3600 * 1000;

// SQLite imports the full scale-1 dataset (about 2 s) as the first start does; PostgreSQL a small
// one, and so do the runs across a year, to keep the suite quick.
const CASES = demoCases(1).map((c) => (c.dialect === 'postgres' ? { ...c, scale: 0.05 } : c));

describe.each(CASES)('the demo dataset in the database ($name)', ({ dialect, now, scale }) => {
  let t: Harness;
  let upserted: Record<string, number> | undefined;
  beforeAll(async () => {
    // The matchups' dataset this suite counts: the first start's competitions are test/demo/first-start-competitions.test.ts's.
    if (scale === 1) {
      t = await harness({ dialect, clock: manualClock(now) });
      upserted = await ensureDemoData(t.ctx, { competitions: false });
    } else {
      // The run's demo made by loadDemoData(t.ctx, { scale }) in a new database, as other suites
      // read it: a copy of it, and what that load reported.
      const demo = await demoHarness({ dialect, now, scale });
      t = demo;
      upserted = demo.upserted;
    }
  }, 120_000);
  afterAll(async () => t.close());

  const db = () => t.ctx.database.db;
  const count = async (table: 'sports' | 'leagues' | 'teams' | 'events' | 'odds' | 'flows' | 'odds_history') =>
    Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('fills the empty database and reports the counts', async () => {
    // Everything the generator makes for this clock, stored: the events ahead and past, and their odds.
    const made = generateDemoDataset({ now: t.clock.now(), scale });
    const expected = { teams: made.teams.length, events: made.events.length, odds: made.odds.length, flows: made.flows.length };
    expect(upserted).toMatchObject({ sports: 6, leagues: 30, operators: 8, ...expected });
    for (const [table, n] of Object.entries(expected)) expect(await count(table as 'teams')).toBe(n);
  });

  it('grades what its imports made due: nothing is left due for the next start', async () => {
    expect(await db().selectFrom('grading_due').select('event_id').execute()).toEqual([]);
    expect(Number((await db().selectFrom('odds_grades').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(0);
  });

  it('leaves a database with data alone', async () => {
    const before = await count('events');
    expect(await ensureDemoData(t.ctx)).toBeUndefined();
    expect(await count('events')).toBe(before);
  });

  it('stores events on the 7 UTC days before today and the 14 from today, with the sport of their league', async () => {
    const today = Math.floor(t.clock.now() / DAY) * DAY;
    const range = await db()
      .selectFrom('events')
      .select((eb) => [eb.fn.min('start_time').as('first'), eb.fn.max('start_time').as('last')])
      .executeTakeFirstOrThrow();
    expect(Number(range.first)).toBeGreaterThanOrEqual(today - 7 * DAY);
    expect(Number(range.last)).toBeLessThan(today + 14 * DAY);
    const wrongSport = await db()
      .selectFrom('events')
      .innerJoin('leagues', 'leagues.id', 'events.league_id')
      .select('events.id')
      .where(sql<boolean>`events.sport_id <> leagues.sport_id`)
      .execute();
    expect(wrongSport).toEqual([]);
  });

  it('stores same-event parlays with their legs', async () => {
    const parlays = await db().selectFrom('flows').select(['id', 'event_id']).where('bet_type', '=', 'parlay').execute();
    expect(parlays.length).toBeGreaterThan(0);
    const legs = await db()
      .selectFrom('flow_legs')
      .innerJoin('flows as parlay', 'parlay.id', 'flow_legs.flow_id')
      .innerJoin('flows as leg', 'leg.id', 'flow_legs.leg_id')
      .select(['parlay.event_id as parlay_event', 'leg.event_id as leg_event', 'leg.bet_type as leg_type'])
      .execute();
    expect(legs.length).toBeGreaterThanOrEqual(2 * parlays.length);
    for (const leg of legs) expect(leg).toEqual({ parlay_event: leg.leg_event, leg_event: leg.parlay_event, leg_type: 'single' });
  });

  it('records a price history: an opening entry for every odds row, then the moves', async () => {
    const odds = await count('odds');
    const history = db().selectFrom('odds_history');
    const openings = await history.select((eb) => eb.fn.countAll().as('n')).where('price_from', 'is', null).executeTakeFirstOrThrow();
    expect(Number(openings.n)).toBe(odds);
    const changes = await history.select((eb) => eb.fn.countAll().as('n')).where('price_from', 'is not', null).executeTakeFirstOrThrow();
    // One board in ten of the events still to come once, most rows of the started events twice.
    expect(Number(changes.n)).toBeGreaterThan(odds / 10);
  });

  it('replaces the sports data with force, in one import, and its history with it', async () => {
    const upsertedAgain = await loadDemoData(t.ctx, { scale: 0.02, force: true });
    const made = generateDemoDataset({ now: t.clock.now(), scale: 0.02 });
    const [events, odds] = [made.events.length, made.odds.length];
    expect(upsertedAgain).toMatchObject({ events, odds, flows: 400 });
    expect(await count('events')).toBe(events);
    expect(await count('odds')).toBe(odds);
    const stale = await db().selectFrom('odds_history').select('odds_id').where('odds_id', '>', odds).limit(1).execute();
    expect(stale).toEqual([]);
  });
});
