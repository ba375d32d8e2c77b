import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, type Harness, harness } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';

/**
 * as_of against the history up to the instant and nothing after: for random sequences of imports
 * (each price with its own `updated_at`, earlier ones landing late included) and random instants
 * T, the odds of an event, the board and the edges with `as_of=T` equal those of a second
 * database into which only each row's state at T was imported, worked out here from the imports
 * as the history records them (an entry when the imported quote differs from the last imported
 * one; at T, the entry with the latest changed_at at or before T, the later recorded on a tie).
 */

const MINUTE = 60_000;
const SLOTS = [0, 1].flatMap((event) =>
  [1, 2, 3].flatMap((operator) =>
    ([[1, 'home'], [1, 'away'], [2, 'over'], [2, 'under']] as const).map(([market, position]) => ({ event, operator, market, position })),
  ),
);

interface Quote {
  price: number;
  line: number | null;
  status: string;
}
interface Priced extends Quote {
  slot: number;
  minute: number;
}
interface Entry extends Quote {
  odds_id: number;
  changed_at: number;
  seq: number;
}

const priced = fc.record({
  slot: fc.integer({ min: 0, max: SLOTS.length - 1 }),
  minute: fc.integer({ min: 0, max: 120 }),
  price: fc.constantFrom(1.5, 1.8, 1.9, 2, 2.1, 2.5),
  line: fc.constantFrom(220.5, 221.5),
  status: fc.constantFrom('open', 'open', 'open', 'suspended'),
});
const imports = fc.array(fc.uniqueArray(priced, { selector: (p) => p.slot, minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 5 });
const instants = fc.array(fc.record({ minute: fc.integer({ min: -1, max: 121 }), ms: fc.constantFrom(-1, 0, 1) }), { minLength: 1, maxLength: 3 });

/** The reference data both databases share: the fixture's, without its events, odds and flows, and a third book. */
function references(): Record<string, unknown[]> {
  const { events: _events, odds: _odds, flows: _flows, ...rest } = smallDataset();
  return { ...rest, operators: [...rest.operators, { id: 3, key: 'third-book', name: 'Third Book' }] };
}

/** Drops what each database assigns itself (selection ids): everything else must be equal. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'event_betting_market_position_id').map(([key, v]) => [key, comparable(v)]));
}

describe.each(DIALECTS)('as_of equals the history up to the instant (%s)', (dialect) => {
  const main = forSuite(() => harness({ dialect }));
  const reference = forSuite(() => harness({ dialect }));
  let run = 0;
  let oldest = Number.POSITIVE_INFINITY;

  const answers = async (h: Harness, apiKey: string, eventIds: number[], asOf: string | undefined) => {
    const as = h.as({ apiKey });
    const extra = asOf === undefined ? {} : { as_of: asOf };
    const odds = [];
    for (const event_id of eventIds) odds.push(await as.post('/v1/odds/upcoming-odds-by-event', { event_id, page_size: 100, ...extra }));
    const board = await as.post('/v1/odds/board', { event_ids: eventIds, page_size: 100, ...extra });
    const edges = await as.post('/v1/odds/edges', { event_ids: eventIds, min_edge: -100, ...extra });
    return { odds, board, edges };
  };

  it('board, edges and odds as of T are those of the changes up to T, imported alone', async () => {
    await main.import(references());
    await reference.import(references());
    const mainKey = (await main.client({ tier: 'enterprise' })).apiKey;
    const referenceKey = (await reference.client({ tier: 'enterprise' })).apiKey;

    await fc.assert(
      fc.asyncProperty(imports, instants, async (sequence, picks) => {
        run += 1;
        const base = Date.parse('2026-01-01T00:00:00Z') + run * 130 * MINUTE;
        const eventIds = [run * 10 + 1, run * 10 + 2];
        const oddsId = (slot: number) => run * 100 + slot;
        const events = eventIds.map((id) => ({ id, league_id: 10, start_time: '2030-01-05T00:30:00Z', home_team_id: 1000, away_team_id: 1001 }));
        await main.import({ events });
        await reference.import({ events });

        // The imports, and the history they record as worked out here.
        const last = new Map<number, Quote>();
        const entries: Entry[] = [];
        const row = (p: Priced, at: number, quote: Quote) => {
          const slot = SLOTS[p.slot] as (typeof SLOTS)[number];
          return {
            id: oddsId(p.slot), event_id: eventIds[slot.event], operator_id: slot.operator, betting_market_id: slot.market, position: slot.position,
            price_decimal: quote.price, line: quote.line, status: quote.status, updated_at: new Date(at).toISOString(),
          };
        };
        for (const batch of sequence) {
          const odds = batch.map((p) => {
            const quote: Quote = { price: p.price, line: SLOTS[p.slot]?.market === 2 ? p.line : null, status: p.status };
            const at = base + p.minute * MINUTE;
            const before = last.get(oddsId(p.slot));
            if (before === undefined || before.price !== quote.price || before.line !== quote.line || before.status !== quote.status) {
              entries.push({ odds_id: oddsId(p.slot), changed_at: at, seq: entries.length, ...quote });
              oldest = Math.min(oldest, at);
            }
            last.set(oddsId(p.slot), quote);
            return row(p, at, quote);
          });
          await main.import({ odds });
        }

        for (const T of [...new Set(picks.map((p) => base + p.minute * MINUTE + p.ms))].sort((a, b) => a - b)) {
          const asOf = new Date(T).toISOString();
          const past = await answers(main, mainKey, eventIds, asOf);
          if (T < oldest) {
            for (const res of [...past.odds, past.board, past.edges]) expect(res.statusCode, res.body).toBe(422);
            continue;
          }
          // Each row's state at T: its latest entry at or before T; the later recorded on equal instants.
          const states = new Map<number, Entry>();
          for (const entry of entries) {
            if (entry.changed_at > T) continue;
            const held = states.get(entry.odds_id);
            if (held === undefined || entry.changed_at > held.changed_at || (entry.changed_at === held.changed_at && entry.seq > held.seq)) states.set(entry.odds_id, entry);
          }
          // Imported in the order of T: a row with a state at an instant has one at every later one.
          const odds = [...states.values()].map((s) => row({ slot: s.odds_id - run * 100, minute: 0, ...s }, s.changed_at, s));
          if (odds.length > 0) await reference.import({ odds });
          const now = await answers(reference, referenceKey, eventIds, undefined);
          for (const [i, res] of past.odds.entries()) {
            expect(res.statusCode, res.body).toBe(200);
            expect(comparable(res.json()), `odds of event ${eventIds[i]} as of ${asOf}`).toEqual(comparable(now.odds[i]?.json()));
          }
          expect(comparable(past.board.json()), `board as of ${asOf}`).toEqual(comparable(now.board.json()));
          expect(comparable(past.edges.json()), `edges as of ${asOf}`).toEqual(comparable(now.edges.json()));
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
