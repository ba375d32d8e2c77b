import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { fanOut } from './stream.fanout.js';
import type { StreamConnection } from './stream.connection.js';
import { unreplayedFrames } from './stream.frames.js';

/** Moves per read. */
const READ_CHUNK = 500;

/** The stored steam moves and drops after an id (the odds module's, handed in by the composition root), each as the list shows it. */
export interface MoveEvents {
  lastId(): Promise<number>;
  after(afterId: number, limit: number): Promise<ReadonlyArray<{ id: number; type: 'steam' | 'drop'; change: { event_id: number }; leagueId: number | null }>>;
}

/**
 * The node's reader of the steam moves and drops, for the hub (decision 0319): read once per
 * 'moves' counter move, whatever the number of streams, and sent to the live streams carrying
 * their type. Like board events they have no id and are not replayed: a stream gets the moves
 * stored after it went live.
 */
export interface MovesFanOut {
  /** Starts after the newest move stored (the hub's priming). */
  prime(): Promise<void>;
  /** The moves stored since the last read, to the live streams that carry their type. */
  read(streams: Iterable<StreamConnection>): Promise<void>;
}

export function createMovesFanOut(source: MoveEvents, changes: ChangeFeed): MovesFanOut {
  let head: number | undefined;
  let version: number | undefined;
  return {
    async prime() {
      head = Math.max(head ?? 0, await source.lastId());
      version = changes.version('moves');
    },
    async read(streams) {
      if (head === undefined) return;
      const now = changes.version('moves');
      const live = [...streams].filter((stream) => stream.live && (stream.types.has('steam') || stream.types.has('drop')));
      if (live.length === 0) {
        // No stream here wants the moves up to now, and a stream that opens later starts after them.
        head = Math.max(head, await source.lastId());
        version = now;
        return;
      }
      if (now === version) return;
      for (;;) {
        const rows = await source.after(head, READ_CHUNK);
        for (const type of ['steam', 'drop'] as const) {
          const mine = rows.filter((row) => row.type === type);
          if (mine.length === 0) continue;
          const frames = unreplayedFrames(type, mine);
          await fanOut(
            live.filter((stream) => stream.types.has(type)),
            (stream) => stream.sendUnreplayed(frames),
          );
        }
        head = Math.max(head, rows.at(-1)?.id ?? head);
        if (rows.length < READ_CHUNK) break;
      }
      version = now;
    },
  };
}
