import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { drain, openStream } from '../helpers/sse.js';
import { smallDataset } from '../import/fixture.js';
import { addEndpoint, deliveries } from '../webhooks/former-fixture.js';
import { competitionsDataset, TOURNAMENT } from './golf-fixture.js';

/**
 * The steam moves and drops of a competition's odds, as the moves list, the odds stream, the
 * odds.steam and odds.drop webhooks and the signals tell them, and a competition's CLV: only when `event_kinds`
 * (the body, the endpoint's filters) asks for competitions; a client of today is told of the
 * matchups as before.
 */
describe.each(DIALECTS)('competitions in the moves and their webhooks (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  let client: Caller;
  const start = Date.parse('2030-01-04T12:00:00Z');

  it('finds a drop of a competition\'s odds and of a matchup\'s, and streams the competition\'s only when asked', async () => {
    t.clock.set(start);
    await t.import(smallDataset());
    await t.import(competitionsDataset());
    const { apiKey } = await t.client({ tier: 'enterprise' });
    client = t.as({ apiKey });
    await addEndpoint(t.database.db, 'ep_matchups', ['odds.drop']);
    await addEndpoint(t.database.db, 'ep_both', ['odds.drop'], { filters: { event_kinds: ['matchup', 'competition'] } });
    await addEndpoint(t.database.db, 'ep_competitions', ['odds.drop'], { filters: { event_kinds: ['competition'] } });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { 'x-api-key': apiKey };
    const streams = [await openStream(`${url}/v1/stream/odds?types=drop`, headers), await openStream(`${url}/v1/stream/odds?types=drop&event_kinds=matchup,competition`, headers)];
    // Every price an hour old: a drop is against the price two minutes before.
    t.clock.set(start + 3_600_000);
    // 6 → 5 and 1.8 → 1.5: each a drop of 16.7%.
    await t.import({ price_updates: [{ odds_id: 600_001, price_decimal: 5 }, { odds_id: 1, price_decimal: 1.5 }] });
    await t.ctx.oddsMoves?.run();
    const streamed = [];
    for (const stream of streams) {
      streamed.push((await drain(stream, 800)).map((e) => (JSON.parse(e.data) as { event_id: number }).event_id).sort());
      stream.close();
    }
    // The stream, as the list: a competition's drop only when asked for.
    expect(streamed).toEqual([[100], [100, TOURNAMENT]]);
    await t.ctx.webhookFormer.run();
    await t.ctx.signals.run();
    const all = await t.database.db.selectFrom('odds_moves').select('event_id').execute();
    expect(new Set(all.map((m) => Number(m.event_id)))).toEqual(new Set([100, TOURNAMENT]));
  });

  it('lists a competition\'s moves only when event_kinds asks for them', async () => {
    const events = async (body: Record<string, unknown>) =>
      (await client.page<{ event_id: number }>('/v1/odds/moves', { page_size: 100, ...body })).results.map((m) => m.event_id);
    expect(await events({})).toEqual([100]);
    expect(await events({ event_kinds: ['matchup'] })).toEqual([100]);
    expect((await events({ event_kinds: ['matchup', 'competition'] })).sort()).toEqual([100, TOURNAMENT]);
    expect(await events({ event_kinds: ['competition'] })).toEqual([TOURNAMENT]);
    expect(await events({ event_ids: [TOURNAMENT] })).toEqual([]);
  });

  it('tells odds.drop of a competition only to an endpoint whose filters ask for competitions', async () => {
    const told = async (endpoint: string) =>
      (await deliveries(t.database.db, endpoint)).flatMap((d) => ((d.data.moves ?? []) as Array<{ event_id: number }>).map((m) => m.event_id)).sort();
    expect(await told('ep_matchups')).toEqual([100]);
    expect(await told('ep_both')).toEqual([100, TOURNAMENT]);
    expect(await told('ep_competitions')).toEqual([TOURNAMENT]);
  });

  it('lists and sums a competition\'s signals only when event_kinds asks for them', async () => {
    const dates = { start_date: '2030-01-01', end_date: '2030-01-10' };
    const events = async (body: Record<string, unknown>) =>
      [...new Set((await client.page<{ event_id: number }>('/v1/signals', { ...dates, page_size: 100, ...body })).results.map((s) => s.event_id))].sort();
    const matchups = await events({});
    expect(matchups).toContain(100);
    expect(matchups).not.toContain(TOURNAMENT);
    expect(await events({ event_kinds: ['matchup'] })).toEqual(matchups);
    expect(await events({ event_kinds: ['matchup', 'competition'] })).toEqual([...matchups, TOURNAMENT].sort());
    expect(await events({ event_kinds: ['competition'] })).toEqual([TOURNAMENT]);
    const count = async (body: Record<string, unknown>) => (await client.ok<{ overall: { count: number } }>('/v1/signals/performance', { ...dates, ...body })).overall.count;
    const both = await count({ event_kinds: ['matchup', 'competition'] });
    expect(await count({})).toBe(await count({ event_kinds: ['matchup'] }));
    expect(await count({})).toBeLessThan(both);
    expect(await count({})).toBe(both - (await count({ event_kinds: ['competition'] })));
  });

  it('values a competition\'s price against the close only when event_kinds asks for it', async () => {
    const selection = async (oddsId: number) =>
      Number((await t.database.db.selectFrom('odds').select('selection_id').where('id', '=', oddsId).executeTakeFirstOrThrow()).selection_id);
    t.clock.set(Date.parse('2030-01-06T00:00:00Z'));
    const prices = [{ event_betting_market_position_id: await selection(600_001), operator_id: 1, price: 7 }];
    const reason = async (body: Record<string, unknown>) => (await client.ok<{ results: Array<{ reason: string | null; closing_price: number | null }> }>('/v1/results/clv', { prices, ...body })).results[0];
    expect(await reason({})).toMatchObject({ reason: 'unknown_selection', closing_price: null });
    expect(await reason({ event_kinds: ['matchup'] })).toMatchObject({ reason: 'unknown_selection' });
    expect(await reason({ event_kinds: ['competition'] })).toMatchObject({ closing_price: 5 });
  });
});
