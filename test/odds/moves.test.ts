import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, type Harness, harness } from '../helpers/harness.js';
import { drain, openStream } from '../helpers/sse.js';
import { addEndpoint, deliveries } from '../webhooks/former-fixture.js';

/**
 * Steam moves and drops at their thresholds (MOVES_* defaults: 3 books, 2 points, 10 percent,
 * 120 s). Event 200's moneyline home is priced 2.5 (40%) by four books; its total over 2.0 by two.
 * Every change carries its own updated_at, so the window is the changes' time, not the test's.
 */
const BASE = Date.parse('2026-12-01T12:00:00Z');
/** A price 2 implied-probability points shorter than 2.5. */
const AT_TWO = 1 / 0.42;
const at = (seconds: number) => new Date(BASE + seconds * 1_000).toISOString();

interface Move {
  id: number;
  type: 'steam' | 'drop';
  history_id: number;
  operator_id: number | null;
  operator_ids: number[];
  position: string;
  from_price: number;
  to_price: number;
  size: number;
  books: Array<{ operator_id: number; points: number; percent: number; since: string }>;
  changed_at: string;
}

const price = (id: number, operatorId: number, marketId: number, position: string, decimal: number, seconds: number, line?: number) => ({
  id,
  event_id: 200,
  operator_id: operatorId,
  betting_market_id: marketId,
  position,
  price_decimal: decimal,
  updated_at: at(seconds),
  ...(line === undefined ? {} : { line }),
});

function dataset() {
  return {
    sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
    leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
    teams: [
      { id: 1000, key: 'celtics', name: 'Boston Celtics', league_id: 10 },
      { id: 1001, key: 'knicks', name: 'New York Knicks', league_id: 10 },
    ],
    operators: [1, 2, 3, 4].map((id) => ({ id, key: `book${id}`, name: `Book ${id}` })),
    betting_markets: [
      { id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' },
      { id: 2, key: 'total', name: 'Total', category: 'main', entity_type: 'event' },
    ],
    events: [{ id: 200, league_id: 10, start_time: at(86_400), home_team_id: 1001, away_team_id: 1000 }],
    odds: [
      ...[1, 2, 3, 4].map((book) => price(10 + book, book, 1, 'home', 2.5, -3_600)),
      ...[1, 2, 3, 4].map((book) => price(20 + book, book, 1, 'away', 1.6, -3_600)),
      price(31, 1, 2, 'over', 2.0, -3_600, 220.5),
      price(32, 2, 2, 'over', 2.0, -3_600, 220.5),
    ],
  };
}

describe.each(DIALECTS)('steam moves and drops (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect, env: { STREAM_HEARTBEAT_MS: '200' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.clock.set(BASE + 86_400_000);
    await t.import(dataset());
    ({ apiKey } = await t.client());
    // Endpoints made before any move: each is told of every move found after it.
    await addEndpoint(t.database.db, 'ep_steam', ['odds.steam']);
    await addEndpoint(t.database.db, 'ep_drop', ['odds.drop']);
  });
  afterAll(async () => t.close());

  const move = async (...odds: unknown[]) => {
    await t.import({ odds });
    await t.ctx.oddsMoves?.run();
  };
  const moves = async (body: Record<string, unknown> = {}) =>
    (await t.as({ apiKey }).page<Move>('/v1/odds/moves', { event_ids: [200], page_size: 100, ...body })).results;

  it('steam fires when the third book reaches 2 points, not at just below, and once while it holds; the stream says the same', async () => {
    const stream = await openStream(`${url}/v1/stream/odds?event_ids=200&types=steam,drop`, { 'x-api-key': apiKey });
    // 2.5 (40%) → 1/0.42 is 2 points to 6 decimals (2.0000000000000018 unrounded); → 2.380953 is 1.999989.
    await move(price(11, 1, 1, 'home', AT_TWO, 0));
    await move(price(12, 2, 1, 'home', AT_TWO, 10));
    await move(price(13, 3, 1, 'home', 2.380953, 20));
    expect(await moves({ types: ['steam'] })).toEqual([]);
    await move(price(13, 3, 1, 'home', AT_TWO, 30));
    await move(price(14, 4, 1, 'home', 2.38, 40));
    const steam = await moves({ types: ['steam'] });
    expect(steam).toHaveLength(1);
    expect(steam[0]).toMatchObject({ type: 'steam', position: 'home', operator_id: null, operator_ids: [1, 2, 3], size: 2, from_price: 2.5, to_price: 2.380952 });
    expect(steam[0]?.changed_at).toBe(at(30));
    expect(steam[0]?.books.map((b) => b.since)).toEqual([at(0), at(10), at(20)]);
    // No drop: 4.76% is short of 10%.
    expect(await moves({ types: ['drop'] })).toEqual([]);

    const events = await drain(stream, 1500);
    expect(events.map((e) => [e.event, e.id])).toEqual([['steam', undefined]]);
    expect(events.map((e) => JSON.parse(e.data) as Move)).toEqual(steam);
    stream.close();
  });

  it('one book alone is never steam, however far it moves; a move the other way (lengthening) is neither steam nor a drop', async () => {
    await move(price(21, 1, 1, 'away', 1.2, 100));
    const found = await moves({ from: at(100) });
    expect(found.map((m) => m.type)).toEqual(['drop']);
    await move(price(22, 2, 1, 'away', 2.2, 110), price(23, 3, 1, 'away', 2.2, 110), price(24, 4, 1, 'away', 2.2, 110));
    await move(price(21, 1, 1, 'away', 2.2, 115));
    expect((await moves({ from: at(100) })).map((m) => m.type)).toEqual(['drop']);
  });

  it('a drop fires at 10 percent against the price 120 s before, not at just below, and not over more than the window', async () => {
    const stream = await openStream(`${url}/v1/stream/odds?event_ids=200&types=drop`, { 'x-api-key': apiKey });
    // 2.0 → 1.800001 is 9.99995%; → 1.8 is 10%; → 1.79 while it holds: no second drop.
    await move(price(31, 1, 2, 'over', 1.800001, 200, 220.5));
    expect(await moves({ types: ['drop'], from: at(200) })).toEqual([]);
    await move(price(31, 1, 2, 'over', 1.8, 205, 220.5));
    await move(price(31, 1, 2, 'over', 1.79, 210, 220.5));
    // Book 2 falls 10% in two steps 130 s apart: against its price 120 s before, never 10%.
    await move(price(32, 2, 2, 'over', 1.9, 200, 220.5));
    await move(price(32, 2, 2, 'over', 1.8, 330, 220.5));
    const drops = await moves({ types: ['drop'], from: at(200) });
    expect(drops).toHaveLength(1);
    expect(drops[0]).toMatchObject({ type: 'drop', operator_id: 1, operator_ids: [1], from_price: 2, to_price: 1.8, size: 10, changed_at: at(205) });
    const events = await drain(stream, 1500);
    expect(events.map((e) => JSON.parse(e.data) as Move)).toEqual(drops);
    stream.close();
  });

  it('a drop that stopped holding is a new drop when it holds again', async () => {
    // Book 1's over went 2.0 → 1.79 by 210 s; back to 2.0 at 400 s, then 1.8 at 600 s: 10% against its price at 480 s.
    await move(price(31, 1, 2, 'over', 2.0, 400, 220.5));
    await move(price(31, 1, 2, 'over', 1.8, 600, 220.5));
    const drops = await moves({ types: ['drop'], from: at(400) });
    expect(drops.map((d) => [d.operator_id, d.changed_at, d.size])).toEqual([[1, at(600), 10]]);
  });

  it('a request may tighten the thresholds, which filter the stored moves, and never loosen them (422 naming the field)', async () => {
    expect(await moves({ types: ['steam'], min_books: 4 })).toEqual([]);
    expect(await moves({ types: ['steam'], min_move: 2.000001 })).toEqual([]);
    expect(await moves({ types: ['steam'], min_move: 2 })).toHaveLength(1);
    // Within 20 s only books 2 (10 s before) and 3 (its first change of the window 10 s before) moved: two books are no steam.
    expect(await moves({ types: ['steam'], window: 20 })).toEqual([]);
    expect(await moves({ types: ['steam'], window: 30 })).toHaveLength(1);
    expect(await moves({ types: ['drop'], min_drop: 10.5, from: at(200) })).toEqual([]);
    for (const [field, value] of [['min_books', 2], ['min_move', 1.9], ['min_drop', 9], ['window', 121]] as const) {
      const res = await t.as({ apiKey }).post('/v1/odds/moves', { event_ids: [200], [field]: value });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<ErrorBody>().error.details?.[0]?.field).toBe(field);
    }
  });

  it('odds.steam and odds.drop carry each move once, as the list shows it', async () => {
    await t.ctx.webhookFormer.run();
    const oldestFirst = async (type: 'steam' | 'drop') => (await moves({ types: [type] })).reverse();
    const told = async (endpoint: string) => (await deliveries(t.database.db, endpoint)).flatMap((d) => d.data['moves'] as Move[]);
    expect(await told('ep_steam')).toEqual(await oldestFirst('steam'));
    expect(await told('ep_drop')).toEqual(await oldestFirst('drop'));
    expect((await told('ep_drop')).length).toBeGreaterThan(1);
  });

  it('is for pro and up', async () => {
    const free = await t.client({ tier: 'free' });
    const res = await t.as(free).post('/v1/odds/moves', { event_ids: [200] });
    expect(res.statusCode).toBe(403);
  });
});
