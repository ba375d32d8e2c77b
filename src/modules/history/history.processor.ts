import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { BackgroundJob, BackgroundJobs, JobLog } from '../../platform/background.js';
import type { ChangeFeed } from '../../platform/cache/change-feed.js';
import { isSqlite } from '../../platform/db/locked-transaction.js';
import type { Schema } from '../../platform/db/schema.js';
import { historyCursors as cursors } from './history-cursors.repository.js';
import type { RecentChanges } from './history.recent.js';
import { rowsAfter, type StreamRow } from './history.repository.js';

/** Changes per batch: one batch is computed, then stored with the cursor's move in one transaction. */
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
export interface HistoryProcessor extends BackgroundJob {
  /** Works through the changes after the cursor; resolves after a run that started after the call. */
  run(): Promise<void>;
}

/** What a processor does with a batch of changes. */
export interface HistoryWork<T> {
  /** The cursor's name (feed_cursors.name). */
  readonly name: string;
  /** What the changes make, read through `db` (on PostgreSQL, the transaction holding the cursor). */
  compute(db: Kysely<Schema>, rows: readonly StreamRow[]): Promise<T>;
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
}

type Step = 'done' | 'more' | 'busy';

export function createHistoryProcessor<T>(deps: HistoryProcessorDeps<T>): HistoryProcessor {
  const { db, work, recent } = deps;
  const state: { timer: NodeJS.Timeout | undefined; log: JobLog | undefined; made: boolean } = { timer: undefined, log: undefined, made: false };
  const step = (): Promise<Step> => (isSqlite(db) ? sqliteStep(db, work, recent) : postgresStep(db, work, recent));
  const { run, idle } = serialized(async () => {
    if (!state.made) {
      // Only a cursor that exists can be locked.
      await cursors.position(db, work.name);
      state.made = true;
    }
    for (;;) {
      const next = await step();
      if (next === 'done') return;
      if (next === 'busy') await sleep(BUSY_RETRY_MS);
    }
  });
  const runLogged = () => {
    if (state.log === undefined) return;
    const log = state.log;
    run().catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, `${work.name}: history processor failed`));
  };
  // This node's own import: its changes are processed now, by the node that made them.
  deps.changes.onOwnChange('data', runLogged);
  return deps.background.own({
    name: `history processor: ${work.name}`,
    run,
    start(log) {
      if (state.timer) return;
      state.log = log;
      state.timer = setInterval(runLogged, deps.everyMs);
      state.timer.unref();
      // What a node that died after its commit left behind.
      runLogged();
    },
    async stop() {
      if (state.timer) clearInterval(state.timer);
      state.timer = undefined;
      state.log = undefined;
      await idle();
    },
  });
}

/**
 * PostgreSQL: the batch is read, computed and stored in one transaction holding the cursor's row
 * lock, so no two nodes compute it; a node that finds the row locked skips it (SKIP LOCKED) and
 * tries again shortly, since the holder may have read before this node's change committed.
 */
async function postgresStep<T>(db: Kysely<Schema>, work: HistoryWork<T>, recent: RecentChanges | undefined): Promise<Step> {
  const done = await db.transaction().execute(async (trx) => {
    const from = await cursors.claim(trx, work.name);
    if (from === undefined) return 'busy' as const;
    return storeBatch(trx, trx, work, from, recent);
  });
  return typeof done === 'string' ? done : committed(work, done);
}

/**
 * SQLite: a transaction holds the process's one connection, so every read of this node would
 * wait out the computation. The batch is computed before it; the transaction (BEGIN IMMEDIATE,
 * the one writer) stores it only if the cursor is still where it was read, else nothing is
 * stored and the next step starts from where the other process left it.
 */
async function sqliteStep<T>(db: Kysely<Schema>, work: HistoryWork<T>, recent: RecentChanges | undefined): Promise<Step> {
  const from = await cursors.position(db, work.name);
  const done = await storeBatch(db, undefined, work, from, recent);
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
async function storeBatch<T>(
  read: Kysely<Schema>,
  trx: Kysely<Schema> | undefined,
  work: HistoryWork<T>,
  from: number,
  recent: RecentChanges | undefined,
): Promise<Stored<T> | 'done' | 'more'> {
  const rows = recent?.after(from) ?? (await rowsAfter(read, from, NEWEST, BATCH));
  const last = rows.at(-1);
  if (last === undefined) return 'done';
  const made = await work.compute(read, rows);
  const write = async (tx: Kysely<Schema>) => {
    if (!(await cursors.move(tx, work.name, from, last.item.id))) return false;
    await work.store(tx, made, last.item.id);
    return true;
  };
  const moved = trx === undefined ? await read.transaction().execute(write) : await write(trx);
  // Another process moved the cursor first (SQLite only): start again from where it is.
  if (!moved) return 'more';
  return { made, full: rows.length === BATCH };
}

async function committed<T>(work: HistoryWork<T>, stored: Stored<T>): Promise<Step> {
  await work.committed(stored.made);
  return stored.full ? 'more' : 'done';
}

/**
 * `work`, one run at a time; a call while one runs gets the next run, shared by every call until
 * it starts. `idle` resolves once no run is running or waiting.
 */
function serialized(work: () => Promise<void>): { run: () => Promise<void>; idle: () => Promise<void> } {
  let tail: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | undefined;
  return {
    run() {
      waiting ??= tail.then(() => {
        waiting = undefined;
        return work();
      });
      const next = waiting;
      tail = next.catch(() => {});
      return next;
    },
    idle: () => tail,
  };
}
