import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { eventually } from '../helpers/node-process.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { type Change, historyDataset, odds } from '../history/fixture.js';

/** More streams than the hub hands a read to in one turn of the event loop (100). */
const CLIENTS = 3;
const PER_CLIENT = 50;
const IMPORTS = 6;
const PER_IMPORT = 30;

describe.each(DIALECTS)('a node with more streams than one turn of the fan-out takes (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  beforeAll(async () => {
    t = await harness({ dialect });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.import(historyDataset(t.clock.now()));
  });
  afterAll(async () => t.close());

  it('imports one after the other reach every stream whole and in order, each stream only what it follows', async () => {
    const keys = await Promise.all(Array.from({ length: CLIENTS }, async () => (await t.client({ tier: 'enterprise' })).apiKey));
    // Of each client's streams, one in five follows event 200 only; the others every change.
    const streams: Array<{ s: SseStream; eventId?: number }> = [];
    for (const apiKey of keys) {
      const opened = await Promise.all(
        Array.from({ length: PER_CLIENT }, async (_, i) => {
          const eventId = i % 5 === 0 ? 200 : undefined;
          const s = await openStream(`${url}/v1/stream/odds${eventId === undefined ? '' : `?event_ids=${eventId}`}`, { 'x-api-key': apiKey });
          return { s, eventId };
        }),
      );
      streams.push(...opened);
    }
    expect(streams.map(({ s }) => s.status)).toEqual(Array(CLIENTS * PER_CLIENT).fill(200));

    const imports = Array.from({ length: IMPORTS }, (_, n) =>
      Array.from({ length: PER_IMPORT }, (_, i) => odds(10_000 + n * PER_IMPORT + i, [100, 200, 300][i % 3] ?? 100, 1, 1, `p${n}-${i}`, 1.5)),
    );
    // Sent together: the node reads the next while it is still fanning out the one before.
    await Promise.all(imports.map((batch) => t.import({ odds: batch })));
    const all = imports.flat();
    const expected = (eventId: number | undefined) => all.filter((o) => eventId === undefined || o.event_id === eventId).length;
    const received = async () => streams.every(({ s, eventId }) => s.events.length >= expected(eventId));
    expect(await eventually(received, 30_000, 50)).toBe(true);

    const orderOf = (s: SseStream) => s.events.map((e) => JSON.parse(e.data) as Change);
    const every = orderOf(streams.find(({ eventId }) => eventId === undefined)?.s ?? expect.fail("no stream of every change"));
    // The imports may commit in any order; each stream gets the changes in the order of their ids.
    expect(every.map((c) => c.id)).toEqual([...every.map((c) => c.id)].sort((a, b) => a - b));
    expect(new Set(every.map((c) => c.odds_id))).toEqual(new Set(all.map((o) => o.id)));
    for (const { s, eventId } of streams) {
      const changes = orderOf(s);
      expect(s.events.every((e) => e.event === 'odds')).toBe(true);
      expect(changes).toEqual(every.filter((c) => eventId === undefined || c.event_id === eventId));
      s.close();
    }
  }, 60_000);
});
