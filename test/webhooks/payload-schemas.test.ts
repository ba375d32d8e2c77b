import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOADS } from '../../src/modules/webhooks/index.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { eventsOf, HOCKEY, OPENED, resultsDataset, START } from '../results/fixture.js';
import { addEndpoint, deliveries, type StoredDelivery } from './former-fixture.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A hockey game still to play, its three-way market priced so that the books' best prices imply less than 1: an arbitrage from the first import. */
const ARBITRAGE_GAME = 600;
function arbitrageGame(): Record<string, unknown[]> {
  const price = (id: number, operator: number, position: string, priceDecimal: number) => ({
    id, event_id: ARBITRAGE_GAME, operator_id: operator, betting_market_id: 7, position, line: null, price_decimal: priceDecimal, updated_at: OPENED,
  });
  return {
    events: [{ id: ARBITRAGE_GAME, league_id: 20, start_time: new Date(START + 7 * 86_400_000).toISOString(), home_team_id: 2000, away_team_id: 2001 }],
    odds: [price(6001, 1, 'home', 2.5), price(6002, 1, 'draw', 4.2), price(6003, 1, 'away', 3.0), price(7001, 2, 'home', 2.3), price(7002, 2, 'draw', 4.2), price(7003, 2, 'away', 3.0)],
  };
}

/**
 * A third book on the arbitrage game's home price, then all three books shortening it from 2.5 to
 * 2.0 within a minute: each a drop of 20%, and a steam move (three books, 10 points each).
 */
function steamOnTheGame(): Array<Record<string, unknown[]>> {
  const home = (id: number, operator: number, priceDecimal: number, at: string) => ({
    id, event_id: ARBITRAGE_GAME, operator_id: operator, betting_market_id: 7, position: 'home', line: null, price_decimal: priceDecimal, updated_at: at,
  });
  const moved = (seconds: number) => new Date(Date.parse(OPENED) + 3_600_000 + seconds * 1_000).toISOString();
  return [
    { operators: [{ id: 3, key: 'book-c', name: 'Book C' }], odds: [home(8001, 3, 2.5, OPENED)] },
    { odds: [home(6001, 1, 2.0, moved(0)), home(7001, 2, 2.0, moved(10)), home(8001, 3, 2.0, moved(20))] },
  ];
}

type Json = Record<string, unknown>;

/**
 * The registry of payloads (GET /v1/webhook-event-types, the document's `webhooks`) describes what
 * is really sent: the data the former makes from an import's price history, from the board
 * changes, and from the outbox the event and grading transactions write, each valid against its
 * type's schema in the registry, in the route's answer and in the document.
 */
describe.each(DIALECTS)('webhook payloads as their schemas say (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect });
    await addEndpoint(t.database.db, 'ep_every', [...WEBHOOK_EVENT_TYPES]);
    return t;
  });

  /** Every delivery of every type: prices and grades from one import, a score corrected by another (an event update and a regrade). */
  const formed = async (): Promise<StoredDelivery[]> => {
    const dataset = resultsDataset();
    const game = arbitrageGame();
    await h.import({ ...dataset, events: [...(dataset.events ?? []), ...(game.events ?? [])], odds: [...(dataset.odds ?? []), ...(game.odds ?? [])] });
    await h.import({ events: eventsOf({ home: 111, away: 104 }) });
    for (const step of steamOnTheGame()) await h.import(step);
    await h.ctx.boardEvents.run();
    await h.ctx.oddsMoves?.run();
    await h.ctx.webhookFormer.run();
    return deliveries(h.database.db, 'ep_every');
  };

  it('every kind of delivery the former makes is valid against its type in the registry, the event-types route and the document', async () => {
    const made = await formed();
    expect([...new Set(made.map((d) => d.type))].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(made.filter((d) => d.type === 'event.updated').map((d) => d.data['event'])).toContainEqual(expect.objectContaining({ id: 100, home_score: 111 }));
    expect(made.filter((d) => d.type === 'edge.found').flatMap((d) => d.data['edges'] as Json[])).toContainEqual(expect.objectContaining({ kind: 'arbitrage', event_id: ARBITRAGE_GAME }));
    expect(made.some((d) => d.type === 'result.graded' && d.data['event_id'] === HOCKEY)).toBe(true);

    const { results } = await h.as(await h.client({ tier: 'pro' })).ok<{ results: Array<{ type: string; data_schema: Json }> }>('/v1/webhook-event-types');
    const document = (await h.anonymous.get('/openapi.json')).json<{ webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }> }>();
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    for (const delivery of made) {
      const type = delivery.type as keyof typeof WEBHOOK_PAYLOADS;
      const where = `${type} ${JSON.stringify(delivery.data)}`;
      expect([...Value.Errors(WEBHOOK_PAYLOADS[type].data, delivery.data)].map((e) => `${e.instancePath} ${e.message}`), where).toEqual([]);

      const served = results.find((r) => r.type === type)?.data_schema ?? {};
      expect(served, type).toEqual(JSON.parse(JSON.stringify(WEBHOOK_PAYLOADS[type].data)));
      expect(ajv.validate(served, delivery.data), `${where} ${ajv.errorsText()}`).toBe(true);

      // The body the sender signs, as the document's webhook operation describes it.
      const body = { type, timestamp: new Date(h.clock.now()).toISOString(), data: delivery.data };
      expect(ajv.validate(document.webhooks[type]?.post.requestBody.content['application/json']?.schema ?? false, body), `${where} ${ajv.errorsText()}`).toBe(true);
    }
  });

  it('the schemas are the precise ones: a change with a field of another type, or one more field, is refused', () => {
    const odds = WEBHOOK_PAYLOADS['odds.changed'].data;
    expect(Value.Check(odds, { sequence: 1, changes: [{ anything: true }] })).toBe(false);
    expect(Value.Check(WEBHOOK_PAYLOADS['event.updated'].data, { sequence: 1, event: {}, changed: ['status'] })).toBe(false);
    expect(Value.Check(WEBHOOK_PAYLOADS['result.graded'].data, { sequence: 1, grades: [] })).toBe(false);
  });
});
