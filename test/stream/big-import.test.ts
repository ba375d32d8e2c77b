import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { eventually } from '../helpers/node-process.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { type Change, historyDataset, odds } from '../history/fixture.js';

/**
 * One import of this many new odds: this many changes, about 10 MB of events, six times the
 * megabyte that once ended a stream as slow_consumer (about 5,000 changes).
 */
const CHANGES = 30_000;

describe.each(DIALECTS)('a big import followed live (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.import(historyDataset(t.clock.now()));
    ({ apiKey } = await t.client({ tier: 'enterprise' }));
  });
  afterAll(async () => t.close());

  it('readers of every change that fall behind during the import catch up on their one connection, every change in order', async () => {
    const big = Array.from({ length: CHANGES }, (_, i) => odds(1000 + i, i % 2 === 0 ? 100 : 200, 1 + (i % 2), 1, `p${i}`, 1.5));
    const headers = { 'x-api-key': apiKey };
    const allOrEnd = (s: SseStream) => async () => s.events.length >= CHANGES || s.events.some((e) => e.event === 'end');
    const expectEveryChange = async (s: SseStream) => {
      expect(await eventually(allOrEnd(s), 60_000, 100)).toBe(true);
      expect(s.events.filter((e) => e.event === 'end')).toEqual([]);
      const changes = s.events.map((e) => JSON.parse(e.data) as Change);
      expect(changes.map((c) => c.odds_id)).toEqual(big.map((o) => o.id));
      // Ids rise by one: exactly the import's changes, none twice, none skipped.
      expect(changes.every((c, i) => i === 0 || c.id === (changes[i - 1]?.id ?? 0) + 1)).toBe(true);
      // Nothing asked it to reconnect: the one retry is the one every stream starts with.
      expect(s.retries).toEqual([2000]);
      s.close();
      return changes;
    };
    // One reader reads all along; the other takes nothing until the first is done (or ended): by
    // then the server has read the whole import for it, far more than its socket holds. Then it
    // reads as fast as it can.
    const along = await openStream(`${url}/v1/stream/odds`, headers);
    const behind = await openStream(`${url}/v1/stream/odds`, headers, { readAfter: eventually(allOrEnd(along), 60_000, 100) });
    expect([along.status, behind.status]).toEqual([200, 200]);
    await t.import({ odds: big });
    const [first] = await expectEveryChange(along);
    await expectEveryChange(behind);

    // A reader that was away for the whole import gets it all on its one new connection.
    const back = await openStream(`${url}/v1/stream/odds`, { ...headers, 'last-event-id': String((first?.id ?? 1) - 1) });
    await expectEveryChange(back);
  }, 90_000);
});
