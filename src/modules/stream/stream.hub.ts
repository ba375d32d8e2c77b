import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import type { JobLog } from '../../platform/background.js';
import type { Clock } from '../../platform/clock.js';
import type { AccountLookup } from '../auth/index.js';
import type { HistoryRepository, RecentChanges } from '../history/index.js';
import type { EndReason, StreamConnection } from './stream.connection.js';
import { TIER_TABLE } from '../policy/index.js';
import { fanOut } from './stream.fanout.js';
import { createMovesFanOut, type MoveEvents, type MovesFanOut } from './stream.moves.js';
import { oddsFrames, unreplayedFrames } from './stream.frames.js';
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
/** Stored batches of board changes per read. */
const BOARD_CHUNK = 100;

/**
 * One node's odds streams (decision 0128). When the change feed says data changed (on this node
 * after an import's commit; from another node through Redis pub/sub, else the database poll), the
 * hub reads the history rows after the newest one it has read — one read per change per node,
 * whatever the number of streams — and hands each live stream the ones it follows. Board events
 * are read the same way, when the 'board' counter moves: computed once after the imports by a
 * history processor and stored (decision 0293), never computed here. A stream that
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
  /** The events that are competitions, as of this node's last read: what a stream not asking for them leaves out. */
  readonly competitions: ReadonlySet<number>;
}

/** The stored board changes (the odds module's board events, handed in by the composition root). */
export interface BoardEvents {
  /** The batches stored after a history id, oldest first, each with the newest history id it was computed from. */
  after(historyId: number, limit: number): Promise<ReadonlyArray<{ historyId: number; changes: ReadonlyArray<{ change: { event_id: number }; leagueId: number | null }> }>>;
}

/** The grades written after an id, with their event's league (the results module's, handed in by the composition root). */
export interface SettledChanges {
  lastId(): Promise<number>;
  after(afterId: number, limit: number): Promise<{ last: number; rows: ReadonlyArray<{ change: { event_id: number }; leagueId: number | null }> }>;
}

/** What the hub is built from. */
export interface StreamHubDeps {
  history: HistoryRepository;
  /** This node's newest import's changes, taken instead of reading them back when they are the next ones. */
  recent?: RecentChanges;
  board: BoardEvents;
  settled: SettledChanges;
  /** The stored steam moves and drops; none without (MOVES_DETECT=false). */
  moves?: MoveEvents;
  changes: ChangeFeed;
  accounts: AccountLookup;
  clock: Clock;
  heartbeatMs: number;
  /** Each heartbeat renews the places of the streams open here. */
  slots: Pick<StreamSlots, 'renew' | 'beyondCap' | 'onRestored'>;
  log: JobLog;
}

export function createStreamHub(deps: StreamHubDeps): StreamHub {
  const { changes, slots } = deps;
  const hub: Hub = {
    deps,
    streams: new Set(),
    head: undefined,
    boardHead: undefined,
    boardVersion: undefined,
    liveFrom: new WeakMap(),
    settledHead: undefined,
    moves: deps.moves === undefined ? undefined : createMovesFanOut(deps.moves, changes),
    competitions: new Set(),
    priming: undefined,
    pumping: undefined,
    again: false,
    dataDue: false,
    heartbeat: undefined,
    warn: (what) => (error) => deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, `odds stream: ${what}`),
  };
  const { streams } = hub;

  changes.onChange('data', () => pump(hub, 'data'));
  // The board changes alone: no read of the price changes or the grades, which moved with 'data'.
  changes.onChange('board', () => pump(hub, 'board'));
  // The steam moves and drops, like the board changes, without a read of the price changes.
  changes.onChange('moves', () => pump(hub, 'board'));
  // Every change to any client or credential: each client with streams here is checked again.
  changes.onChange('clients', () => {
    for (const clientId of new Set([...streams].map((stream) => stream.clientId))) review(hub, clientId).catch(hub.warn('checking an account failed'));
  });
  // Redis restarted empty knows none of the places taken here: they count again at once, not at the next heartbeat.
  slots.onRestored(() => slots.renew([...streams]));

  return {
    get size() {
      return streams.size;
    },
    competitions: hub.competitions,
    async subscribe(connection, lastEventId) {
      streams.add(connection);
      connection.onClose(() => remove(hub, connection));
      if (!hub.heartbeat) {
        hub.heartbeat = setInterval(() => {
          for (const stream of streams) stream.heartbeat();
          slots.renew([...streams]);
        }, deps.heartbeatMs);
        hub.heartbeat.unref();
      }
      // A change to the account that landed while the stream was being opened found it not yet here.
      review(hub, connection.clientId).catch(hub.warn('checking an account failed'));
      const start = await primed(hub);
      // Competitions imported while no stream was open here are known before this one goes live.
      await readCompetitions(hub);
      if (lastEventId === undefined) connection.cursor = Math.max(connection.cursor, start);
      await catchUp(hub, connection);
    },
    ready() {
      return primed(hub);
    },
    endAll(reason) {
      for (const stream of [...streams]) stream.end(reason);
    },
  };
}

/** One node's hub: its streams, how far it has read, and its one read and heartbeat at a time. */
interface Hub {
  readonly deps: StreamHubDeps;
  readonly streams: Set<StreamConnection>;
  /** The newest history id this node has read (undefined until the first stream opens). */
  head: number | undefined;
  /** The history id of the newest batch of board changes this node has read, or passed by with no stream wanting it. */
  boardHead: number | undefined;
  /** The 'board' counter as it was at the last read of the board changes: no read while it stays. */
  boardVersion: number | undefined;
  /** The history id each stream was at when it went live: it gets the board changes of the price changes after it. */
  readonly liveFrom: WeakMap<StreamConnection, number>;
  /** The newest grade id this node has read (undefined until the first stream opens). */
  settledHead: number | undefined;
  /** The reader of the steam moves and drops. */
  readonly moves: MovesFanOut | undefined;
  /** The competitions' event ids, read again with every data change while streams are open (a small table). */
  readonly competitions: Set<number>;
  priming: Promise<number> | undefined;
  pumping: Promise<void> | undefined;
  again: boolean;
  /** Whether the next read is to read the price changes and the grades ('data' moved), or only the board changes. */
  dataDue: boolean;
  heartbeat: NodeJS.Timeout | undefined;
  warn(what: string): (error: unknown) => void;
}

function primed(hub: Hub): Promise<number> {
  if (hub.head !== undefined) return Promise.resolve(hub.head);
  hub.priming ??= Promise.all([hub.deps.history.lastId(), hub.deps.settled.lastId(), hub.moves?.prime(), readCompetitions(hub)])
    .then(([last, lastGrade]) => {
      hub.head = Math.max(hub.head ?? 0, last);
      hub.boardHead = Math.max(hub.boardHead ?? 0, hub.head);
      hub.settledHead = Math.max(hub.settledHead ?? 0, lastGrade);
      // A change committed while the newest id was read may not be in it: look once more.
      pump(hub, 'data');
      return hub.head;
    })
    .finally(() => {
      // A failed read (the database away) is tried again by the next stream.
      hub.priming = undefined;
    });
  return hub.priming;
}

/** One read at a time; a change heard meanwhile is read right after it (coalesced). */
function pump(hub: Hub, moved: 'data' | 'board'): void {
  if (hub.head === undefined) return;
  if (moved === 'data') hub.dataDue = true;
  if (hub.pumping) {
    hub.again = true;
    return;
  }
  hub.pumping = (async () => {
    do {
      hub.again = false;
      await readNew(hub);
    } while (hub.again);
  })()
    .catch(hub.warn('reading new changes failed'))
    .finally(() => {
      hub.pumping = undefined;
    });
}

/**
 * Reads the changes after `head` and fans them out; with no stream open, only learns the newest id.
 * When only the 'board' counter moved, only the board changes are read (decision 0294).
 */
async function readNew(hub: Hub): Promise<void> {
  const { history, settled } = hub.deps;
  const { streams } = hub;
  let dataDue = hub.dataDue;
  hub.dataDue = false;
  try {
    if (streams.size === 0) {
      const last = await history.lastId();
      // A stream opened during the read must get the rows: they are read below.
      if (streams.size === 0) {
        hub.head = Math.max(hub.head ?? 0, last);
        hub.boardHead = Math.max(hub.boardHead ?? 0, hub.head);
        hub.settledHead = Math.max(hub.settledHead ?? 0, await settled.lastId());
        await hub.moves?.read(streams);
        return;
      }
      dataDue = true;
    }
    // Before the changes that may be their first: a competition's changes are left out from the first.
    if (dataDue) await readCompetitions(hub);
    if (dataDue) await readHistory(hub);
    await fanOutBoard(hub);
    await hub.moves?.read(hub.streams);
    if (dataDue) await fanOutSettled(hub);
  } catch (error) {
    // A failed read is read again with the next change, whichever counter it moves.
    hub.dataDue ||= dataDue;
    throw error;
  }
}

/** The competitions' ids, replacing the set the streams hold (the same object: each stream sees the new members). */
async function readCompetitions(hub: Hub): Promise<void> {
  const ids = await hub.deps.history.competitionIds();
  hub.competitions.clear();
  for (const id of ids) hub.competitions.add(id);
}

/**
 * The price changes after `head`, a chunk at a time, to the live streams that follow them. The
 * changes this node's import has just written are taken as it held them when they are the next
 * ones (decision 0294); what follows them is read all the same: the change heard may be another's.
 */
async function readHistory(hub: Hub): Promise<void> {
  for (;;) {
    const from = hub.head ?? 0;
    const held = hub.deps.recent?.after(from);
    const rows = held ?? (await hub.deps.history.rowsAfter(from, NEWEST, READ_CHUNK));
    const live = liveOnes(hub);
    // Read before the fan-out leaves the event loop: a stream that catches up meanwhile takes these
    // rows from the table, and goes live after them.
    hub.head = Math.max(hub.head ?? 0, rows.at(-1)?.item.id ?? from);
    const frames = oddsFrames(rows);
    await fanOut(live, (stream) => {
      if (!stream.live) return;
      stream.send(frames);
      if (stream.backlog > MAX_WAITING_BYTES) fallBehind(hub, stream);
    });
    if (held === undefined && rows.length < READ_CHUNK) return;
  }
}

/**
 * The grades written since the last read, to the live streams that carry them. Like board
 * events they are not replayed: a stream that opens starts with the grades made after it.
 */
async function fanOutSettled(hub: Hub): Promise<void> {
  for (;;) {
    const from = hub.settledHead ?? 0;
    const { last, rows } = await hub.deps.settled.after(from, READ_CHUNK);
    hub.settledHead = Math.max(from, last);
    const frames = unreplayedFrames('settled', rows);
    await fanOut(liveOnes(hub, 'settled'), (stream) => stream.sendUnreplayed(frames));
    if (last - from < READ_CHUNK) return;
  }
}

/**
 * The board changes stored since the last read, to the live streams that carry them, each batch to
 * the streams that were live before the price changes it was computed from. A stream catching up
 * gets none: board events are not replayed, only price changes are.
 */
async function fanOutBoard(hub: Hub): Promise<void> {
  const version = hub.deps.changes.version('board');
  if (![...hub.streams].some((stream) => stream.live && stream.types.has('board'))) {
    // No stream here wants the batches up to now, and a stream that opens later starts after them.
    hub.boardHead = Math.max(hub.boardHead ?? 0, hub.head ?? 0);
    hub.boardVersion = version;
    return;
  }
  if (version === hub.boardVersion) return;
  for (;;) {
    const from = hub.boardHead ?? 0;
    const batches = await hub.deps.board.after(from, BOARD_CHUNK);
    // A batch follows its price changes: changes this node has not read yet are read and sent first.
    if ((batches.at(-1)?.historyId ?? 0) > (hub.head ?? 0)) await readHistory(hub);
    for (const batch of batches) {
      const frames = unreplayedFrames('board', batch.changes);
      const taking = liveOnes(hub, 'board').filter((stream) => batch.historyId > (hub.liveFrom.get(stream) ?? NEWEST));
      await fanOut(taking, (stream) => stream.sendUnreplayed(frames));
    }
    hub.boardHead = Math.max(from, batches.at(-1)?.historyId ?? from);
    if (batches.length < BOARD_CHUNK) break;
  }
  hub.boardVersion = version;
}

/**
 * The streams a fan-out hands a read to: those live when it starts (carrying `type`, when given).
 * One that goes live later has caught up past the read.
 */
function liveOnes(hub: Hub, type?: 'board' | 'settled'): StreamConnection[] {
  return [...hub.streams].filter((stream) => stream.live && (type === undefined || stream.types.has(type)));
}

/** Out of the fan-out until it has caught up from the table; nothing is lost, its cursor says where it is. */
function fallBehind(hub: Hub, connection: StreamConnection): void {
  connection.live = false;
  catchUp(hub, connection).catch((error: unknown) => {
    hub.warn('catching up failed')(error);
    connection.body.destroy();
  });
}

/**
 * Catches a stream up from the table to the hub's head, a page at a time as its socket takes
 * them, then makes it live in the same turn as it finds itself at the head.
 */
async function catchUp(hub: Hub, connection: StreamConnection): Promise<void> {
  for (;;) {
    await connection.drained();
    const upTo = hub.head ?? 0;
    if (connection.cursor >= upTo || connection.ended) break;
    const rows = await hub.deps.history.rowsAfter(connection.cursor, upTo, CATCH_UP_PAGE, connection.query);
    connection.send(oddsFrames(rows), rows.length < CATCH_UP_PAGE ? upTo : undefined);
  }
  connection.live = true;
  hub.liveFrom.set(connection, hub.head ?? 0);
}

/**
 * Holds the client's streams here to its account as it is now: those it no longer allows end,
 * and when its tier's cap has shrunk, the newest streams above it end (ranked across the nodes).
 */
async function review(hub: Hub, clientId: string): Promise<void> {
  const account = await hub.deps.accounts.byId(clientId);
  const mine = [...hub.streams].filter((stream) => stream.clientId === clientId);
  for (const stream of mine) {
    const reason = endReasonFor(stream.credentials, account, hub.deps.clock.now());
    if (reason !== undefined) stream.end(reason);
  }
  const open = mine.filter((stream) => !stream.ended);
  if (account === undefined || open.length === 0) return;
  const cap = TIER_TABLE[account.tier].streams;
  if (open.some((stream) => stream.cap > cap)) {
    const beyond = new Set(await hub.deps.slots.beyondCap(clientId, cap, open.map((stream) => stream.placeId)));
    for (const stream of open) if (beyond.has(stream.placeId)) stream.end('tier_changed');
  }
  for (const stream of open) stream.cap = cap;
}

function remove(hub: Hub, connection: StreamConnection): void {
  if (!hub.streams.delete(connection)) return;
  if (hub.streams.size === 0 && hub.heartbeat) {
    clearInterval(hub.heartbeat);
    hub.heartbeat = undefined;
  }
}
