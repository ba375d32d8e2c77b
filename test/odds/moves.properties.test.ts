import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMovesWork, isShortening, type MoveChange, movesOf, type MoveThresholds } from '../../src/modules/odds/index.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';

/**
 * The detection of steam moves and drops reads, of each touched selection's history, only the
 * changes around the batch's instants, not every change of the window (a busy row has thousands).
 * For random sequences of imports (each price with its own `updated_at`, earlier ones landing late
 * included), the moves stored equal those the detection finds from every change of the window,
 * worked out here from the whole history as the history endpoint lists it: the same answer from
 * a bounded read.
 */

const BASE = Date.parse('2026-12-01T12:00:00Z');
/** The defaults (MOVES_*), with a 60 s window so that the random instants fall both in and out of it. */
const THRESHOLDS: MoveThresholds = { minBooks: 3, minMove: 2, minDrop: 10, windowSeconds: 60 };
const BOOKS = [1, 2, 3, 4];

interface Change {
  id: number;
  odds_id: number;
  operator_id: number;
  changed_at: string;
  price_decimal: { from: number | null; to: number };
  line: { from: number | null; to: number | null };
  status: { from: string | null; to: string };
}
interface Move {
  type: 'steam' | 'drop';
  history_id: number;
  operator_ids: number[];
  from_price: number;
  to_price: number;
  size: number;
  books: Array<{ operator_id: number; points: number; percent: number; since: string }>;
}

/** Two selections (each side of one market), so that one batch touches either or both, at instants of its own. */
const POSITIONS = ['home', 'away'] as const;
type Position = (typeof POSITIONS)[number];
const quote = fc.record({
  book: fc.constantFrom(...BOOKS),
  position: fc.constantFrom(...POSITIONS),
  price: fc.constantFrom(2.7, 2.5, 2.4, 2.3, 2.2, 2.0),
  second: fc.integer({ min: 0, max: 200 }),
});
const imports = fc.array(fc.uniqueArray(quote, { selector: (q) => `${q.book}|${q.position}`, minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 8 });
/**
 * Each run is an event with 2 to 8 imports and about 3 moves found in them (309 in 100 runs): 50
 * runs compare about 150 moves per property and database, with a new seed on every run of the
 * suite; 100 runs made nearly all of the file's 50 s in a run of the whole suite on two cores.
 */
const RUNS = { numRuns: 50 };
type Quote = { book: number; position: Position; price: number; second: number };

const changeOf = (c: Change): MoveChange => ({
  id: c.id,
  odds_id: c.odds_id,
  changed_at: Date.parse(c.changed_at),
  from: c.price_decimal.from === null || c.status.from === null ? null : { price: c.price_decimal.from, line: c.line.from, open: c.status.from === 'open' },
  to: { price: c.price_decimal.to, line: c.line.to, open: c.status.to === 'open' },
});

describe.each(DIALECTS)('steam moves and drops from a bounded read of the history (%s)', (dialect) => {
  let t: Harness;
  let apiKey: string;
  let event = 500;
  beforeAll(async () => {
    t = await harness({ dialect, env: { MOVES_WINDOW_S: String(THRESHOLDS.windowSeconds), TIER_LIMITS: '{"pro":{"per_minute":null,"per_day":null}}' } });
    t.clock.set(BASE + 86_400_000);
    await t.import({
      sports: [{ id: 1, key: 'basketball', name: 'Basketball' }],
      leagues: [{ id: 10, key: 'nba', name: 'NBA', sport_id: 1 }],
      teams: [
        { id: 1000, key: 'celtics', name: 'Boston Celtics', league_id: 10 },
        { id: 1001, key: 'knicks', name: 'New York Knicks', league_id: 10 },
      ],
      operators: BOOKS.map((id) => ({ id, key: `book${id}`, name: `Book ${id}` })),
      betting_markets: [{ id: 1, key: 'moneyline', name: 'Moneyline', category: 'main', entity_type: 'team' }],
    });
    ({ apiKey } = await t.client({ tier: 'pro' }));
  });
  afterAll(async () => t.close());

  /**
   * An event with each book's price on both sides at 2.5, then `batches` imported one after the
   * other (`detect` runs after each import when asked): the whole history, the newest change
   * after the opening import and after each one, and the odds rows.
   */
  async function recordImports(batches: readonly Quote[][], detect: () => Promise<void>): Promise<{ event: number; all: Change[]; lastIds: number[]; rows: Row[] }> {
    event += 1;
    const rows = POSITIONS.flatMap((position, side) => BOOKS.map((book) => ({ id: event * 100 + side * 10 + book, book, position })));
    const idOf = (book: number, position: Position) => rows.find((r) => r.book === book && r.position === position)?.id ?? 0;
    const price = (q: Quote) => ({
      id: idOf(q.book, q.position),
      event_id: event,
      operator_id: q.book,
      betting_market_id: 1,
      position: q.position,
      price_decimal: q.price,
      updated_at: new Date(BASE + q.second * 1_000).toISOString(),
    });
    await t.import({
      events: [{ id: event, league_id: 10, start_time: new Date(BASE + 86_400_000 * 2).toISOString(), home_team_id: 1001, away_team_id: 1000 }],
      odds: rows.map((r) => price({ book: r.book, position: r.position, price: 2.5, second: 0 })),
    });
    await detect();
    // How many changes each import records: one per price that differs from the one stored.
    const stored = new Map(rows.map((r) => [r.id, 2.5]));
    const recorded = [rows.length];
    for (const batch of batches) {
      await t.import({ odds: batch.map(price) });
      await detect();
      recorded.push(batch.filter((q) => stored.get(idOf(q.book, q.position)) !== q.price).length);
      for (const q of batch) stored.set(idOf(q.book, q.position), q.price);
    }
    const all = (await history(event)).sort((a, b) => a.id - b.id);
    const lastIds = recorded.map((_, i) => all[recorded.slice(0, i + 1).reduce((sum, n) => sum + n, 0) - 1]?.id ?? 0);
    return { event, all, lastIds, rows };
  }

  it('equal those found from every change of the window, for random imports', async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(imports, async (batches) => {
        const { event, all, lastIds, rows } = await recordImports(batches, async () => t.ctx.oddsMoves?.run());
        const expected = expectedMoves(all, lastIds, rows);
        const moves = (await t.as({ apiKey }).page<Move>('/v1/odds/moves', { event_ids: [event], page_size: 100 })).results;
        expect(moves.map(shown).sort(byHistoryId)).toEqual(expected.sort(byHistoryId));
        found += moves.length;
      }),
      RUNS,
    );
    // The runs found moves to compare, not only their absence.
    expect(found).toBeGreaterThan(20);
  }, 120_000);

  /**
   * A detection that runs behind the feed finds changes recorded after its batch in the history:
   * every import is recorded first, then each import's changes are detected in turn, as a
   * processor that fell behind takes them.
   */
  it('equal those found from every change of the window when later imports are recorded before the detection runs', async () => {
    const work = createMovesWork({ clock: t.clock, changes: t.ctx.changes, thresholds: THRESHOLDS });
    let found = 0;
    await fc.assert(
      fc.asyncProperty(imports, async (batches) => {
        const { event, all, lastIds, rows } = await recordImports(batches, async () => {});
        const expected = expectedMoves(all, lastIds, rows);
        const detected: Shown[] = [];
        for (const [i, lastId] of lastIds.entries()) {
          const batch = all.filter((c) => c.id > (lastIds[i - 1] ?? 0) && c.id <= lastId);
          const made = await work.compute(t.database.db, batch.map((c) => ({ item: { ...c, event_id: event, betting_market_id: 1 }, leagueId: 10 })));
          detected.push(...made.map((m) => ({ type: m.kind, history_id: m.history_id, operator_ids: m.operator_ids, books: m.books.map((b): [number, number, number] => [b.operator_id, b.points, b.since]) })));
        }
        expect(detected.sort(byHistoryId)).toEqual(expected.sort(byHistoryId));
        found += detected.length;
      }),
      RUNS,
    );
    expect(found).toBeGreaterThan(20);
  }, 120_000);

  async function history(eventId: number): Promise<Change[]> {
    return (await t.as({ apiKey }).page<Change>('/v1/odds/history-by-event', { event_id: eventId, page_size: 100 })).results;
  }
});

type Shown = Pick<Move, 'type' | 'history_id' | 'operator_ids'> & { books: Array<[number, number, number]> };
const byHistoryId = (a: Shown, b: Shown) => a.history_id - b.history_id || a.type.localeCompare(b.type);
const shown = (move: Move): Shown => ({
  type: move.type,
  history_id: move.history_id,
  operator_ids: move.operator_ids,
  books: move.books.map((b) => [b.operator_id, b.points, Date.parse(b.since)]),
});

/**
 * The moves each import's changes make (`lastIds`: the newest change after the opening import, then after each one), found as the detection did before it read only the
 * boundaries: the rows as the import left them, and every change of the selection's rows recorded
 * up to the import and at or after the batch's earliest window start.
 */
interface Row {
  id: number;
  book: number;
  position: Position;
}

function expectedMoves(all: readonly Change[], lastIds: readonly number[], oddsRows: readonly Row[]): Shown[] {
  const out: Shown[] = [];
  const [opening = 0, ...after] = lastIds;
  let previous = opening;
  for (const lastId of after) {
    const known = all.filter((c) => c.id <= lastId);
    const batch = known.filter((c) => c.id > previous).map(changeOf);
    previous = lastId;
    const shortening = batch.filter(isShortening);
    if (shortening.length === 0) continue;
    const since = Math.min(...shortening.map((c) => c.changed_at)) - THRESHOLDS.windowSeconds * 1_000;
    const changes = new Map<number, MoveChange[]>();
    for (const change of known.map(changeOf).filter((c) => c.changed_at >= since).sort((a, b) => a.changed_at - b.changed_at || a.id - b.id)) {
      changes.set(change.odds_id, [...(changes.get(change.odds_id) ?? []), change]);
    }
    const rows = oddsRows.map(({ id, book, position }) => {
      const last = known.filter((c) => c.odds_id === id).at(-1);
      return {
        id,
        event_id: 0,
        betting_market_id: 1,
        event_period_id: null,
        player_id: null,
        position,
        line: null,
        is_main: true,
        operator: { id: book },
        price: last?.price_decimal.to ?? 2.5,
        open: true,
        selection_id: null,
      };
    });
    for (const change of shortening) {
      const own = rows.find((r) => r.id === change.odds_id);
      if (own === undefined) continue;
      // The selection: the rows of the change's own side.
      for (const move of movesOf(change, own, { rows: rows.filter((r) => r.position === own.position), changes }, THRESHOLDS)) {
        out.push({ type: move.kind, history_id: move.history_id, operator_ids: move.books.map((b) => b.operator_id), books: move.books.map((b) => [b.operator_id, b.points, b.since]) });
      }
    }
  }
  return out;
}
