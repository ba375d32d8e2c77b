import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayRange } from '../../src/modules/events/index.js';
import { demoCases } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import { expectFigure } from '../helpers/figures.js';
import type { Caller, Harness } from '../helpers/harness.js';
import { expectError, type PageBody } from '../helpers/responses.js';

const URL = '/v1/odds/board';

interface Ref {
  id: number;
  key: string;
  name: string;
}
interface Fair {
  probability: number | null;
  price: number | null;
  hold: number | null;
  reason: string | null;
}
interface BoardItem {
  event_betting_market_position_id: number | null;
  event_id: number;
  betting_market: Ref;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  is_main: boolean;
  line: number | null;
  prices: Array<{ operator: Ref; price: number | string; price_decimal: number; line: number | null; updated_at: string }>;
  best: { price: number | string; price_decimal: number; operators: Ref[] };
  consensus: { price: number | string; price_decimal: number; line: number | null };
  fair: { method: string; consensus: Fair; books: Array<Fair & { operator: Ref }> };
}

interface RawRow {
  id: number;
  event_id: number;
  operator_id: number;
  betting_market_id: number;
  event_period_id: number | null;
  player_id: number | null;
  position: string;
  line: number | null;
  price_decimal: number;
  start_time: number;
}

const keyOf = (i: Pick<BoardItem, 'event_id' | 'event_period_id' | 'player_id' | 'position'> & { market: number }) =>
  `${i.event_id}|${i.market}|${i.event_period_id}|${i.player_id}|${i.position}`;
const itemKey = (i: BoardItem) => keyOf({ ...i, market: i.betting_market.id });
/** Whose outcomes a row prices: its player, else the team a position names before its side (each team's total is a market), else nobody's. */
const subjectOf = (r: { player_id: number | null; position: string }) =>
  r.player_id !== null ? `player ${r.player_id}` : (/^(.+?)\s+(over|under|home|away|draw|yes|no)$/i.exec(r.position.trim())?.[1]?.toLowerCase() ?? '');
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? null : ((s[(s.length - 1) >> 1] ?? 0) + (s[s.length >> 1] ?? 0)) / 2;
};

describe.each(demoCases(0.05))('POST /v1/odds/board on the demo slate ($name)', ({ dialect, now, scale }) => {
  let t: Harness;
  let client: Caller;
  /** The upcoming events of the demo (100 at this scale): the slate a line-shopper loads. */
  let slate: number[];
  let scope: { event_ids: number[] };
  const post = (body: Record<string, unknown>) => client.post(URL, body);
  const page = (body: Record<string, unknown>): Promise<PageBody<BoardItem>> => client.page<BoardItem>(URL, body);
  const all = async (body: Record<string, unknown>, pageSize: number): Promise<BoardItem[]> => {
    const items: BoardItem[] = [];
    for (let p = 1; ; p++) {
      const res = await page({ ...body, page: p, page_size: pageSize });
      items.push(...res.results);
      if (p >= res.total_pages) return items;
    }
  };
  /** The slate's open main-line rows, straight from the database. */
  const rawRows = async (): Promise<RawRow[]> => {
    const rows = await t.ctx.database.db
      .selectFrom('odds')
      .innerJoin('events as e', 'e.id', 'odds.event_id')
      .select(['odds.id', 'odds.event_id', 'odds.operator_id', 'odds.betting_market_id', 'odds.event_period_id', 'odds.player_id', 'odds.position', 'odds.line', 'odds.price_decimal', 'e.start_time'])
      .where('odds.status', '=', 'open')
      .where('odds.is_main', '=', 1)
      .where('odds.event_id', 'in', slate)
      .orderBy('odds.id')
      .execute();
    // A book counts once per selection, with its first row by id (the demo quotes a few twice).
    const seen = new Set<string>();
    const once = rows.filter((r) => {
      const key = `${r.operator_id}|${r.event_id}|${r.betting_market_id}|${r.event_period_id}|${r.player_id}|${r.position}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return once.map((r) => ({
      id: Number(r.id),
      event_id: Number(r.event_id),
      operator_id: Number(r.operator_id),
      betting_market_id: Number(r.betting_market_id),
      event_period_id: r.event_period_id === null ? null : Number(r.event_period_id),
      player_id: r.player_id === null ? null : Number(r.player_id),
      position: r.position,
      line: r.line === null ? null : Number(r.line),
      price_decimal: Number(r.price_decimal),
      start_time: Number(r.start_time),
    }));
  };

  beforeAll(async () => {
    t = await demoHarness({ dialect, now, scale });
    client = t.as(await t.client());
    const events = await t.ctx.database.db.selectFrom('events').select('id').where('status', '=', 'scheduled').where('start_time', '>', t.clock.now()).orderBy('id').limit(100).execute();
    slate = events.map((e) => Number(e.id));
    scope = { event_ids: slate };
  }, 120_000);
  afterAll(async () => t.close());

  it('lists every selection of the slate once, in the documented order, whatever the page size (the paging law)', async () => {
    const rows = await rawRows();
    const first = new Map<string, RawRow>();
    for (const r of rows) {
      const key = keyOf({ ...r, market: r.betting_market_id });
      if (!first.has(key)) first.set(key, r);
    }
    const cmp = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a - b);
    const expected = [...first.values()]
      .sort(
        (a, b) =>
          a.start_time - b.start_time ||
          a.event_id - b.event_id ||
          a.betting_market_id - b.betting_market_id ||
          cmp(a.event_period_id, b.event_period_id) ||
          cmp(a.player_id, b.player_id) ||
          (a.position < b.position ? -1 : a.position > b.position ? 1 : 0),
      )
      .map((r) => keyOf({ ...r, market: r.betting_market_id }));
    expect(expected.length).toBeGreaterThan(100);

    const byHundred = await all(scope, 100);
    expect(byHundred.map(itemKey)).toEqual(expected);
    expect((await all(scope, 37)).map(itemKey)).toEqual(expected);
    const last = await page({ ...scope, page_size: 100 });
    expect(last.total_count).toBe(expected.length);
    expect(last.total_pages).toBe(Math.ceil(expected.length / 100));
    const past = await page({ ...scope, page: last.total_pages + 1, page_size: 100 });
    expect(past.results).toEqual([]);
    expect(past.total_count).toBe(expected.length);
    expectError(await post({ ...scope, page_size: 101 }), 422, 'VALIDATION_ERROR', 'page_size');
  });

  it('best and consensus agree with the rows for every item of the slate; fair prices add up to 1 per market', async () => {
    const rows = await rawRows();
    const items = await all(scope, 100);
    for (const item of items) {
      const own = rows.filter((r) => keyOf({ ...r, market: r.betting_market_id }) === itemKey(item)).sort((a, b) => a.operator_id - b.operator_id);
      expect(item.prices.map((p) => [p.operator.id, p.price_decimal, p.line])).toEqual(own.map((r) => [r.operator_id, r.price_decimal, r.line]));
      const best = Math.max(...own.map((r) => r.price_decimal));
      expect(item.best.price_decimal).toBe(best);
      expect(item.best.operators.map((o) => o.id)).toEqual(own.filter((r) => r.price_decimal === best).map((r) => r.operator_id));
      expectFigure(item.consensus.price_decimal, median(own.map((r) => r.price_decimal)) ?? 0, 'consensus');
      const lines = own.flatMap((r) => (r.line === null ? [] : [r.line]));
      const line = median(lines);
      if (line === null) expect(item.consensus.line).toBeNull();
      else expectFigure(item.consensus.line, line, 'consensus line');
      // Multiplicative: each book's 1/d over the sum of its market's 1/d.
      for (const fair of item.fair.books) {
        const market = rows.filter(
          (r) =>
            r.operator_id === fair.operator.id &&
            r.event_id === item.event_id &&
            r.betting_market_id === item.betting_market.id &&
            r.event_period_id === item.event_period_id &&
            subjectOf(r) === subjectOf(item),
        );
        const positions = new Set(rows.filter((r) => r.event_id === item.event_id && r.betting_market_id === item.betting_market.id && r.event_period_id === item.event_period_id && subjectOf(r) === subjectOf(item)).map((r) => r.position));
        const complete = positions.size >= 2 && [...positions].every((p) => market.some((r) => r.position === p));
        if (!complete) {
          expect(fair).toMatchObject({ probability: null, price: null, reason: 'incomplete_market' });
          continue;
        }
        const sum = market.reduce((s, r) => s + 1 / r.price_decimal, 0);
        const mine = market.find((r) => r.position === item.position);
        expect(fair.reason).toBeNull();
        expectFigure(fair.probability, 1 / (mine?.price_decimal ?? 1) / sum, 'fair probability');
        expectFigure(fair.hold, sum - 1, 'hold');
      }
    }
    expect(items.some((i) => i.fair.books.some((b) => b.reason === 'incomplete_market'))).toBe(true);
    expect(items.some((i) => i.fair.books.some((b) => b.reason === null))).toBe(true);
  });

  it('each item carries the stored selection id of the line most of its books are at', async () => {
    const items = await all(scope, 100);
    const stored = await t.ctx.database.db.selectFrom('odds').select(['id', 'operator_id', 'selection_id', 'line']).where('event_id', 'in', slate).execute();
    const lineOf = new Map(stored.map((r) => [Number(r.selection_id), r.line === null ? null : Number(r.line)]));
    for (const item of items) {
      expect(item.event_betting_market_position_id, itemKey(item)).not.toBeNull();
      const line = lineOf.get(item.event_betting_market_position_id ?? 0);
      const atLine = item.prices.filter((p) => p.line === line).length;
      const counts = new Map<number | null, number>();
      for (const p of item.prices) counts.set(p.line, (counts.get(p.line) ?? 0) + 1);
      expect(atLine, itemKey(item)).toBe(Math.max(...counts.values()));
    }
  });

  it('odds_format, devig and operator_ids shape the items', async () => {
    const [decimal] = (await page({ ...scope, page_size: 1 })).results;
    const [american] = (await page({ ...scope, page_size: 1, odds_format: 'american', devig: 'shin' })).results;
    expect(decimal).toBeDefined();
    expect(typeof american?.best.price).toBe('number');
    expect(Number.isInteger(american?.best.price)).toBe(true);
    expect(american?.best.price_decimal).toBe(decimal?.best.price_decimal);
    expect(american?.fair.method).toBe('shin');
    const book = decimal?.prices[0]?.operator.id ?? 0;
    const narrowed = await all({ ...scope, operator_ids: [book] }, 100);
    expect(narrowed.length).toBeGreaterThan(0);
    for (const item of narrowed) expect(item.prices.map((p) => p.operator.id)).toEqual([book]);
  });

  it('an import that moves one price changes exactly the items of that market', async () => {
    const before = await all(scope, 100);
    const target = before.find((i) => i.prices.length >= 2 && i.fair.books.some((b) => b.reason === null));
    expect(target).toBeDefined();
    if (target === undefined) return;
    const rows = await rawRows();
    const moved = rows.find((r) => keyOf({ ...r, market: r.betting_market_id }) === itemKey(target) && r.operator_id === target.prices[0]?.operator.id);
    expect(moved).toBeDefined();
    const stored = await t.ctx.database.db.selectFrom('odds').selectAll().where('id', '=', moved?.id ?? 0).executeTakeFirstOrThrow();
    const price = Math.round((target.best.price_decimal + 0.5) * 100) / 100;
    await t.import({
      odds: [{
        id: Number(stored.id), event_id: Number(stored.event_id), operator_id: Number(stored.operator_id), betting_market_id: Number(stored.betting_market_id),
        position: stored.position, ...(stored.line === null ? {} : { line: Number(stored.line) }), price_decimal: price,
        ...(stored.player_id === null ? {} : { player_id: Number(stored.player_id) }),
        is_main: Number(stored.is_main) === 1, is_live: Number(stored.is_live) === 1,
      }],
    });
    const after = await all(scope, 100);
    expect(after.map(itemKey)).toEqual(before.map(itemKey));
    const sameMarket = (i: BoardItem) =>
      i.event_id === target.event_id && i.betting_market.id === target.betting_market.id && i.event_period_id === target.event_period_id && subjectOf(i) === subjectOf(target);
    const changed = after.filter((item, n) => JSON.stringify(item) !== JSON.stringify(before[n])).map(itemKey);
    expect(changed).toContain(itemKey(target));
    expect(changed.every((key) => before.some((i) => itemKey(i) === key && sameMarket(i)))).toBe(true);
    const now = after.find((i) => itemKey(i) === itemKey(target));
    expect(now?.best).toMatchObject({ price_decimal: price, operators: [{ id: moved?.operator_id }] });
  });

  it('with include_alt_lines, alternates are items of their own, keyed by line, each book at that line', async () => {
    // The demo quotes alternates only where an event's share of its odds has room (at this scale a
    // marquee game, on some days only): the test adds its own, a point either side of the main
    // total of the first slate event two books quote it at, at each of them, beside the demo's.
    const { db } = t.ctx.database;
    const totals = await db
      .selectFrom('odds')
      .innerJoin('betting_markets as m', 'm.id', 'odds.betting_market_id')
      .selectAll('odds')
      .where('m.key', '=', 'total')
      .where('odds.status', '=', 'open')
      .where('odds.is_main', '=', 1)
      .where('odds.player_id', 'is', null)
      .where('odds.event_period_id', 'is', null)
      .where('odds.event_id', 'in', slate)
      .orderBy('odds.event_id')
      .orderBy('odds.id')
      .execute();
    const booksOf = (event: number) => new Set(totals.filter((r) => r.event_id === event).map((r) => r.operator_id)).size;
    const event = totals.find((r) => booksOf(r.event_id) >= 2)?.event_id;
    expect(event).toBeDefined();
    const main = totals.filter((r) => r.event_id === event);
    const last = await db.selectFrom('odds').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
    let id = Number(last.id);
    const longer = (price: number, factor: number) => Math.max(1.01, Math.round(price * factor * 100) / 100);
    await t.import({
      odds: main.flatMap((r) =>
        [-1, 1].map((step) => ({
          id: ++id, event_id: Number(r.event_id), operator_id: Number(r.operator_id), betting_market_id: Number(r.betting_market_id),
          position: r.position, line: Number(r.line) + step, is_main: false,
          // A point higher is harder for the over and easier for the under.
          price_decimal: longer(Number(r.price_decimal), (r.position === 'over' ? 1.25 : 0.8) ** step),
        })),
      ),
    });

    const stored = await db
      .selectFrom('odds')
      .select(['event_id', 'betting_market_id', 'event_period_id', 'player_id', 'position', 'line', 'operator_id'])
      .where('status', '=', 'open')
      .where('is_main', '=', 0)
      .where('event_id', 'in', slate)
      .execute();
    const booksAt = new Map<string, Set<number>>();
    for (const r of stored) {
      const key = `${keyOf({ event_id: Number(r.event_id), market: Number(r.betting_market_id), event_period_id: r.event_period_id === null ? null : Number(r.event_period_id), player_id: r.player_id === null ? null : Number(r.player_id), position: r.position })}|${Number(r.line)}`;
      booksAt.set(key, (booksAt.get(key) ?? new Set()).add(Number(r.operator_id)));
    }

    const mains = await all(scope, 100);
    const withAlts = await all({ ...scope, include_alt_lines: true }, 100);
    const alternates = withAlts.filter((i) => !i.is_main);
    // Over and under, a point either side at least.
    expect(alternates.length).toBeGreaterThanOrEqual(4);
    expect(withAlts.filter((i) => i.is_main).map(itemKey)).toEqual(mains.map(itemKey));
    const keys = new Set<string>();
    for (const item of alternates) {
      expect(item.line, itemKey(item)).not.toBeNull();
      for (const price of item.prices) expect(price.line).toBe(item.line);
      const key = `${itemKey(item)}|${item.line}`;
      expect(new Set(item.prices.map((p) => p.operator.id)), key).toEqual(booksAt.get(key));
      keys.add(key);
    }
    expect(keys.size).toBe(alternates.length);
    expect(keys).toEqual(new Set(booksAt.keys()));
  });

  it('a day in a time zone, a sport and a league scope the board to their events', async () => {
    const { db } = t.ctx.database;
    const event = await db.selectFrom('events').select(['id', 'start_time', 'sport_id', 'league_id']).where('id', '=', slate[0] ?? 0).executeTakeFirstOrThrow();
    const timezone = 'America/New_York';
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date(Number(event.start_time)));
    const { start, end } = dayRange(date, timezone);
    const expected = await db
      .selectFrom('odds')
      .innerJoin('events as e', 'e.id', 'odds.event_id')
      .select('odds.event_id')
      .distinct()
      .where('e.start_time', '>=', start)
      .where('e.start_time', '<', end)
      .where('e.league_id', '=', Number(event.league_id))
      .where('odds.status', '=', 'open')
      // Of the day, only what can still be bet: live, or scheduled after the current minute.
      .where((eb) => eb.or([eb('e.status', '=', 'live'), eb.and([eb('e.status', '=', 'scheduled'), eb('e.start_time', '>', Math.floor(t.clock.now() / 60_000) * 60_000)])]))
      .execute();
    const items = await all({ event_date: date, timezone, sport_id: Number(event.sport_id), league_id: Number(event.league_id) }, 100);
    expect(new Set(items.map((i) => i.event_id))).toEqual(new Set(expected.map((r) => Number(r.event_id))));
    expect(items.map((i) => i.event_id)).toContain(Number(event.id));
  });

  it('the board is in every tier, and in the odds usage group', async () => {
    const free = t.as(await t.client({ tier: 'free' }));
    const res = await free.post(URL, { ...scope, page_size: 1 });
    expect(res.statusCode, res.body).toBe(200);
  });
});
