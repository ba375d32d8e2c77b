import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, type Reader, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';

/**
 * Every id is an integer from 1 to 2^53−1. PostgreSQL answered 500 for
 * `{"sport_id":1e19}` (bigint out of range) while SQLite answered 200: the schema must refuse
 * such ids with 422 on both, naming the field, before any query runs.
 */

/** An id field of a request: where it goes and what the rest of the request needs. */
interface IdField {
  name: string;
  /** The field `details` must name, e.g. `sport_ids[0]`. */
  field: string;
  /** `value` is raw JSON or query text, so that 9223372036854775807 reaches the server as sent. */
  request: (value: string) => { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string };
  /** The answer to MAX_SAFE_INTEGER, an unknown id inside the range (decision 0011). */
  unknownInRange: number;
}

const get = (path: string, param: string): IdField['request'] => (value) => ({ method: 'GET', url: `${path}?${param}=${encodeURIComponent(value)}` });
const post = (url: string, body: (value: string) => string): IdField['request'] => (value) => ({
  method: 'POST',
  url,
  headers: { 'content-type': 'application/json' },
  payload: body(value),
});

const FLOW_FIELDS = ['sport', 'league', 'event', 'team', 'player', 'operator'];
const flowFields = (url: string): IdField[] =>
  FLOW_FIELDS.flatMap((entity) => [
    { name: `${url} ${entity}_ids`, field: `${entity}_ids[0]`, request: post(url, (v) => `{"${entity}_ids":[${v}]}`), unknownInRange: 200 },
    { name: `${url} ${entity}_id`, field: `${entity}_id`, request: post(url, (v) => `{"${entity}_id":${v}}`), unknownInRange: 200 },
  ]);

const ID_FIELDS: IdField[] = [
  { name: 'leagues sport_id', field: 'sport_id', request: get('/v1/references/leagues', 'sport_id'), unknownInRange: 404 },
  { name: 'teams league_id', field: 'league_id', request: get('/v1/references/teams', 'league_id'), unknownInRange: 404 },
  { name: 'players team_id', field: 'team_id', request: get('/v1/references/players', 'team_id'), unknownInRange: 404 },
  { name: 'betting-markets sport_id', field: 'sport_id', request: get('/v1/references/betting-markets', 'sport_id'), unknownInRange: 404 },
  { name: 'events sport_id', field: 'sport_id', request: post('/v1/events/upcoming-events', (v) => `{"sport_id":${v}}`), unknownInRange: 404 },
  { name: 'events league_id', field: 'league_id', request: post('/v1/events/upcoming-events', (v) => `{"league_id":${v}}`), unknownInRange: 404 },
  { name: 'odds event_id', field: 'event_id', request: post('/v1/odds/upcoming-odds-by-event', (v) => `{"event_id":${v}}`), unknownInRange: 404 },
  {
    name: 'odds operator_ids',
    field: 'operator_ids[0]',
    request: post('/v1/odds/upcoming-odds-by-event', (v) => `{"event_id":5001,"operator_ids":[${v}]}`),
    unknownInRange: 200,
  },
  {
    name: 'odds betting_market_ids',
    field: 'betting_market_ids[0]',
    request: post('/v1/odds/upcoming-odds-by-event', (v) => `{"event_id":5001,"betting_market_ids":[${v}]}`),
    unknownInRange: 200,
  },
  ...flowFields('/v1/trends/flows'),
  ...flowFields('/v1/trends/mixed-flows'),
];

/**
 * Out of range: past 2^63 (the reported 500), exactly 2^63−1, 2^53 (no longer exact in a double), 0 and negatives.
 * In decimal digits: an exponent in a query string is not an integer at all (400, strict-input.test.ts).
 */
const OUT_OF_RANGE = ['10000000000000000000', '9223372036854775807', '9223372036854775808', String(2 ** 53), '0', '-1', '-9223372036854775808'];

describe.each(DIALECTS)('ids out of 1..2^53−1 are 422 on every endpoint (%s)', (dialect) => {
  let h: Reader;
  let me: Caller;

  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
    me = h.t.as(await h.t.client({ name: 'Ids', tier: 'pro', authMethod: 'both' }));
  });
  afterAll(async () => h.t.close());

  it.each(ID_FIELDS)('$name', async ({ field, request, unknownInRange }) => {
    for (const value of OUT_OF_RANGE) {
      const res = await me.request(request(value));
      expect(res.statusCode, `${value}: ${res.body}`).toBe(422);
      const { error } = res.json<{ error: { code: string; details: Array<{ field: string; rule: string }> } }>();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details.map((d) => d.field), value).toContain(field);
    }
    // Inside the range an unknown id keeps today's rules: a list's scope is 404, a set filter matches nothing.
    const res = await me.request(request(String(Number.MAX_SAFE_INTEGER)));
    expect(res.statusCode, res.body).toBe(unknownInRange);
    if (unknownInRange === 200) expect(res.json<{ total_count: number }>().total_count).toBe(0);
  });

  it('the import takes ids up to 2^53−1 and refuses larger ones, naming the item', async () => {
    const sport = (id: string) => `{"sports":[{"id":${id},"key":"curling","name":"Curling"}]}`;
    for (const value of OUT_OF_RANGE) {
      const res = await h.t.admin.raw('POST', '/admin/v1/import', sport(value));
      expect(res.statusCode, `${value}: ${res.body}`).toBe(422);
      expect(res.json<{ error: { details: Array<{ field: string }> } }>().error.details.map((d) => d.field)).toContain('sports[0].id');
    }
    const res = await h.t.admin.raw('POST', '/admin/v1/import', sport(String(Number.MAX_SAFE_INTEGER)));
    expect(res.statusCode, res.body).toBe(200);
    const leagues = await me.get(`/v1/references/leagues?sport_id=${Number.MAX_SAFE_INTEGER}`);
    expect(leagues.statusCode, leagues.body).toBe(200);
  });
});
