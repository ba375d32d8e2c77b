import type { HistoryItem } from '../history/index.js';

/**
 * The Server-Sent Events frames (`id:`, `event:`, `data:` lines,
 * https://html.spec.whatwg.org/multipage/server-sent-events.html) of one read of the hub, each
 * built once whatever the number of streams that take it: the text is the same for every stream,
 * and building it per stream cost streams × changes serializations in one turn of the event loop.
 * A stream that takes every frame is handed one shared buffer of them all, copied for none.
 */
export interface Frames {
  /** Each frame's change, in order: its id (odds changes only), event and league, for the filters. */
  readonly changes: ReadonlyArray<{ readonly id: number | undefined; readonly eventId: number; readonly leagueId: number | null }>;
  /** The frame of the change at `index`. */
  text(index: number): string;
  /** Every frame, in order, as one buffer. */
  all(): Buffer;
  /**
   * The frames a filter follows, as one buffer built once per filter (`key`, which names it) from
   * `text`: a thousand streams of one event each took every frame through their filter and joined
   * and encoded the same text a thousand times in one turn of the event loop.
   */
  followed(key: string, text: () => string): Buffer;
}

/** How a change becomes the `data:` line's text; counted in the tests, else JSON.stringify. */
export type Serialize = (value: unknown) => string;

/** The odds events of price changes, with their ids: a stream replays them from Last-Event-ID. */
export function oddsFrames(rows: ReadonlyArray<{ item: HistoryItem; leagueId: number | null }>, serialize: Serialize = JSON.stringify): Frames {
  return framesOf(
    rows.map(({ item, leagueId }) => ({ id: item.id, eventId: item.event_id, leagueId })),
    (index) => {
      const item = rows[index]?.item;
      return item === undefined ? '' : `id: ${item.id}\nevent: odds\ndata: ${serialize(item)}\n\n`;
    },
  );
}

/** Board changes, grades or moves, without an id: they are not replayed. */
export function unreplayedFrames(
  type: 'board' | 'settled' | 'steam' | 'drop',
  changes: ReadonlyArray<{ change: { event_id: number }; leagueId: number | null }>,
  serialize: Serialize = JSON.stringify,
): Frames {
  return framesOf(
    changes.map(({ change, leagueId }) => ({ id: undefined, eventId: change.event_id, leagueId })),
    (index) => {
      const change = changes[index]?.change;
      return change === undefined ? '' : `event: ${type}\ndata: ${serialize(change)}\n\n`;
    },
  );
}

/** Each frame built the first time a stream takes it, and kept for the others. */
function framesOf(changes: Frames['changes'], build: (index: number) => string): Frames {
  const texts: Array<string | undefined> = [];
  let all: Buffer | undefined;
  const byFilter = new Map<string, Buffer>();
  const text = (index: number) => (texts[index] ??= build(index));
  return {
    changes,
    text,
    all() {
      all ??= Buffer.from(changes.map((_, index) => text(index)).join(''));
      return all;
    },
    followed(key, joined) {
      let bytes = byFilter.get(key);
      if (bytes === undefined) byFilter.set(key, (bytes = Buffer.from(joined())));
      return bytes;
    },
  };
}
