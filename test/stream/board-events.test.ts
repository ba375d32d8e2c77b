import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { decimalsOf } from '../helpers/figures.js';
import { type Harness, harness } from '../helpers/harness.js';
import { drain, openStream } from '../helpers/sse.js';
import { historyDataset, odds } from '../history/fixture.js';
import { type BoardEvent, type BoardItem, boardSummaries, expectedBoardEvents } from './board-summaries.js';

/**
 * Event 200's moneyline priced whole by two books (book 1 home 1.5 / away 2.5, book 2 home 1.55 /
 * away 2.6), so that one price moved changes the best, the consensus and the fair prices of some
 * of its selections and not others.
 */
function dataset(now: number) {
  const d = historyDataset(now);
  d.odds.push(odds(8, 200, 1, 1, 'away', 2.5), odds(9, 200, 2, 1, 'home', 1.55));
  // A team total: each team's over and under at its own line, one market per team.
  d.betting_markets.push({ id: 3, key: 'team-total', name: 'Team Total', category: 'main', entity_type: 'team' });
  d.odds.push(
    { ...odds(10, 200, 1, 3, 'New York Knicks over', 1.9), line: 106.5 },
    { ...odds(11, 200, 1, 3, 'New York Knicks under', 1.9), line: 106.5 },
    { ...odds(12, 200, 1, 3, 'Boston Celtics over', 1.85), line: 110.5 },
    { ...odds(13, 200, 1, 3, 'Boston Celtics under', 1.95), line: 110.5 },
  );
  return d;
}

describe.each(DIALECTS)('board events on GET /v1/stream/odds (%s)', (dialect) => {
  let t: Harness;
  let url: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect, env: { STREAM_HEARTBEAT_MS: '200' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.import(dataset(t.clock.now()));
    ({ apiKey } = await t.client());
  });
  afterAll(async () => t.close());

  const stream = (query: string, headers: Record<string, string> = {}) => openStream(`${url}/v1/stream/odds${query}`, { 'x-api-key': apiKey, ...headers });
  const board = () => boardSummaries((body) => t.as({ apiKey }).page<BoardItem>('/v1/odds/board', body), [200]);

  it('an import that moves one price sends one board event per selection whose best, consensus or fair price changed, and no other', async () => {
    const boardOnly = await stream('?event_ids=200&types=board');
    const both = await stream('?event_ids=200&types=odds,board');
    const oddsOnly = await stream('?event_ids=200');
    const before = await board();
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', 1.6)] });
    const after = await board();
    const expected = expectedBoardEvents(before, after);
    // Home: a new best (1.6 at book 1), consensus and fair; away: only its fair price moves with the market.
    expect(expected.map((e) => [e.position, e.changed])).toEqual([
      ['away', ['fair']],
      ['home', ['best', 'consensus', 'fair']],
    ]);

    const received = await drain(boardOnly, 1500);
    expect(received.every((e) => e.event === 'board' && e.id === undefined)).toBe(true);
    const events = received.map((e) => JSON.parse(e.data) as BoardEvent).sort((a, b) => a.position.localeCompare(b.position));
    expect(events).toEqual(expected);
    expect(events[1]).toMatchObject({ event_id: 200, betting_market_id: 1, is_main: true, best: { price_decimal: 1.6, operator_ids: [1] } });
    // The median of 1.6 and 1.55 is 1.5750000000000002 in floating point: a computed figure, written to 6 decimals.
    expect(events[1]?.consensus).toEqual({ price_decimal: 1.575, line: null });
    for (const event of events) expect(decimalsOf(event.fair?.probability ?? 0) <= 6 && decimalsOf(event.fair?.price ?? 0) <= 6, JSON.stringify(event.fair)).toBe(true);

    const mixed = await drain(both, 1500);
    expect(mixed.map((e) => e.event).sort()).toEqual(['board', 'board', 'odds']);
    expect((await drain(oddsOnly, 1500)).map((e) => e.event)).toEqual(['odds']);
    for (const s of [boardOnly, both, oddsOnly]) s.close();
  });

  it('a team\'s total moved changes the fair prices of that team\'s over and under only, not the other team\'s', async () => {
    const boardOnly = await stream('?event_ids=200&types=board');
    const before = await board();
    await t.import({ odds: [{ ...odds(10, 200, 1, 3, 'New York Knicks over', 2.0), line: 106.5 }] });
    const expected = expectedBoardEvents(before, await board());
    expect(expected.map((e) => [e.position, e.changed])).toEqual([
      ['New York Knicks over', ['best', 'consensus', 'fair']],
      ['New York Knicks under', ['fair']],
    ]);
    const events = (await drain(boardOnly, 1500)).map((e) => JSON.parse(e.data) as BoardEvent).sort((a, b) => a.position.localeCompare(b.position));
    expect(events).toEqual(expected);
    boardOnly.close();
  });

  it('board events are not replayed: Last-Event-ID brings back the price changes missed, only', async () => {
    const first = await stream('?event_ids=200&types=odds,board');
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', 1.65)] });
    const seen = await drain(first, 1500);
    const last = seen.filter((e) => e.event === 'odds').at(-1);
    expect(last?.id).toBeDefined();
    first.close();
    // A stream that stays: once it has the change, this node has read it live, before the reconnection.
    const witness = await stream('?event_ids=200');
    await t.import({ odds: [odds(5, 200, 1, 1, 'home', 1.7)] });
    expect((await witness.next()).event).toBe('odds');
    witness.close();
    const again = await stream('?event_ids=200&types=odds,board', { 'last-event-id': last?.id ?? '0' });
    const replayed = await drain(again, 1500);
    expect(replayed.map((e) => e.event)).toEqual(['odds']);
    again.close();
  });

  it('types is checked: an unknown type is a 400 or 422 naming it', async () => {
    const res = await t.as({ apiKey }).get('/v1/stream/odds?types=flows');
    expect([400, 422]).toContain(res.statusCode);
    expect(res.body).toContain('types');
  });
});
