import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';
import { addEndpoint, deliveries } from '../webhooks/former-fixture.js';
import { competitionsDataset, TOURNAMENT } from './golf-fixture.js';

/**
 * The steam moves and drops of a competition's odds, as the moves list and the odds.steam and
 * odds.drop webhooks tell them: only when `event_kinds` (the list's body, the endpoint's filters)
 * asks for competitions; a client of today is told of the matchups' moves as before.
 */
describe.each(DIALECTS)('competitions in the moves and their webhooks (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));
  let client: Caller;
  const start = Date.parse('2030-01-04T12:00:00Z');

  it('finds a drop of a competition\'s odds and of a matchup\'s', async () => {
    t.clock.set(start);
    await t.import(smallDataset());
    await t.import(competitionsDataset());
    client = t.as(await t.client({ tier: 'enterprise' }));
    await addEndpoint(t.database.db, 'ep_matchups', ['odds.drop']);
    await addEndpoint(t.database.db, 'ep_both', ['odds.drop'], { filters: { event_kinds: ['matchup', 'competition'] } });
    await addEndpoint(t.database.db, 'ep_competitions', ['odds.drop'], { filters: { event_kinds: ['competition'] } });
    // Every price an hour old: a drop is against the price two minutes before.
    t.clock.set(start + 3_600_000);
    // 6 → 5 and 1.8 → 1.5: each a drop of 16.7%.
    await t.import({ price_updates: [{ odds_id: 600_001, price_decimal: 5 }, { odds_id: 1, price_decimal: 1.5 }] });
    await t.ctx.oddsMoves?.run();
    await t.ctx.webhookFormer.run();
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
});
