import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { openStream } from '../helpers/sse.js';
import { type Change, clientsOfEachTier, historyDataset } from '../history/fixture.js';

/** One edit of an odds row in an import: its price moves, its status or line changes, or it is sent as it is (no change). */
type Edit = { oddsId: number; kind: 'price' | 'status' | 'line' | 'same'; step: number; viaUpdate: boolean };

const STATUSES = ['open', 'suspended', 'closed'] as const;
/** The stream's filters, each with an odds row it follows: its move after the stream opens marks the end of the replay. */
const FILTERS = [
  { query: '', sentinel: 1 },
  { query: 'event_ids=100', sentinel: 2 },
  { query: 'league_ids=11', sentinel: 7 },
  { query: 'event_ids=200&league_ids=11', sentinel: 5 },
] as const;

const edit = fc.record({
  oddsId: fc.integer({ min: 1, max: 7 }),
  kind: fc.constantFrom('price', 'status', 'line', 'same'),
  step: fc.integer({ min: 1, max: 40 }),
  viaUpdate: fc.boolean(),
}) satisfies fc.Arbitrary<Edit>;
/** Imports of up to four edits, each row at most once per import (as the import asks). */
const imports = fc.array(fc.uniqueArray(edit, { minLength: 1, maxLength: 4, selector: (e) => e.oddsId }), { minLength: 1, maxLength: 5 });

describe.each(DIALECTS)('the change cursor from an id equals what the odds stream replays from it (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  let rows: Map<number, Record<string, unknown> & { price_decimal: number; status?: string; line?: number | null }>;
  beforeAll(async () => {
    t = await harness({ dialect, env: { STREAM_HEARTBEAT_MS: '200' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const dataset = historyDataset(t.clock.now());
    await t.import(dataset);
    rows = new Map(dataset.odds.map((o) => [o.id, { ...o, status: 'open' }]));
    // Enterprise: a stream per run, well within its cap while closed ones are let go.
    apiKey = (await clientsOfEachTier(t)).enterprise;
  }, 120_000);
  afterAll(async () => t.close());

  /** Applies one import's edits to the rows as the test knows them, and imports them: whole rows, or price updates. */
  const apply = async (edits: readonly Edit[]) => {
    const odds: unknown[] = [];
    const updates: unknown[] = [];
    for (const e of edits) {
      const row = rows.get(e.oddsId);
      if (row === undefined) continue;
      if (e.kind === 'price') row.price_decimal = Math.round((row.price_decimal + e.step / 100) * 100) / 100;
      if (e.kind === 'status') row.status = STATUSES[(STATUSES.indexOf(row.status as (typeof STATUSES)[number]) + 1 + (e.step % 2)) % 3];
      if (e.kind === 'line' && row.line !== undefined) row.line = 200 + e.step / 2;
      // A price update changes price and status only: a line change goes as the whole row.
      if (e.viaUpdate && e.kind !== 'line') updates.push({ odds_id: e.oddsId, price_decimal: row.price_decimal, status: row.status });
      else odds.push({ ...row });
    }
    await t.import({ odds, price_updates: updates });
  };
  const changesAfter = async (after: number, query: string, limit: number): Promise<Change[]> => {
    const all: Change[] = [];
    for (let cursor = after; ; ) {
      const res = await t.as({ apiKey }).get<{ results: Change[]; next_after: number }>(`/v1/odds/changes?after=${cursor}&limit=${limit}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      if (page.results.length === 0) return all;
      all.push(...page.results);
      cursor = page.next_after;
    }
  };
  const newest = async () => (await changesAfter(0, '', 1000)).at(-1)?.id ?? 0;

  it('over random imports (prices, statuses, lines, no-ops, whole rows and price updates), any id, filter and page size', async () => {
    await fc.assert(
      fc.asyncProperty(imports, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.constantFrom(...FILTERS), fc.integer({ min: 1, max: 4 }), async (batches, pick, filter, limit) => {
        for (const edits of batches) await apply(edits);
        const issued = await newest();
        const from = Math.floor(pick * (issued + 1));
        const stream = await openStream(`${url}/v1/stream/odds?${filter.query}`, { 'x-api-key': apiKey, 'last-event-id': String(from) });
        expect(stream.status, stream.error).toBe(200);
        try {
          // A change the stream follows, made after it opened: the replay is everything before it.
          await apply([{ oddsId: filter.sentinel, kind: 'price', step: 1, viaUpdate: false }]);
          const streamed: Change[] = [];
          for (;;) {
            const event = await stream.next();
            const change = JSON.parse(event.data) as Change;
            expect(event.id).toBe(String(change.id));
            streamed.push(change);
            if (change.id > issued && change.odds_id === filter.sentinel) break;
          }
          expect(await changesAfter(from, filter.query, limit)).toEqual(streamed);
        } finally {
          stream.close();
        }
      }),
      { numRuns: 15 },
    );
  }, 180_000);
});
