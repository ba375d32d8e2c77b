import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
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
 * Line movement reads the whole history up to T, not only the state at T: with `as_of=T` it equals
 * the movement, read at T, of a third database into which the changes up to T alone were imported,
 * in the order of their instants (a change equal to the one before it is then not recorded again,
 * which moves no figure).
 */

const MINUTE = 60_000;
// Each event's moneyline and total, and an alternate total whose line moves as the main one's does.
const SLOTS = [0, 1].flatMap((event) =>
  [1, 2, 3].flatMap((operator) =>
    ([[1, 'home', true], [1, 'away', true], [2, 'over', true], [2, 'under', true], [2, 'over', false], [2, 'under', false]] as const).map(([market, position, main]) => ({
      event, operator, market, position, main,
    })),
  ),
);

interface Quote {
  price: number;
  line: number | null;
  status: string;
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

/** The row an import carries for a slot's quote at an instant, in a database's own ids: its two events, its odds ids from `odds` + slot. */
function rowOf(ids: { events: number[]; odds: number }, slot: number, at: number, quote: Quote) {
  const { event, operator, market, position, main } = SLOTS[slot] as (typeof SLOTS)[number];
  return {
    id: ids.odds + slot, event_id: ids.events[event], operator_id: operator, betting_market_id: market, position, is_main: main,
    price_decimal: quote.price, line: quote.line, status: quote.status, updated_at: new Date(at).toISOString(),
  };
}

const eventsOf = (ids: number[]) => ids.map((id) => ({ id, league_id: 10, start_time: '2030-01-05T00:30:00Z', home_team_id: 1000, away_team_id: 1001 }));

/** Entries in import batches, in their order, a row at most once a batch: a later entry of a row lands after its earlier one. */
function batchesOf(entries: readonly Entry[]): Entry[][] {
  const batches: Entry[][] = [];
  let batch: Entry[] = [];
  for (const entry of entries) {
    if (batch.some((e) => e.odds_id === entry.odds_id)) {
      batches.push(batch);
      batch = [];
    }
    batch.push(entry);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Drops what each database assigns itself (selection ids): everything else must be equal. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'event_betting_market_position_id').map(([key, v]) => [key, comparable(v)]));
}

/** A movement page made comparable across databases whose events have other ids: each event named by its place among `eventIds`. */
function comparableMovement(page: { results: Array<{ event_id: number }> }, eventIds: number[]): unknown {
  return comparable({ ...page, results: page.results.map((item) => ({ ...item, event_id: eventIds.indexOf(item.event_id) })) });
}

describe.each(DIALECTS)('as_of equals the history up to the instant (%s)', (dialect) => {
  const main = forSuite(() => harness({ dialect }));
  const reference = forSuite(() => harness({ dialect }));
  // Its clock is set to each T in turn, which only moves forward: it starts before the first.
  const replay = forSuite(() => harness({ dialect, clock: manualClock(Date.parse('2026-01-01T00:00:00Z')) }));
  let run = 0;
  let replays = 0;
  let oldest = Number.POSITIVE_INFINITY;

  const answers = async (h: Harness, apiKey: string, eventIds: number[], asOf: string | undefined) => {
    const as = h.as({ apiKey });
    const extra = asOf === undefined ? {} : { as_of: asOf };
    const odds = [];
    for (const event_id of eventIds) odds.push(await as.post('/v1/odds/upcoming-odds-by-event', { event_id, page_size: 100, ...extra }));
    const board = await as.post('/v1/odds/board', { event_ids: eventIds, page_size: 100, ...extra });
    const edges = await as.post('/v1/odds/edges', { event_ids: eventIds, min_edge: -100, ...extra });
    return { odds, board, edges, movement: await movement(h, apiKey, eventIds, asOf) };
  };
  const movement = (h: Harness, apiKey: string, eventIds: number[], asOf: string | undefined) =>
    h.as({ apiKey }).post<{ results: Array<{ event_id: number }> }>('/v1/odds/movement', { event_ids: eventIds, include_alt_lines: true, page_size: 100, ...(asOf === undefined ? {} : { as_of: asOf }) });

  it('board, edges, odds and movement as of T are those of the changes up to T, imported alone', async () => {
    await main.import(references());
    await reference.import(references());
    await replay.import(references());
    const mainKey = (await main.client({ tier: 'enterprise' })).apiKey;
    const referenceKey = (await reference.client({ tier: 'enterprise' })).apiKey;
    const replayKey = (await replay.client({ tier: 'enterprise' })).apiKey;

    await fc.assert(
      fc.asyncProperty(imports, instants, async (sequence, picks) => {
        run += 1;
        const base = Date.parse('2026-01-01T00:00:00Z') + run * 130 * MINUTE;
        const ids = { events: [run * 10 + 1, run * 10 + 2], odds: run * 100 };
        const eventIds = ids.events;
        const oddsId = (slot: number) => ids.odds + slot;
        await main.import({ events: eventsOf(eventIds) });
        await reference.import({ events: eventsOf(eventIds) });

        // The imports, and the history they record as worked out here.
        const last = new Map<number, Quote>();
        const entries: Entry[] = [];
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
            return rowOf(ids, p.slot, at, quote);
          });
          await main.import({ odds });
        }

        for (const T of [...new Set(picks.map((p) => base + p.minute * MINUTE + p.ms))].sort((a, b) => a - b)) {
          const asOf = new Date(T).toISOString();
          const past = await answers(main, mainKey, eventIds, asOf);
          if (T < oldest) {
            for (const res of [...past.odds, past.board, past.edges, past.movement]) expect(res.statusCode, res.body).toBe(422);
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
          const odds = [...states.values()].map((s) => rowOf(ids, s.odds_id - ids.odds, s.changed_at, s));
          if (odds.length > 0) await reference.import({ odds });
          const now = await answers(reference, referenceKey, eventIds, undefined);
          for (const [i, res] of past.odds.entries()) {
            expect(res.statusCode, res.body).toBe(200);
            expect(comparable(res.json()), `odds of event ${eventIds[i]} as of ${asOf}`).toEqual(comparable(now.odds[i]?.json()));
          }
          expect(comparable(past.board.json()), `board as of ${asOf}`).toEqual(comparable(now.board.json()));
          expect(comparable(past.edges.json()), `edges as of ${asOf}`).toEqual(comparable(now.edges.json()));

          // The movement: the changes up to T alone, in the order of their instants, into a fresh pair of events, read at T.
          replays += 1;
          const fresh = { events: [replays * 10 + 1, replays * 10 + 2], odds: replays * 100 };
          await replay.import({ events: eventsOf(fresh.events) });
          const upToT = entries.filter((e) => e.changed_at <= T).sort((a, b) => a.changed_at - b.changed_at || a.seq - b.seq);
          for (const batch of batchesOf(upToT)) await replay.import({ odds: batch.map((e) => rowOf(fresh, e.odds_id - ids.odds, e.changed_at, e)) });
          replay.clock.set(T);
          const replayed = await movement(replay, replayKey, fresh.events, undefined);
          expect(past.movement.statusCode, past.movement.body).toBe(200);
          expect(comparableMovement(past.movement.json(), eventIds), `movement as of ${asOf}`).toEqual(comparableMovement(replayed.json(), fresh.events));
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
