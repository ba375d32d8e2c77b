import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from './config.js';
import { createHistoryWork } from './history-work.js';
import { createBackground } from './platform/background.js';
import type { ChangeFeed } from './platform/cache/change-feed.js';
import { createNodeChangeFeed } from './platform/cache/node-change-feed.js';
import type { Clock } from './platform/clock.js';
import { connectDatabase } from './platform/db/connect.js';
import { putForegroundFirst } from './platform/db/loop-slices.js';
import { createLogger } from './platform/logging.js';
import { createRecentChanges, type RecentChanges } from './modules/history/index.js';
import { createImportService, type FromImportThread, threadErrorOf, type ToImportThread } from './modules/import/index.js';
import { releaseAliased } from './modules/sources/index.js';

/**
 * The import thread's program (decision 0333): the serving thread's `POST /admin/v1/import` imports
 * made here, with a database connection of this thread's own, and the work after them (the history
 * processors, the signals, the webhooks' former) run here after the imports that wake them. What
 * the serving thread's readers need is told to it as it happens: each import's changes after its
 * commit, and each counter this thread bumps.
 */
const port = parentPort;
if (port === null) throw new Error('src/import-thread.ts runs as a worker thread of a serving process');
const { config } = workerData as { config: Config };
const tell = (message: FromImportThread) => port.postMessage(message);

const log = createLogger(config.logLevel).child({ role: 'import thread' });
yieldToServing(config.importThreadNice);
const database = await connectDatabase(config.databaseUrl);
// SQLite: this thread's one writer and its reads run here, and the imports go first (decision 0335).
// PostgreSQL: the work after the imports holds pooled connections and row locks, so nothing waits on the imports.
if (database.dialect === 'sqlite') putForegroundFirst();
const clock = followingClock();
const background = createBackground();
// Without Redis: the serving thread tells the other nodes of this thread's changes as of its own.
const changes = toldChanges(createNodeChangeFeed({ db: database.db, pollMs: config.changePollMs, redis: undefined, background }));
const recent = toldRecent(createRecentChanges());
createHistoryWork({ config, db: database.db, clock, changes, background, recent });
const importer = createImportService({ database, clock, changes, releaseAliased, recent });
await background.start(log);

port.on('message', (message: ToImportThread) => {
  if (message.type === 'stop') {
    void stop();
    return;
  }
  clock.follow(message.now);
  importer.importChecked(message.dataset).then(
    (result) => tell({ type: 'done', id: message.id, result }),
    (error: unknown) => {
      const failed = threadErrorOf(error);
      // The serving thread answers it and logs a 500; its stack is only here.
      if (failed.kind === 'other') log.error({ err: error }, 'import failed');
      tell({ type: 'failed', id: message.id, error: failed });
    },
  );
});
tell({ type: 'ready' });

async function stop(): Promise<void> {
  await background.stop();
  await database.close();
  port?.close();
}

/** This thread's change feed, which also tells the serving thread of every counter it moves. */
function toldChanges(feed: ChangeFeed): ChangeFeed {
  return {
    ...feed,
    async changed(name) {
      await feed.changed(name);
      tell({ type: 'changed', name });
    },
  };
}

/** The imports' changes held for this thread's processors, and told to the serving thread's streams. */
function toldRecent(held: RecentChanges): RecentChanges {
  return {
    hold(after, rows) {
      held.hold(after, rows);
      tell({ type: 'hold', after, rows });
    },
    after: (afterId, limit) => held.after(afterId, limit),
  };
}

/**
 * This thread's nice value (Linux), so that the serving thread's reads get the CPU first when the
 * cores are busy: the feed's work takes what is left. On a system without per-thread priorities
 * (no /proc/thread-self) it runs at the process's, and says so once.
 */
function yieldToServing(nice: number): void {
  if (nice === 0) return;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    setPriority(threadId, nice);
  } catch (error) {
    log.info({ err: error instanceof Error ? error.message : String(error) }, 'the import thread runs at the process\'s priority');
  }
}

/**
 * The serving thread's clock as this thread sees it: the reading each import carries, moved on by
 * the time passed since. With the system clock that is the system clock; a test's pinned clock is
 * followed too.
 */
function followingClock(): Clock & { follow(now: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    follow(now) {
      offset = now - Date.now();
    },
  };
}
