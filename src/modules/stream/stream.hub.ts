import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { JobLog } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { AccountLookup } from '../auth/index.js';
import type { HistoryItem, HistoryRepository } from '../history/index.js';
import type { EndReason, StreamConnection } from './stream.connection.js';
import { TIER_TABLE } from '../policy/index.js';
import type { StreamSlots } from './stream.slots.js';
import { endReasonFor } from './stream.standing.js';

/** Changes per read: one import's worth of changes is fanned out a chunk at a time. */
const READ_CHUNK = 1_000;
/** Changes per read of a stream catching up on its own: large, as one client's socket takes them. */
const CATCH_UP_PAGE = 2_000;
/**
 * Bytes a live stream may have waiting for its client before it leaves the fan-out and catches up
 * on its own, from the table at its socket's pace (decision 0159): one slow reader neither holds a
 * whole import in the heap nor holds back the others.
 */
const MAX_WAITING_BYTES = 1024 * 1024;
const NEWEST = Number.MAX_SAFE_INTEGER;

/**
 * One node's odds streams (decision 0128). When the change feed says data changed (on this node
 * after an import's commit; from another node through Redis pub/sub, else the database poll), the
 * hub reads the history rows after the newest one it has read — one read per change per node,
 * whatever the number of streams — and hands each live stream the ones it follows. A stream that
 * reconnects with Last-Event-ID, or falls behind, catches up from the table, then joins the
 * fan-out; the stream's cursor (the last id it has been given) keeps anything from being sent
 * twice. When the 'clients' counter moves, each client's streams are checked against its account as
 * it is now (decision 0158).
 */
export interface StreamHub {
  /**
   * Adds a stream: from `lastEventId` on when given (catching up from the table), else from the
   * newest change this node has read. Resolves once it is caught up and live.
   */
  subscribe(connection: StreamConnection, lastEventId: number | undefined): Promise<void>;
  /**
   * Resolves, with the newest change's id this node has read, once it knows it. A stream awaits it
   * before its 200: a client may import as soon as it has the 200, and a starting point read after
   * that could already hold the client's change and skip it.
   */
  ready(): Promise<number>;
  /** Ends every stream (shutdown). */
  endAll(reason: EndReason): void;
  /** Open streams on this node, for the bench and the metrics. */
  readonly size: number;
}

/** The board changes some price changes make (the odds module's board, handed in by the composition root). */
export type BoardChangesOf = (changes: readonly HistoryItem[]) => Promise<ReadonlyArray<{ event_id: number }>>;

/** The grades written after an id, with their event's league (the results module's, handed in by the composition root). */
export interface SettledChanges {
  lastId(): Promise<number>;
  after(afterId: number, limit: number): Promise<{ last: number; rows: ReadonlyArray<{ change: { event_id: number }; leagueId: number | null }> }>;
}

export function createStreamHub(deps: {
  history: HistoryRepository;
  boardChanges: BoardChangesOf;
  settled: SettledChanges;
  changes: ChangeFeed;
  accounts: AccountLookup;
  clock: Clock;
  heartbeatMs: number;
  /** Each heartbeat renews the places of the streams open here. */
  slots: Pick<StreamSlots, 'renew' | 'beyondCap' | 'onRestored'>;
  log: JobLog;
}): StreamHub {
  const { history, changes, accounts, clock, slots, log, boardChanges, settled } = deps;
  const streams = new Set<StreamConnection>();
  /** The newest history id this node has read (undefined until the first stream opens). */
  let head: number | undefined;
  /** The newest grade id this node has read (undefined until the first stream opens). */
  let settledHead: number | undefined;
  let priming: Promise<number> | undefined;
  let pumping: Promise<void> | undefined;
  let again = false;
  let heartbeat: NodeJS.Timeout | undefined;

  const warn = (what: string) => (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, `odds stream: ${what}`);

  const primed = (): Promise<number> => {
    if (head !== undefined) return Promise.resolve(head);
    priming ??= Promise.all([history.lastId(), settled.lastId()])
      .then(([last, lastGrade]) => {
        head = Math.max(head ?? 0, last);
        settledHead = Math.max(settledHead ?? 0, lastGrade);
        // A change committed while the newest id was read may not be in it: look once more.
        pump();
        return head;
      })
      .finally(() => {
        // A failed read (the database away) is tried again by the next stream.
        priming = undefined;
      });
    return priming;
  };

  /** One read at a time; a change heard meanwhile is read right after it (coalesced). */
  function pump(): void {
    if (head === undefined) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      do {
        again = false;
        await readNew();
      } while (again);
    })()
      .catch(warn('reading new changes failed'))
      .finally(() => {
        pumping = undefined;
      });
  }

  /** Reads the changes after `head` and fans them out; with no stream open, only learns the newest id. */
  async function readNew(): Promise<void> {
    for (;;) {
      const from = head ?? 0;
      if (streams.size === 0) {
        const last = await history.lastId();
        // A stream opened during the read must get the rows: read them in the next round.
        if (streams.size > 0) continue;
        head = Math.max(head ?? 0, last);
        settledHead = Math.max(settledHead ?? 0, await settled.lastId());
        return;
      }
      const rows = await history.rowsAfter(from, NEWEST, READ_CHUNK);
      for (const stream of streams) {
        if (!stream.live) continue;
        stream.send(rows);
        if (stream.backlog > MAX_WAITING_BYTES) fallBehind(stream);
      }
      head = Math.max(head ?? 0, rows.at(-1)?.item.id ?? from);
      await fanOutBoard(rows);
      if (rows.length < READ_CHUNK) break;
    }
    await fanOutSettled();
  }

  /**
   * The grades written since the last read, to the live streams that carry them. Like board
   * events they are not replayed: a stream that opens starts with the grades made after it.
   */
  async function fanOutSettled(): Promise<void> {
    for (;;) {
      const from = settledHead ?? 0;
      const { last, rows } = await settled.after(from, READ_CHUNK);
      settledHead = Math.max(from, last);
      for (const stream of streams) if (stream.live && stream.types.has('settled')) stream.sendUnreplayed('settled', rows);
      if (last - from < READ_CHUNK) return;
    }
  }

  /**
   * The board changes of a read, computed once per node for the live streams that carry them. A
   * stream catching up gets none: board events are not replayed, only price changes are.
   */
  async function fanOutBoard(rows: ReadonlyArray<{ item: HistoryItem; leagueId: number | null }>): Promise<void> {
    const wanting = [...streams].filter((stream) => stream.live && stream.types.has('board'));
    if (wanting.length === 0 || rows.length === 0) return;
    const leagueOf = new Map(rows.map((row) => [row.item.event_id, row.leagueId]));
    const changed = (await boardChanges(rows.map((row) => row.item))).map((change) => ({ change, leagueId: leagueOf.get(change.event_id) ?? null }));
    for (const stream of wanting) if (stream.live) stream.sendUnreplayed('board', changed);
  }

  /** Out of the fan-out until it has caught up from the table; nothing is lost, its cursor says where it is. */
  function fallBehind(connection: StreamConnection): void {
    connection.live = false;
    catchUp(connection).catch((error: unknown) => {
      warn('catching up failed')(error);
      connection.body.destroy();
    });
  }

  /**
   * Catches a stream up from the table to the hub's head, a page at a time as its socket takes
   * them, then makes it live in the same turn as it finds itself at the head.
   */
  async function catchUp(connection: StreamConnection): Promise<void> {
    for (;;) {
      await connection.drained();
      const upTo = head ?? 0;
      if (connection.cursor >= upTo || connection.ended) break;
      const rows = await history.rowsAfter(connection.cursor, upTo, CATCH_UP_PAGE, connection.query);
      connection.send(rows, rows.length < CATCH_UP_PAGE ? upTo : undefined);
    }
    connection.live = true;
  }

  /**
   * Holds the client's streams here to its account as it is now: those it no longer allows end,
   * and when its tier's cap has shrunk, the newest streams above it end (ranked across the nodes).
   */
  async function review(clientId: string): Promise<void> {
    const account = await accounts.byId(clientId);
    const mine = [...streams].filter((stream) => stream.clientId === clientId);
    for (const stream of mine) {
      const reason = endReasonFor(stream.credentials, account, clock.now());
      if (reason !== undefined) stream.end(reason);
    }
    const open = mine.filter((stream) => !stream.ended);
    if (account === undefined || open.length === 0) return;
    const cap = TIER_TABLE[account.tier].streams;
    if (open.some((stream) => stream.cap > cap)) {
      const beyond = new Set(await slots.beyondCap(clientId, cap, open.map((stream) => stream.placeId)));
      for (const stream of open) if (beyond.has(stream.placeId)) stream.end('tier_changed');
    }
    for (const stream of open) stream.cap = cap;
  }

  function remove(connection: StreamConnection): void {
    if (!streams.delete(connection)) return;
    if (streams.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  changes.onChange('data', pump);
  // Every change to any client or credential: each client with streams here is checked again.
  changes.onChange('clients', () => {
    for (const clientId of new Set([...streams].map((stream) => stream.clientId))) review(clientId).catch(warn('checking an account failed'));
  });
  // Redis restarted empty knows none of the places taken here: they count again at once, not at the next heartbeat.
  slots.onRestored(() => slots.renew([...streams]));

  return {
    get size() {
      return streams.size;
    },
    async subscribe(connection, lastEventId) {
      streams.add(connection);
      connection.onClose(() => remove(connection));
      if (!heartbeat) {
        heartbeat = setInterval(() => {
          for (const stream of streams) stream.heartbeat();
          slots.renew([...streams]);
        }, deps.heartbeatMs);
        heartbeat.unref();
      }
      // A change to the account that landed while the stream was being opened found it not yet here.
      review(connection.clientId).catch(warn('checking an account failed'));
      const start = await primed();
      if (lastEventId === undefined) connection.cursor = Math.max(connection.cursor, start);
      await catchUp(connection);
    },
    ready() {
      return primed();
    },
    endAll(reason) {
      for (const stream of [...streams]) stream.end(reason);
    },
  };
}
