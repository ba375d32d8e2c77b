import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { smallDataset } from '../import/fixture.js';

const NOW = Date.parse('2030-01-04T12:00:00Z');
const BOARD = '/v1/odds/board';
const ODDS = '/v1/odds/upcoming-odds-by-event';
const EDGES = '/v1/odds/edges';

interface Price {
  operator: { id: number };
  price_decimal: number;
  updated_at: string;
}
interface BoardItem {
  event_id: number;
  position: string;
  prices: Price[];
}
interface OddsItem {
  id: number;
  price_decimal: number;
  status: string;
  updated_at: string;
}
interface Page<T> {
  results: T[];
}

/**
 * The fixture's event 100, home priced by book 1 at 1.80 from 10:00, then 1.90 from 11:00; a late
 * import then says it was 1.70 from 10:30. Book 2's home opens at 2.00 from 10:15 and is
 * suspended at 10:45. Every change is dated by the import's `updated_at`.
 */
const at = (time: string) => `2030-01-04T${time}:00.000Z`;
const home = (id: number, operator: number, price: number, time: string, status = 'open') => ({
  id, event_id: 100, operator_id: operator, betting_market_id: 1, position: 'home', price_decimal: price, status, updated_at: at(time),
});

describe.each(DIALECTS)('as_of (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect, clock: manualClock(NOW) });
    const { odds: _odds, flows: _flows, ...rest } = smallDataset();
    await t.import({ ...rest });
    await t.import({ odds: [home(1, 1, 1.8, '10:00'), home(2, 2, 2, '10:15')] });
    await t.import({ odds: [home(1, 1, 1.9, '11:00'), home(2, 2, 2, '10:45', 'suspended')] });
    await t.import({ odds: [home(1, 1, 1.7, '10:30')] });
    return t;
  });
  const pro = async () => h.as({ apiKey: (await h.client()).apiKey });
  const prices = async (asOf: string) => {
    const page = await (await pro()).page<BoardItem>(BOARD, { event_ids: [100], as_of: asOf });
    return page.results.filter((i) => i.position === 'home').flatMap((i) => i.prices.map((p) => [p.operator.id, p.price_decimal, p.updated_at]));
  };

  it('each book\'s price open at the instant, with its value then; a late import of an earlier change moves the past', async () => {
    expect(await prices(at('10:00'))).toEqual([[1, 1.8, at('10:00')]]);
    expect(await prices(at('10:20'))).toEqual([[1, 1.8, at('10:00')], [2, 2, at('10:15')]]);
    // The late import's 1.70 at 10:30, recorded after the 1.90 of 11:00: in the past answer all the same.
    expect(await prices(at('10:30'))).toEqual([[1, 1.7, at('10:30')], [2, 2, at('10:15')]]);
    // Book 2 suspended at 10:45: not open, on no board.
    expect(await prices(at('10:50'))).toEqual([[1, 1.7, at('10:30')]]);
    expect(await prices(at('11:00'))).toEqual([[1, 1.9, at('11:00')]]);
  });

  it('the odds of an event list every row priced then, suspended or not, as it stood', async () => {
    const page = await (await pro()).page<OddsItem>(ODDS, { event_id: 100, as_of: at('10:50') });
    expect(page.results.map((o) => [o.id, o.price_decimal, o.status, o.updated_at])).toEqual([
      [1, 1.7, 'open', at('10:30')],
      [2, 2, 'suspended', at('10:45')],
    ]);
    const before = await (await pro()).page<OddsItem>(ODDS, { event_id: 100, as_of: at('10:10') });
    expect(before.results.map((o) => o.id)).toEqual([1]);
  });

  it('before the oldest change kept or in the future: 422 stating both bounds', async () => {
    const caller = await pro();
    const bounds = `as_of must be between ${new Date(at('10:00')).toISOString()} and now (${new Date(NOW).toISOString()})`;
    for (const [url, body] of [[BOARD, { event_ids: [100] }], [ODDS, { event_id: 100 }], [EDGES, { event_ids: [100] }]] as const) {
      for (const asOf of ['2030-01-04T09:59:59.999Z', '2030-01-04T12:00:00.001Z']) {
        const error = expectError(await caller.post(url, { ...body, as_of: asOf }), 422, 'VALIDATION_ERROR', { field: 'as_of', rule: 'range' });
        expect(error.message).toBe(bounds);
      }
      expect((await caller.post(url, { ...body, as_of: '2030-01-04T12:00:00Z' })).statusCode).toBe(200);
    }
    // Read as the history's `since` is: a date-time with its offset, else 400/422 by the schema.
    expect((await caller.post(BOARD, { event_ids: [100], as_of: '2030-01-04T11:30:00+01:00' })).statusCode).toBe(200);
    expect((await caller.post(BOARD, { event_ids: [100], as_of: 'yesterday' })).statusCode).toBe(422);
  });

  it('pro and up: a free client sending as_of gets 403 naming the field; without it the board is its own', async () => {
    const free = h.as({ apiKey: (await h.client({ tier: 'free' })).apiKey });
    for (const [url, body] of [[BOARD, { event_ids: [100] }], [ODDS, { event_id: 100 }]] as const) {
      const error = expectError(await free.post(url, { ...body, as_of: at('10:30') }), 403, 'FORBIDDEN');
      expect(error.message).toBe('as_of is for the pro and enterprise tiers; this client is on the free tier');
      expect((await free.post(url, body)).statusCode).toBe(200);
    }
    const enterprise = h.as({ apiKey: (await h.client({ tier: 'enterprise' })).apiKey });
    expect((await enterprise.post(BOARD, { event_ids: [100], as_of: at('10:30') })).statusCode).toBe(200);
  });

  it('the document marks the field with its tiers, and the operations with 403', async () => {
    const doc = (await h.anonymous.get('/openapi.json')).json<{ paths: Record<string, { post: Record<string, unknown> }> }>();
    for (const url of [BOARD, ODDS, EDGES]) {
      const operation = doc.paths[url]?.post as { requestBody: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown> };
      const schema = resolved(doc, operation.requestBody.content['application/json']?.schema) as { properties: Record<string, Record<string, unknown>> };
      expect(schema.properties.as_of?.['x-required-tiers'], url).toEqual(['pro', 'enterprise']);
      expect(Object.keys(operation.responses), url).toContain('403');
    }
  });
});

describe.each(DIALECTS)('ended_at (%s)', (dialect) => {
  const clock = manualClock(NOW);
  const h = forSuite(async () => {
    const t = await harness({ dialect, clock });
    const { odds: _odds, flows: _flows, ...rest } = smallDataset();
    await t.import(rest);
    return t;
  });
  const event = (status: string) => ({ id: 100, league_id: 10, start_time: '2030-01-04T10:00:00Z', status, home_team_id: 1000, away_team_id: 1001 });
  const endedAt = async () => {
    clock.set(NOW + 3_600_000);
    const page = await h.as({ apiKey: (await h.client()).apiKey }).page<{ id: number; ended_at: string | null }>('/v1/historical/events?start_date=2030-01-04&end_date=2030-01-04');
    clock.set(NOW);
    return page.results.find((e) => e.id === 100)?.ended_at;
  };

  it('is recorded when an event first becomes final, and kept when it is imported final again', async () => {
    await h.import({ events: [event('live')] });
    expect(await endedAt()).toBeNull();
    clock.set(NOW + 60_000);
    await h.import({ events: [event('final')] });
    expect(await endedAt()).toBe(new Date(NOW + 60_000).toISOString());
    clock.set(NOW + 120_000);
    await h.import({ events: [event('final')] });
    expect(await endedAt()).toBe(new Date(NOW + 60_000).toISOString());
  });
});

/** A schema, or the component a `$ref` names. */
function resolved(doc: unknown, schema: unknown): unknown {
  const ref = (schema as { $ref?: string }).$ref;
  if (ref === undefined) return schema;
  return ref.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);
}
