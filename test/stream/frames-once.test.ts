import { describe, expect, it } from 'vitest';
import type { HistoryItem } from '../../src/modules/history/index.js';
import { openConnection, type StreamConnection } from '../../src/modules/stream/stream.connection.js';
import { fanOut } from '../../src/modules/stream/stream.fanout.js';
import { oddsFrames, type Serialize, unreplayedFrames } from '../../src/modules/stream/stream.frames.js';
import type { StreamType } from '../../src/modules/stream/stream.schemas.js';

/*
 * The hub's fan-out without a database: real streams (what the route opens), real frames and the
 * real fan-out, with the one serializer of a read counted. Each serialization stamps its text with
 * its own number, so a stream given text built anywhere else would show it.
 */

const change = (id: number, eventId: number): HistoryItem => ({
  id,
  odds_id: 1000 + id,
  event_id: eventId,
  operator_id: 1,
  betting_market_id: 1,
  position: 'home',
  changed_at: '2026-12-06T12:00:00.000Z',
  price_decimal: { from: 1.9, to: 2 },
  line: { from: null, to: null },
  status: { from: 'open', to: 'open' },
});

/** 40 changes of events 1 and 2 in turn; event 1 is in league 7. */
const ROWS = Array.from({ length: 40 }, (_, i) => ({ item: change(101 + i, 1 + (i % 2)), leagueId: i % 2 === 0 ? 7 : null }));

function counted(): { serialize: Serialize; count: () => number } {
  let built = 0;
  return {
    serialize: (value) => JSON.stringify({ ...(value as object), built: ++built }),
    count: () => built,
  };
}

function stream(filter: { eventIds?: number[]; leagueIds?: number[] } = {}, types: StreamType[] = ['odds', 'board']): StreamConnection & { text(): string } {
  const connection = openConnection({
    clientId: 'c',
    placeId: 'p',
    credentials: {},
    cap: 50,
    query: { eventIds: filter.eventIds ?? [], leagueIds: filter.leagueIds ?? [] },
    cursor: 100,
    types: new Set(types),
  });
  const chunks: Buffer[] = [];
  connection.body.on('data', (chunk: Buffer) => chunks.push(chunk));
  return Object.assign(connection, { text: () => Buffer.concat(chunks).toString('utf8') });
}

/** The events a stream was sent, as [event, id, data]. */
function eventsOf(text: string): Array<{ event: string; id?: string; data: { id?: number; event_id: number; built: number } }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.includes('data: '))
    .map((frame) => {
      const field = (name: string) => frame.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      return { event: field('event') ?? '', id: field('id'), data: JSON.parse(field('data') ?? '{}') };
    });
}

describe('one read fanned out to many streams', () => {
  it.each([1, 10, 1_000])('serializes each change once for %i streams of every change, and each gets the same text', async (count) => {
    const { serialize, count: built } = counted();
    const streams = Array.from({ length: count }, () => stream());
    const frames = oddsFrames(ROWS, serialize);
    await fanOut(streams, (s) => s.send(frames), 100);
    await new Promise(setImmediate);
    expect(built()).toBe(ROWS.length);
    const first = streams[0]?.text() ?? '';
    expect(eventsOf(first).map((e) => [e.id, e.data.built])).toEqual(ROWS.map((row, i) => [String(row.item.id), i + 1]));
    for (const s of streams) {
      expect(s.text()).toBe(first);
      expect(s.cursor).toBe(140);
    }
  });

  it("builds a change's text once across streams of different filters, each sent only what it follows", async () => {
    const { serialize, count: built } = counted();
    const every = Array.from({ length: 300 }, () => stream());
    const ofEvent = Array.from({ length: 300 }, () => stream({ eventIds: [2] }));
    const ofLeague = Array.from({ length: 300 }, () => stream({ leagueIds: [7] }));
    const boardOnly = stream({}, ['board']);
    const frames = oddsFrames(ROWS, serialize);
    await fanOut([...every, ...ofEvent, ...ofLeague, boardOnly], (s) => s.send(frames), 100);
    await new Promise(setImmediate);
    expect(built()).toBe(ROWS.length);
    const builtOf = new Map(eventsOf(every[0]?.text() ?? '').map((e) => [e.data.id, e.data.built]));
    for (const [group, eventId] of [[ofEvent, 2], [ofLeague, 1]] as const) {
      for (const s of group) {
        const events = eventsOf(s.text());
        expect(events.map((e) => e.data.id)).toEqual(ROWS.filter((row) => row.item.event_id === eventId).map((row) => row.item.id));
        // The very text the stream of every change got: built once, not again for this stream.
        for (const e of events) expect(e.data.built).toBe(builtOf.get(e.data.id));
        expect(s.cursor).toBe(140);
      }
    }
    // It carries no odds, yet has passed them.
    expect(eventsOf(boardOnly.text())).toEqual([]);
    expect(boardOnly.cursor).toBe(140);
  });

  it('joins the frames a filter follows once for every stream of that filter', async () => {
    const frames = oddsFrames(ROWS);
    const joined = new Map<string, number>();
    const counting = {
      ...frames,
      followed: (key: string, text: () => string) => frames.followed(key, () => (joined.set(key, (joined.get(key) ?? 0) + 1), text())),
    };
    const ofEvent = Array.from({ length: 300 }, () => stream({ eventIds: [2] }));
    const ofLeague = Array.from({ length: 300 }, () => stream({ leagueIds: [7] }));
    const ofBoth = Array.from({ length: 300 }, () => stream({ eventIds: [2], leagueIds: [7] }));
    await fanOut([...ofEvent, ...ofLeague, ...ofBoth], (s) => s.send(counting), 100);
    await new Promise(setImmediate);
    expect([...joined.values()]).toEqual([1, 1, 1]);
    expect(eventsOf(ofEvent[299]?.text() ?? '').map((e) => e.data.event_id)).toEqual(ROWS.filter((row) => row.item.event_id === 2).map(() => 2));
    expect(eventsOf(ofLeague[0]?.text() ?? '').map((e) => e.data.id)).toEqual(ROWS.filter((row) => row.leagueId === 7).map((row) => row.item.id));
    expect(eventsOf(ofBoth[1]?.text() ?? '')).toHaveLength(ROWS.length);
  });

  it('skips the changes a stream already has (its cursor ahead of the read), sending the rest once', async () => {
    const { serialize, count: built } = counted();
    const ahead = stream();
    ahead.cursor = 120;
    const behind = stream();
    const frames = oddsFrames(ROWS, serialize);
    await fanOut([behind, ahead], (s) => s.send(frames));
    await new Promise(setImmediate);
    expect(eventsOf(ahead.text()).map((e) => e.data.id)).toEqual(ROWS.map((row) => row.item.id).filter((id) => id > 120));
    expect(built()).toBe(ROWS.length);
  });

  it('serializes each board change once for every stream carrying board events', async () => {
    const { serialize, count: built } = counted();
    const changes = [1, 2, 1].map((eventId) => ({ change: { event_id: eventId, best: eventId }, leagueId: eventId === 1 ? 7 : null }));
    const streams = [...Array.from({ length: 500 }, () => stream()), ...Array.from({ length: 500 }, () => stream({ eventIds: [1] }))];
    const frames = unreplayedFrames('board', changes, serialize);
    await fanOut(streams, (s) => s.sendUnreplayed(frames), 100);
    await new Promise(setImmediate);
    expect(built()).toBe(changes.length);
    expect(eventsOf(streams[0]?.text() ?? '').map((e) => [e.event, e.id, e.data.built])).toEqual([
      ['board', undefined, 1],
      ['board', undefined, 2],
      ['board', undefined, 3],
    ]);
    expect(eventsOf(streams[999]?.text() ?? '').map((e) => e.data.built)).toEqual([1, 3]);
  });
});

describe('the fan-out spread over turns of the event loop', () => {
  it('hands a slice of streams per turn, and each stream gets the reads in order, its own writes between them kept', async () => {
    const streams = Array.from({ length: 25 }, () => stream());
    const reads = [ROWS.slice(0, 10), ROWS.slice(10, 25), ROWS.slice(25)].map((rows) => oddsFrames(rows));
    // Counts the turns of the event loop; each turn also writes to every stream, as the heartbeats do.
    let turn = 0;
    let ticking = setImmediate(function tick() {
      turn += 1;
      for (const s of streams) s.heartbeat();
      ticking = setImmediate(tick);
    });
    const turns: number[][] = [];
    try {
      for (const frames of reads) {
        const handed: number[] = [];
        await fanOut(streams, (s) => void (handed.push(turn), s.send(frames)), 10);
        turns.push(handed);
      }
    } finally {
      clearImmediate(ticking);
    }
    for (const handed of turns) {
      // 10, 10 and 5 streams, each slice in a turn of its own.
      const [a, b, c] = [handed[0] ?? 0, handed[10] ?? 0, handed[20] ?? 0];
      expect(handed).toEqual([...Array(10).fill(a), ...Array(10).fill(b), ...Array(5).fill(c)]);
      expect(a < b && b < c).toBe(true);
    }
    await new Promise(setImmediate);
    for (const s of streams) {
      expect(eventsOf(s.text()).map((e) => e.data.id)).toEqual(ROWS.map((row) => row.item.id));
      expect(s.text()).toContain(': heartbeat');
      expect(s.cursor).toBe(140);
    }
  });
});
