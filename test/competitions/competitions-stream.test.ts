import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { importDataset } from '../helpers/data.js';
import { type Harness, harness } from '../helpers/harness.js';
import { drain, openStream } from '../helpers/sse.js';
import { smallDataset } from '../import/fixture.js';
import { competitionsDataset } from './golf-fixture.js';

/**
 * The odds stream and the changes after an id leave a competition's price changes out unless
 * `event_kinds` asks for them (docs/api.md#competitions): a client of today reads what it read.
 */
describe.each(DIALECTS)('competitions on the odds stream and the changes (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await importDataset(t, smallDataset());
    await importDataset(t, competitionsDataset());
    ({ apiKey } = await t.client({ tier: 'pro' }));
  });
  afterAll(async () => t.close());

  it('streams a competition\'s price changes only to a stream that asks for them', async () => {
    const matchups = await openStream(`${url}/v1/stream/odds`, { 'x-api-key': apiKey });
    const both = await openStream(`${url}/v1/stream/odds?event_kinds=matchup,competition`, { 'x-api-key': apiKey });
    expect([matchups.status, both.status]).toEqual([200, 200]);
    await importDataset(t, { price_updates: [{ odds_id: 610_001, price_decimal: 2.4 }, { odds_id: 1, price_decimal: 1.85 }] });
    const odds = (events: Array<{ data: string }>) => events.map((e) => (JSON.parse(e.data) as { odds_id: number }).odds_id);
    expect(odds(await drain(matchups, 500))).toEqual([1]);
    expect(odds(await drain(both, 500))).toEqual([610_001, 1]);
    matchups.close();
    both.close();
  });

  it('replays them, and pages the changes after an id, only when asked', async () => {
    const changes = async (query: string) =>
      (await t.as({ apiKey }).ok<{ results: Array<{ odds_id: number; event_id: number }> }>(`/v1/odds/changes?limit=1000${query}`)).results;
    expect((await changes('')).some((c) => c.event_id === 5001 || c.event_id === 5002)).toBe(false);
    expect(new Set((await changes('&event_kinds=competition')).map((c) => c.event_id))).toEqual(new Set([5001, 5002]));
    expect((await changes('&event_kinds=competition')).length).toBeGreaterThan(128);
  });
});
