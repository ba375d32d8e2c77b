import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, type Harness, harness } from '../helpers/harness.js';
import { entityOf, type Loaded, proveTheOddsApi } from './the-odds-api-proof.js';
import { fromAmerican, type OddsApiEvent, type OddsApiScore, recorded, toAmerican } from './the-odds-api-expected.js';

/**
 * The sample answers of The Odds API loaded through POST /admin/v1/import/the-odds-api: a
 * historical snapshot pair in time order, the current odds and the scores say through the public
 * API what their JSON says (the-odds-api-proof.ts), in decimal and in American odds.
 */

const snapshot = (file: string) => JSON.parse(recorded(file)) as { timestamp: string; data: OddsApiEvent[] };
const FIRST = snapshot('historical-soccer_epl-2024-12-20T09-00-00Z.json');
const SECOND = snapshot('historical-soccer_epl-2024-12-20T09-05-00Z.json');
const ODDS = JSON.parse(recorded('odds-soccer_epl.json')) as OddsApiEvent[];
const SCORES = JSON.parse(recorded('scores-soccer_epl.json')) as OddsApiScore[];

describe.each(DIALECTS)('The Odds API samples end to end over HTTP (%s)', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness({ dialect });
  });
  afterEach(async () => t.close());

  const load = async (body: unknown, query: string) => {
    const res = await t.admin.request({ method: 'POST', url: `/admin/v1/import/the-odds-api?${query}`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ imported: { events: number; odds: number; results: number }; queued: number; skipped: unknown[] }>();
  };
  /** Our operators and markets by id, for reading the history's ids. */
  const names = async () => {
    const of = async (table: 'operators' | 'betting_markets') => new Map((await t.database.db.selectFrom(table).select(['id', 'key']).execute()).map((r) => [Number(r.id), r.key]));
    return { operators: await of('operators'), markets: await of('betting_markets') };
  };

  it.each([
    { format: 'decimal', convert: (events: OddsApiEvent[]) => events, decimal: (p: number) => p },
    { format: 'american', convert: toAmerican, decimal: fromAmerican },
  ])('$format: two snapshots in time order, the odds, then the scores: the history has each change at its last_update, the scores are results and the grades follow', async ({ format, convert, decimal }) => {
    const first = await load({ ...FIRST, data: convert(FIRST.data) }, `odds_format=${format}&kind=snapshot`);
    expect(first).toMatchObject({ imported: { events: 3, odds: 3 * 3 * 7 }, queued: 0, skipped: [] });
    await load({ ...SECOND, data: convert(SECOND.data) }, `odds_format=${format}`);
    const odds = await load(convert(ODDS), `odds_format=${format}&kind=odds`);
    expect(odds).toMatchObject({ imported: { events: 5 }, queued: 0, skipped: [] });
    const scores = await load(SCORES, 'kind=scores');
    expect(scores).toMatchObject({ imported: { events: 4, results: 4 }, queued: 0, skipped: [] });

    const { apiKey } = await t.client();
    const loaded: Loaded = { odds: [convert(FIRST.data), convert(SECOND.data), convert(ODDS)], scores: SCORES, decimal };
    await proveTheOddsApi(t.as({ apiKey }), t.admin, loaded, await names());
    // Five matches, ten clubs, three books: nothing made twice.
    expect((await t.as({ apiKey }).page('/v1/historical/events?start_date=2024-12-21&end_date=2024-12-22&page_size=100')).results).toHaveLength(5);
    const ids = await t.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/external-ids?source=the-odds-api&entity_type=team');
    expect(ids.data).toHaveLength(10);

    // The older snapshot again changes nothing: its points are before what is stored.
    const history = async () => Number((await t.database.db.selectFrom('odds_history').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await history();
    await load({ ...FIRST, data: convert(FIRST.data) }, `odds_format=${format}&kind=snapshot`);
    expect(await history()).toBe(before);
  });

  it('American prices convert exactly, and are the decimal ones to the cent', async () => {
    await load(toAmerican(ODDS), 'odds_format=american');
    const [arsenal] = ODDS;
    const eventId = await entityOf(t.admin, 'event', arsenal?.id ?? '');
    const { apiKey } = await t.client();
    const changes = (await t.as({ apiKey }).page<{ price_decimal: { to: number } }>('/v1/odds/history-by-event', { event_id: eventId, page_size: 100 })).results.map((c) => c.price_decimal.to).sort();
    const expected = toAmerican([arsenal as OddsApiEvent]).flatMap((e) => e.bookmakers.flatMap((b) => b.markets.flatMap((m) => m.outcomes.map((o) => fromAmerican(o.price))))).sort();
    expect(changes).toHaveLength(expected.length);
    changes.forEach((price, i) => expect(price).toBeCloseTo(expected[i] ?? NaN, 12));
    const decimals = (arsenal?.bookmakers ?? []).flatMap((b) => b.markets.flatMap((m) => m.outcomes.map((o) => o.price))).sort();
    changes.forEach((price, i) => expect(Math.abs(price - (decimals[i] ?? NaN))).toBeLessThan(0.01));
  });

  it('an unknown sport_key is a row error naming sport_key, in an empty database and beside a known league, until an alias maps it', async () => {
    const renamed = ODDS.map((e) => ({ ...e, id: `${e.id}-x`, sport_key: 'soccer_england_premier', sport_title: 'EPL' }));
    const refused = await t.admin.request({ method: 'POST', url: '/admin/v1/import/the-odds-api', payload: JSON.stringify(renamed), headers: { 'content-type': 'application/json' } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json<ErrorBody>().error.details?.map((d) => d.field)).toEqual(renamed.map((_, i) => `row ${i + 1}, sport_key`));

    await load(ODDS, 'odds_format=decimal');
    const again = await t.admin.request({ method: 'POST', url: '/admin/v1/import/the-odds-api', payload: JSON.stringify(renamed), headers: { 'content-type': 'application/json' } });
    expect(again.statusCode, again.body).toBe(422);
    const skipped = await load(renamed, 'skip_invalid=true');
    expect(skipped.imported.events).toBe(0);
    expect(skipped.skipped).toEqual(renamed.map((_, i) => ({ row: i + 1, column: 'sport_key', message: expect.stringContaining('soccer_england_premier') })));

    const league = await entityOf(t.admin, 'league', 'soccer_epl');
    const alias = await t.admin.post('/admin/v1/mapping/aliases', { source: 'the-odds-api', name: 'soccer_england_premier', entity_type: 'league', entity_id: league });
    expect(alias.statusCode, alias.body).toBe(200);
    const landed = await load(renamed, 'odds_format=decimal');
    expect(landed).toMatchObject({ imported: { events: 5 }, queued: 0, skipped: [] });
    // The same five events: by league, teams and kick-off, each now with both ids.
    const { apiKey } = await t.client();
    expect((await t.as({ apiKey }).page('/v1/historical/events?start_date=2024-12-21&end_date=2024-12-22&page_size=100')).results).toHaveLength(5);
    for (const e of ODDS) expect(await entityOf(t.admin, 'event', `${e.id}-x`)).toBe(await entityOf(t.admin, 'event', e.id));
  });
});
