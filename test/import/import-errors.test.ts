import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, type Harness, harness } from '../helpers/harness.js';
import { importDataset } from '../helpers/data.js';
import { smallDataset, snapshot } from './fixture.js';

type Mutate = (data: ReturnType<typeof smallDataset>) => unknown;

/** A dataset breaking one rule, and the detail the 422 must carry. */
const BAD: Array<[string, Mutate, { field: string; rule: string }]> = [
  ['a team of an unknown league', (d) => ({ ...d, teams: d.teams.map((x, i) => (i === 1 ? { ...x, league_id: 999 } : x)) }), { field: 'teams[1].league_id', rule: 'reference' }],
  ['a wrong enum', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 2 ? { ...x, flow_type: 'rumour' } : x)) }), { field: 'flows[2].flow_type', rule: 'enum' }],
  ['a missing required field', (d) => ({ ...d, events: [d.events[0], { ...d.events[1], home_team_id: undefined }] }), { field: 'events[1].home_team_id', rule: 'required' }],
  ['an unknown field', (d) => ({ ...d, events: d.events.map((e) => ({ ...e, sport_id: 1 })) }), { field: 'events[0].sport_id', rule: 'additionalProperties' }],
  ['an unknown array', (d) => ({ ...d, venues: [{ id: 1 }] }), { field: 'venues', rule: 'additionalProperties' }],
  ['an id below 1', (d) => ({ ...d, sports: [{ id: 0, key: 'x', name: 'X' }] }), { field: 'sports[0].id', rule: 'minimum' }],
  ['a price of 1', (d) => ({ ...d, odds: d.odds.map((x, i) => (i === 4 ? { ...x, price_decimal: 1 } : x)) }), { field: 'odds[4].price_decimal', rule: 'exclusiveMinimum' }],
  ['a start time without a zone', (d) => ({ ...d, events: d.events.map((x, i) => (i === 0 ? { ...x, start_time: '2030-01-05 00:30' } : x)) }), { field: 'events[0].start_time', rule: 'format' }],
  ['a key with a dot', (d) => ({ ...d, leagues: d.leagues.map((x, i) => (i === 2 ? { ...x, key: 'spain.la-liga' } : x)) }), { field: 'leagues[2].key', rule: 'pattern' }],
  ['a NUL character (PostgreSQL text cannot hold it)', (d) => ({ ...d, teams: d.teams.map((x, i) => (i === 0 ? { ...x, name: 'Bos\u0000ton' } : x)) }), { field: 'teams[0].name', rule: 'pattern' }],
  ['a duplicate id', (d) => ({ ...d, odds: [...d.odds, { ...d.odds[0] }] }), { field: 'odds[6].id', rule: 'unique' }],
  ['more hits than games', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, hits: 11 } : x)) }), { field: 'flows[0].hits', rule: 'maximum' }],
  ['a total of 0', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, hits: 0, total: 0 } : x)) }), { field: 'flows[0].total', rule: 'minimum' }],
  ['a team playing itself', (d) => ({ ...d, events: d.events.map((x, i) => (i === 1 ? { ...x, away_team_id: 2000 } : x)) }), { field: 'events[1].away_team_id', rule: 'not' }],
  ['odds of an unknown operator', (d) => ({ ...d, odds: d.odds.map((x, i) => (i === 3 ? { ...x, operator_id: 77 } : x)) }), { field: 'odds[3].operator_id', rule: 'reference' }],
  ['a player focus without a player', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 1 ? { ...x, focus_entity_id: undefined } : x)) }), { field: 'flows[1].focus_entity_id', rule: 'required' }],
  ['a focus on an unknown player', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 1 ? { ...x, focus_entity_id: 1000 } : x)) }), { field: 'flows[1].focus_entity_id', rule: 'reference' }],
  ['a leg of another event', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 4 ? { ...x, leg_ids: [1, 4] } : x)) }), { field: 'flows[4].leg_ids[1]', rule: 'same_event' }],
  ['a leg that is a parlay', (d) => ({ ...d, flows: [...d.flows, { ...d.flows[4], id: 6, leg_ids: [1, 5] }] }), { field: 'flows[5].leg_ids[1]', rule: 'single' }],
  ['an unknown leg', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 4 ? { ...x, leg_ids: [1, 42] } : x)) }), { field: 'flows[4].leg_ids[1]', rule: 'reference' }],
  ['a market without a category', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 0 ? { ...x, category: undefined } : x)) }), { field: 'betting_markets[0].category_id', rule: 'required' }],
  ['a market of an unknown category', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 1 ? { ...x, category_id: 9 } : x)) }), { field: 'betting_markets[1].category_id', rule: 'reference' }],
  ['a category key other than its id\'s', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 2 ? { ...x, category: 'main' } : x)) }), { field: 'betting_markets[2].category', rule: 'const' }],
  ['an event period of an unknown sport', (d) => ({ ...d, event_periods: d.event_periods.map((x, i) => (i === 2 ? { ...x, sport_id: 7 } : x)) }), { field: 'event_periods[2].sport_id', rule: 'reference' }],
  ['a hit history shorter than total', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, hit_history: x.hit_history?.slice(1) } : x)) }), { field: 'flows[0].hit_history', rule: 'total' }],
  ['a hit history with other hits', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, hits: 9 } : x)) }), { field: 'flows[0].hit_history', rule: 'hits' }],
  ['a hit history on a fun flow', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, flow_type: 'fun' } : x)) }), { field: 'flows[0].hit_history', rule: 'fact_only' }],
  ['a hit history against an unknown team', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, hit_history: x.hit_history?.map((g, j) => (j === 2 ? { ...g, opponent_team_id: 77 } : g)) } : x)) }), { field: 'flows[0].hit_history[2].opponent_team_id', rule: 'reference' }],
  ['a hit history date that is not a date', (d) => ({ ...d, flows: d.flows.map((x, i) => (i === 0 ? { ...x, hit_history: x.hit_history?.map((g, j) => (j === 0 ? { ...g, date: '2029-13-01' } : g)) } : x)) }), { field: 'flows[0].hit_history[0].date', rule: 'format' }],
  // Results: each would break a UNIQUE key of the stored results (a 500 before), or leave a market or a statistic nothing can grade on.
  ['a period scored twice', (d) => ({ ...d, events: d.events.map((x, i) => (i === 0 ? { ...x, period_scores: [1, 2, 1].map((p) => ({ event_period_id: p, home_score: 50, away_score: 49 })) } : x)) }), { field: 'events[0].period_scores[2].event_period_id', rule: 'unique' }],
  ['a statistic given twice for one player', (d) => ({ ...d, events: d.events.map((x, i) => (i === 0 ? { ...x, statistics: [27, 5, 30].map((value, j) => ({ player_id: j === 1 ? 5001 : 5000, statistic: 'points', value })) } : x)) }), { field: 'events[0].statistics[2].statistic', rule: 'unique' }],
  ['a statistic of a player of another sport', (d) => ({ ...d, events: d.events.map((x, i) => (i === 0 ? { ...x, statistics: [{ player_id: 5002, statistic: 'points', value: 3 }] } : x)) }), { field: 'events[0].statistics[0].player_id', rule: 'same_sport' }],
  ['a market settling on a statistic no sport has', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 2 ? { ...x, settlement: { rule: 'player_stat', stat: 'pointz' } } : x)) }), { field: 'betting_markets[2].settlement.stat', rule: 'reference' }],
  ['a market settling on a statistic of another sport', (d) => ({ ...d, player_statistics: [...d.player_statistics, { id: 2, key: 'goals', name: 'Goals', sport_id: 2 }], betting_markets: d.betting_markets.map((x, i) => (i === 2 ? { ...x, settlement: { rule: 'yes_no', stat: 'goals' } } : x)) }), { field: 'betting_markets[2].settlement.stat', rule: 'reference' }],
  ['an event market settling on a count the results do not hold', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 1 ? { ...x, settlement: { rule: 'yes_no', stat: 'overtime' } } : x)) }), { field: 'betting_markets[1].settlement.stat', rule: 'reference' }],
  ['a market settling on a period no sport has', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 1 ? { ...x, settlement: { rule: 'total', period: '2nd-quarterz' } } : x)) }), { field: 'betting_markets[1].settlement.period', rule: 'reference' }],
  ['a market settling on a period of another sport', (d) => ({ ...d, betting_markets: d.betting_markets.map((x, i) => (i === 2 ? { ...x, settlement: { rule: 'player_stat', stat: 'points', period: 'full-time' } } : x)) }), { field: 'betting_markets[2].settlement.period', rule: 'reference' }],
];

describe.each(DIALECTS)('POST /admin/v1/import refuses bad input and writes nothing (%s)', (dialect) => {
  let t: Harness;
  let stored: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    t = await harness({ dialect });
    // A stored dataset the bad imports would change: every one of them must leave it as it is.
    const base = smallDataset();
    await importDataset(t, { ...base, teams: base.teams.slice(0, 2), players: base.players.slice(0, 2), events: base.events.slice(0, 1), odds: base.odds.slice(0, 2), flows: [] });
    stored = await snapshot(t);
  });
  afterAll(async () => t.close());

  it.each(BAD)('%s → 422 naming array[index].field', async (_name, mutate, detail) => {
    const bad = mutate(smallDataset());
    // The good items of the same dataset rename stored rows: a partial write would show.
    const renamed = { ...(bad as Record<string, unknown>), sports: [{ id: 1, key: 'basketball', name: 'Renamed' }, ...(((bad as { sports?: unknown[] }).sports ?? []).slice(1))] };
    const res = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify(detail.field.startsWith('sports') ? bad : renamed));
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', request_id: expect.any(String) });
    expect(body.error.details).toContainEqual(detail);
    expect(body.error.message).toContain(detail.field);
    expect(await snapshot(t)).toEqual(stored);
  });

  it('reports every problem of the dataset, not only the first', async () => {
    const data = smallDataset();
    const res = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify({ ...data, teams: data.teams.map((x) => ({ ...x, league_id: 999 })) }));
    expect(res.statusCode).toBe(422);
    const fields = (res.json().error.details as Array<{ field: string }>).map((d) => d.field);
    expect(fields).toEqual(['teams[0].league_id', 'teams[1].league_id', 'teams[2].league_id', 'teams[3].league_id']);
  });

  it('names at most 100 problems, however many there are', async () => {
    const teams = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, key: `t${i}`, name: `T${i}`, league_id: 10, location: '' }));
    const schema = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify({ teams }));
    expect(schema.statusCode).toBe(422);
    expect(schema.json().error.details).toHaveLength(100);
    const references = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', JSON.stringify({ teams: teams.map(({ location: _l, ...team }) => ({ ...team, league_id: 999 })) }));
    expect(references.statusCode).toBe(422);
    expect(references.json().error.details).toHaveLength(100);
    expect(references.json().error.message).toMatch(/\(and 149 more problems\); nothing was imported$/);
    expect(await snapshot(t)).toEqual(stored);
  });

  it.each([
    ['a string id', JSON.stringify({ sports: [{ id: '3', key: 'x', name: 'X' }] })],
    ['an object for an array', JSON.stringify({ teams: { id: 1 } })],
    ['an array for the dataset', JSON.stringify([{ id: 1 }])],
    ['malformed JSON', '{"sports": ['],
  ])('%s → 400 BAD_REQUEST', async (_name, payload) => {
    const res = await t.admin.raw<ErrorBody>('POST', '/admin/v1/import', payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(await snapshot(t)).toEqual(stored);
  });

  it('needs the admin token: 401 without it or with a wrong one', async () => {
    const payload = JSON.stringify({ sports: [{ id: 9, key: 'cricket', name: 'Cricket' }] });
    const missing = await t.anonymous.raw<ErrorBody>('POST', '/admin/v1/import', payload);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toMatchObject({ code: 'UNAUTHORIZED', reason: 'missing_credentials' });
    const wrong = await t.as({ headers: { authorization: `Bearer ${'x'.repeat(42)}` } }).raw<ErrorBody>('POST', '/admin/v1/import', payload);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({ code: 'UNAUTHORIZED', reason: 'invalid_credentials' });
    expect(await snapshot(t)).toEqual(stored);
  });
});

describe('POST /admin/v1/import without ADMIN_TOKEN', () => {
  it('does not exist (404)', async () => {
    const t = await harness({ dialect: 'sqlite', env: { ADMIN_TOKEN: '' } });
    try {
      const res = await t.anonymous.post('/admin/v1/import', {});
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
