import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { BackgroundJobs, JobLog } from '../../platform/background.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { isSqlite } from '../../platform/db/locked-transaction.js';
import type { ChangeVersionName, Schema } from '../../platform/db/schema.js';
import { createTriggeredJob, type TriggeredJob } from '../../platform/triggered-job.js';
import { historyCursors as cursors } from './history-cursors.repository.js';
import type { RecentChanges } from './history.recent.js';
import { rowsAfter, type StreamRow } from './history.repository.js';

/** Changes per batch unless a processor says otherwise: one batch is computed, then stored with the cursor's move in one transaction. */
const BATCH = 1_000;
/** How soon a node that found the cursor held tries again: the holder's transaction is one batch long. */
const BUSY_RETRY_MS = 20;
const NEWEST = Number.MAX_SAFE_INTEGER;

/**
 * Work computed once from the price history, after the imports that wrote it, by whichever node
 * gets to it (decision 0293): a named cursor (feed_cursors) says up to which change the work is
 * stored, and moves in the transaction that stores the work of the changes after it. The node
 * that imported runs it after its commit; every node runs it at start and every `everyMs`, so the
 * changes of a node that died after its commit are taken by the next run anywhere: nothing is lost,
 * and nothing is done twice.
 *
 * A cursor over ids is safe because the history's ids are given in commit order: only imports
 * write it, and an import holds the data-write lock (lockDataWrites: PostgreSQL's advisory lock,
 * SQLite's one writer) from before its first write to its commit, so no change can commit with an
 * id below one a cursor has already passed.
 */
export interface HistoryProcessor extends TriggeredJob {
  /** Works through the changes after the cursor; resolves after a run that started after the call. */
  run(): Promise<void>;
}

/** What a processor does with a batch of changes. */
export interface HistoryWork<T, R = StreamRow> {
  /** The cursor's name (feed_cursors.name). */
  readonly name: string;
  /** What the changes make, read through `db` (on PostgreSQL, the transaction holding the cursor). */
  compute(db: Kysely<Schema>, rows: readonly R[]): Promise<T>;
  /** Stores it, in the transaction that moves the cursor past the changes; `lastId` is the newest change's. */
  store(trx: Kysely<Schema>, made: T, lastId: number): Promise<void>;
  /** After the commit: tells whoever reads what was stored. */
  committed(made: T): Promise<void>;
}

export interface HistoryProcessorDeps<T> {
  db: Kysely<Schema>;
  changes: ChangeFeed;
  background: BackgroundJobs;
  /** How often every node runs it on its own, for the changes a node left when it died. */
  everyMs: number;
  work: HistoryWork<T>;
  /** This node's newest import's changes: taken instead of reading them back when the cursor is right before them. */
  recent?: RecentChanges;
  /** Runs on this node's own change at most once per this window (a leading run, then a trailing one); 0 or none: after every change. */
  windowMs?: number;
  /**
   * Changes per batch (default 1,000). A processor whose work is per market rather than per change
   * takes more at once, so that a window's imports, touching the same markets, are computed once.
   */
  batch?: number;
}

/**
 * What a cursor runs over: rows whose ids are given in commit order by writers that hold the
 * data-write lock (the price history; the board changes its processor stores in that order).
 */
export interface CursorSource<R> {
  /** Up to `limit` rows after `afterId`, in id order. */
  after(db: Kysely<Schema>, afterId: number, limit: number): Promise<readonly R[]>;
  idOf(row: R): number;
  /** Where a cursor made for the first time starts: the newest row, so its work starts with what comes next. */
  newest(db: Kysely<Schema>): Promise<number>;
}

/** A processor over any cursor source: the history processor's loop, woken by this node's changes of `wakeOn`. */
export interface CursorProcessorDeps<T, R> extends Omit<HistoryProcessorDeps<T>, 'work' | 'recent'> {
  work: HistoryWork<T, R>;
  source: CursorSource<R>;
  wakeOn: ChangeVersionName;
}

type Step = 'done' | 'more' | 'busy';

/** Several processors run, stopped and started as one, in the order given (a later one reads what an earlier one stored). */
export interface ProcessorsInOrder {
  /** Runs each in turn; resolves after runs that started after the call. */
  run(): Promise<void>;
  stop(): Promise<void>;
  start(log: JobLog): Promise<void>;
}

export function processorsInOrder(parts: readonly HistoryProcessor[]): ProcessorsInOrder {
  return {
    async run() {
      for (const part of parts) await part.run();
    },
    async stop() {
      for (const part of parts) await part.stop();
    },
    async start(log) {
      for (const part of parts) await part.start(log);
    },
  };
}

/** The price history as a cursor source: this node's newest import's changes when they are the next ones, else read. */
function historySource(recent: RecentChanges | undefined): CursorSource<StreamRow> {
  return {
    after: async (db, afterId, limit) => recent?.after(afterId, limit) ?? (await rowsAfter(db, afterId, NEWEST, limit)),
    idOf: (row) => row.item.id,
    newest: (db) => cursors.newestChange(db),
  };
}

export function createHistoryProcessor<T>(deps: HistoryProcessorDeps<T>): HistoryProcessor {
  const { recent, ...rest } = deps;
  return createCursorProcessor({ ...rest, source: historySource(recent), wakeOn: 'data' });
}

export function createCursorProcessor<T, R>(deps: CursorProcessorDeps<T, R>): HistoryProcessor {
  const { db, work, source } = deps;
  const batch = deps.batch ?? BATCH;
  let made = false;
  const step = (): Promise<Step> => (isSqlite(db) ? sqliteStep(db, work, source, batch) : postgresStep(db, work, source, batch));
  return createTriggeredJob({
    name: `history processor: ${work.name}`,
    changes: deps.changes,
    background: deps.background,
    // This node's own change: processed now (or once the window ends), by the node that made it;
    // at start and on the timer, what a node that died after its commit left behind.
    wakeOn: deps.wakeOn,
    everyMs: deps.everyMs,
    ...(deps.windowMs === undefined ? {} : { windowMs: deps.windowMs }),
    async work() {
      if (!made) {
        // Only a cursor that exists can be locked.
        await cursors.position(db, work.name, source.newest);
        made = true;
      }
      for (;;) {
        const next = await step();
        if (next === 'done') return;
        if (next === 'busy') await sleep(BUSY_RETRY_MS);
      }
    },
  });
}

/**
 * PostgreSQL: the batch is read, computed and stored in one transaction holding the cursor's row
 * lock, so no two nodes compute it; a node that finds the row locked skips it (SKIP LOCKED) and
 * tries again shortly, since the holder may have read before this node's change committed.
 */
async function postgresStep<T, R>(db: Kysely<Schema>, work: HistoryWork<T, R>, source: CursorSource<R>, batch: number): Promise<Step> {
  const done = await db.transaction().execute(async (trx) => {
    const from = await cursors.claim(trx, work.name);
    if (from === undefined) return 'busy' as const;
    return storeBatch(trx, trx, work, from, source, batch);
  });
  return typeof done === 'string' ? done : committed(work, done);
}

/**
 * SQLite: a transaction holds the process's one connection, so every read of this node would
 * wait out the computation. The batch is computed before it; the transaction (BEGIN IMMEDIATE,
 * the one writer) stores it only if the cursor is still where it was read, else nothing is
 * stored and the next step starts from where the other process left it.
 */
async function sqliteStep<T, R>(db: Kysely<Schema>, work: HistoryWork<T, R>, source: CursorSource<R>, batch: number): Promise<Step> {
  const from = await cursors.position(db, work.name, source.newest);
  const done = await storeBatch(db, undefined, work, from, source, batch);
  return typeof done === 'string' ? done : committed(work, done);
}

interface Stored<T> {
  made: T;
  full: boolean;
}

/**
 * Reads and computes the batch after `from`, and stores it with the cursor's move (in `trx`, or in
 * a transaction of its own). The changes this node's import has just written are taken as it held
 * them when they are the next ones (decision 0294), else read.
 */
async function storeBatch<T, R>(
  read: Kysely<Schema>,
  trx: Kysely<Schema> | undefined,
  work: HistoryWork<T, R>,
  from: number,
  source: CursorSource<R>,
  batch: number,
): Promise<Stored<T> | 'done' | 'more'> {
  const rows = await source.after(read, from, batch);
  const last = rows.at(-1);
  if (last === undefined) return 'done';
  const lastId = source.idOf(last);
  const made = await work.compute(read, rows);
  const write = async (tx: Kysely<Schema>) => {
    if (!(await cursors.move(tx, work.name, from, lastId))) return false;
    await work.store(tx, made, lastId);
    return true;
  };
  const moved = trx === undefined ? await read.transaction().execute(write) : await write(trx);
  // Another process moved the cursor first (SQLite only): start again from where it is.
  if (!moved) return 'more';
  return { made, full: rows.length >= batch };
}

async function committed<T, R>(work: HistoryWork<T, R>, stored: Stored<T>): Promise<Step> {
  await work.committed(stored.made);
  return stored.full ? 'more' : 'done';
}
