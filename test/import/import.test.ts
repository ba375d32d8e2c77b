import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { COUNTS, smallDataset, snapshot } from './fixture.js';

describe.each(DIALECTS)('POST /admin/v1/import (%s)', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness({ dialect });
  });
  afterEach(async () => t.close());

  const db = () => t.ctx.database.db;

  it('imports every array and reports the counts', async () => {
    expect(await t.import(smallDataset())).toEqual(COUNTS);
    const { counts } = await snapshot(t);
    expect(counts).toEqual({ ...COUNTS, flow_legs: 2, flow_tags: 2 });
  });

  it('reports only the arrays sent; an empty dataset imports nothing', async () => {
    const { sports } = smallDataset();
    expect(await t.import({ sports })).toEqual({ sports: 2 });
    expect(await t.import({})).toEqual({});
    expect(await t.import({ teams: [] })).toEqual({ teams: 0 });
  });

  it('stores what it was given, with the defaults for what was left out', async () => {
    await t.import(smallDataset());
    const event = await db().selectFrom('events').selectAll().where('id', '=', 200).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ status: 'postponed', start_time: Date.parse('2030-01-05T19:00:00Z') });
    expect((await db().selectFrom('events').select('status').where('id', '=', 100).executeTakeFirstOrThrow()).status).toBe('scheduled');
    const odds = await db().selectFrom('odds').selectAll().orderBy('id').execute();
    expect(odds[0]).toMatchObject({ status: 'open', updated_at: Date.parse('2029-12-31T10:00:00Z'), line: null, price_decimal: 1.8 });
    expect(odds[1]?.updated_at).toBe(t.clock.now());
    expect(odds[2]).toMatchObject({ status: 'suspended', line: 221.5 });
    const league = await db().selectFrom('leagues').selectAll().where('id', '=', 11).executeTakeFirstOrThrow();
    expect(league).toMatchObject({ country_key: null, country_name: null });
  });

  it('derives sport and league of events and flows, bet_type, hit rate and the legs of parlays', async () => {
    await t.import(smallDataset());
    const events = await db().selectFrom('events').select(['id', 'sport_id']).orderBy('id').execute();
    expect(events).toEqual([
      { id: 100, sport_id: 1 },
      { id: 200, sport_id: 2 },
    ]);
    const flows = await db().selectFrom('flows').select(['id', 'bet_type', 'sport_id', 'league_id', 'hit_rate_pct', 'focus_entity_id']).orderBy('id').execute();
    expect(flows).toEqual([
      { id: 1, bet_type: 'single', sport_id: 1, league_id: 10, hit_rate_pct: 80, focus_entity_id: 1000 },
      { id: 2, bet_type: 'single', sport_id: 1, league_id: 10, hit_rate_pct: 70, focus_entity_id: 5000 },
      { id: 3, bet_type: 'single', sport_id: 1, league_id: 10, hit_rate_pct: (2 * 100) / 3, focus_entity_id: 100 },
      { id: 4, bet_type: 'single', sport_id: 2, league_id: 20, hit_rate_pct: 100, focus_entity_id: 2001 },
      { id: 5, bet_type: 'parlay', sport_id: 1, league_id: 10, hit_rate_pct: 60, focus_entity_id: 100 },
    ]);
    const legs = await db().selectFrom('flow_legs').selectAll().orderBy('position').execute();
    expect(legs).toEqual([
      { flow_id: 5, leg_id: 1, position: 0 },
      { flow_id: 5, leg_id: 2, position: 1 },
    ]);
  });

  it('upserts by id: a re-import updates in place, and references may point at stored rows', async () => {
    await t.import(smallDataset());
    const before = await snapshot(t);
    const upserted = await t.import({
      teams: [{ id: 1000, key: 'boston-celtics', name: 'Boston Green', league_id: 10 }],
      players: [{ id: 5010, key: 'jaylen-brown', name: 'Jaylen Brown', team_id: 1000 }],
      // Flow 5 now has three legs; flow 6 is a new parlay over stored flows.
      flows: [
        { ...smallDataset().flows[4], leg_ids: [3, 2, 1] },
        { id: 6, flow_type: 'fun', event_id: 100, focus_entity_type: 'event', description: 'x', hits: 1, total: 2, likelihood: 'possible', leg_ids: [3, 1] },
      ],
    } as Record<string, unknown[]>);
    expect(upserted).toEqual({ teams: 1, players: 1, flows: 2 });
    const after = await snapshot(t);
    expect(after.counts).toEqual({ ...before.counts, players: 5, flows: 6, flow_legs: 5 });
    const team = await db().selectFrom('teams').selectAll().where('id', '=', 1000).executeTakeFirstOrThrow();
    expect(team).toEqual({ id: 1000, key: 'boston-celtics', name: 'Boston Green', abbreviation: null, location: null, league_id: 10 });
    const legs = await db().selectFrom('flow_legs').select(['leg_id']).where('flow_id', '=', 5).orderBy('position').execute();
    expect(legs.map((l) => l.leg_id)).toEqual([3, 2, 1]);

    // Re-imported without legs, a parlay becomes a single and loses its legs.
    const { leg_ids: _legs, ...single } = smallDataset().flows[4] ?? { leg_ids: [] };
    await t.import({ flows: [single] });
    expect((await db().selectFrom('flows').select('bet_type').where('id', '=', 5).executeTakeFirstOrThrow()).bet_type).toBe('single');
    expect(await db().selectFrom('flow_legs').selectAll().where('flow_id', '=', 5).execute()).toEqual([]);
  });

  it('refreshes the derived sport of stored events and flows when a league or an event moves', async () => {
    await t.import(smallDataset());
    // The NBA league moves to soccer (sport 2): its stored event and flows follow.
    await t.import({ leagues: [{ ...smallDataset().leagues[0], sport_id: 2 }] } as Record<string, unknown[]>);
    const sportOf = async (table: 'events' | 'flows', id: number) =>
      (await db().selectFrom(table).select('sport_id').where('id', '=', id).executeTakeFirstOrThrow()).sport_id;
    expect(await sportOf('events', 100)).toBe(2);
    expect(await sportOf('flows', 1)).toBe(2);
    expect(await sportOf('flows', 5)).toBe(2);
    expect(await sportOf('events', 200)).toBe(2);

    // Event 200 moves to the EuroLeague (basketball): its stored flow follows.
    await t.import({ events: [{ ...smallDataset().events[1], league_id: 11 }] } as Record<string, unknown[]>);
    const flow = await db().selectFrom('flows').select(['sport_id', 'league_id']).where('id', '=', 4).executeTakeFirstOrThrow();
    expect(flow).toEqual({ sport_id: 1, league_id: 11 });
  });

  it('bumps the data version, so cached reads drop', async () => {
    const before = t.ctx.changes.version('data');
    await t.import({ sports: smallDataset().sports });
    expect(t.ctx.changes.version('data')).toBe(before + 1);
  });
});

describe.each(DIALECTS)('concurrent imports (%s)', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness({ dialect });
  });
  afterEach(async () => t.close());

  it('run one after another: overlapping imports in opposite row orders all succeed, none deadlocks', async () => {
    const forward = smallDataset();
    const backward = Object.fromEntries(Object.entries(smallDataset()).map(([array, items]) => [array, [...items].reverse()]));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.admin.post('/admin/v1/import', i % 2 === 0 ? forward : backward),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const { counts } = await snapshot(t);
    expect(counts).toEqual({ ...COUNTS, flow_legs: 2, flow_tags: 2 });
  });
});
