import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { buildTestApp, DIALECTS, type TestApp } from '../helpers/app.js';
import { type Harness, harness, harnessOf } from '../helpers/harness.js';
import { quietLog } from '../helpers/quiet-log.js';
import { drain, openStream, type SseStream } from '../helpers/sse.js';
import { historyDataset, odds } from '../history/fixture.js';
import { type BoardEvent, type BoardItem, boardSummaries, expectedBoardEvents } from './board-summaries.js';

/** The statement that reads the rows a board change is computed from: one per computation. */
const COMPUTATION = /\("odds"\."event_id", "odds"\."betting_market_id"\) in/;

/**
 * Board events are computed once per import, after its commit, by a history processor whose cursor
 * moves in the transaction that stores them; every node's streams read them (decision 0293).
 */
describe.each(DIALECTS)('board events computed once after the import (%s)', (dialect) => {
  let t: Harness;
  let other: { ctx: AppContext; app: TestApp };
  let urls: string[];
  let apiKey: string;
  let computations = 0;
  let price = 1.5;

  beforeAll(async () => {
    t = await harness({
      dialect,
      env: { STREAM_HEARTBEAT_MS: '200', CHANGE_POLL_MS: '50' },
      onQuery: (text) => {
        if (COMPUTATION.test(text)) computations += 1;
      },
    });
    const ctx = t.otherNode();
    other = { ctx, app: await buildTestApp({ dialect, context: ctx }) };
    await ctx.background.start(quietLog);
    // The signals' middles and the steam detection read a market's rows by the same statement: stopped
    // on both nodes, so that every statement counted is a board computation.
    for (const node of [t.ctx, ctx]) {
      await node.signals.stop();
      await node.oddsMoves?.stop();
    }
    urls = [await t.app.listen({ port: 0, host: '127.0.0.1' }), await other.app.app.listen({ port: 0, host: '127.0.0.1' })];
    const d = historyDataset(t.clock.now());
    d.odds.push(odds(8, 200, 1, 1, 'away', 2.5), odds(9, 200, 2, 1, 'home', 1.55));
    await t.import(d);
    ({ apiKey } = await t.client());
  });
  afterAll(async () => {
    await other.app.close();
    await other.ctx.background.stop();
    await t.close();
  });

  const boardStreams = () => Promise.all(urls.map((url) => openStream(`${url}/v1/stream/odds?event_ids=200&types=odds,board`, { 'x-api-key': apiKey })));
  const board = () => boardSummaries((body) => t.as({ apiKey }).page<BoardItem>('/v1/odds/board', body), [200]);
  const boardEvents = async (stream: SseStream, quietMs: number) =>
    (await drain(stream, quietMs))
      .filter((e) => e.event === 'board')
      .map((e) => JSON.parse(e.data) as BoardEvent)
      .sort((a, b) => a.position.localeCompare(b.position));
  const stored = async () => Number((await sql<{ n: number }>`select count(*) as n from board_changes`.execute(t.database.db)).rows[0]?.n ?? 0);
  const cursor = async () => Number((await sql<{ last_id: number }>`select last_id from feed_cursors where name = 'board events'`.execute(t.database.db)).rows[0]?.last_id ?? 0);
  const newestChange = async () => Number((await sql<{ id: number }>`select max(id) as id from odds_history`.execute(t.database.db)).rows[0]?.id ?? 0);
  const nextPrice = () => {
    price = Math.round((price + 0.05) * 100) / 100;
    return odds(5, 200, 1, 1, 'home', price);
  };

  it.each([0, 1])('an import on node %i: its board changes are computed once, stored once, and both nodes\' streams send them', async (node) => {
    const importer = node === 0 ? t : harnessOf(other.app);
    const streams = await boardStreams();
    const before = await board();
    const [computed, rows] = [computations, await stored()];
    await importer.import({ odds: [nextPrice()] });
    // The board is read on node 0: it reads it as it is once it has seen the import.
    await t.ctx.changes.poll();
    const expected = expectedBoardEvents(before, await board());
    expect(expected.map((e) => e.position)).toEqual(['away', 'home']);
    for (const stream of streams) expect(await boardEvents(stream, 1500)).toEqual(expected);
    expect(computations - computed).toBe(1);
    expect((await stored()) - rows).toBe(1);
    expect(await cursor()).toBe(await newestChange());
    for (const stream of streams) stream.close();
  });

  it('a node that commits an import and stops before its board changes are computed loses none: the next run computes them', async () => {
    // Neither node's processor runs: the importing node "dies" between its commit and the processor.
    await t.ctx.boardEvents.stop();
    await other.ctx.boardEvents.stop();
    const streams = await boardStreams();
    const before = await board();
    const computed = computations;
    await t.import({ odds: [nextPrice()] });
    const expected = expectedBoardEvents(before, await board());
    // The price change streams; its board changes wait in the history, behind the cursor.
    const waiting = await Promise.all(streams.map((stream) => drain(stream, 500)));
    expect(waiting.map((events) => events.map((e) => e.event))).toEqual([['odds'], ['odds']]);
    expect(await cursor()).toBeLessThan(await newestChange());
    expect(computations).toBe(computed);

    // The other node starts (its start-up run), and takes what was left.
    await other.ctx.boardEvents.start(quietLog);
    for (const stream of streams) expect(await boardEvents(stream, 1500)).toEqual(expected);
    expect(computations - computed).toBe(1);
    expect(await cursor()).toBe(await newestChange());
    await t.ctx.boardEvents.start(quietLog);
    for (const stream of streams) stream.close();
  });
});
