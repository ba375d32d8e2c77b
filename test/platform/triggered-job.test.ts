import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBackground } from '../../src/platform/background.js';
import { createChangeFeed } from '../../src/platform/cache/change-feed.js';
import { createTriggeredJob } from '../../src/platform/triggered-job.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/app.js';
import { quietLog } from '../helpers/quiet-log.js';

// An import told the change feed of its commit, and every job that woke began its run inside that
// call: the jobs' first statements ran between the import's last awaits, before it could answer.
describe.each(DIALECTS)('a job woken by a change (%s)', (dialect) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase(dialect);
  });
  afterAll(async () => test.close());

  it('starts on the next turn of the event loop: what told of the change goes on first', async () => {
    const feed = createChangeFeed(test.database.db, 60_000);
    const background = createBackground();
    const order: string[] = [];
    const job = createTriggeredJob({ name: 'test job', changes: feed, background, wakeOn: 'data', everyMs: 60_000, work: async () => void order.push('work') });
    try {
      await background.start(quietLog);
      await job.run();
      order.length = 0;
      await test.database.db.transaction().execute((trx) => feed.bump(trx, 'data'));
      await feed.changed('data');
      order.push('the change told');
      await new Promise((resolve) => setImmediate(resolve));
      await job.run();
      expect(order.slice(0, 2)).toEqual(['the change told', 'work']);
    } finally {
      await background.stop();
      feed.stop();
    }
  });

  // A serving thread ran the work after the imports on its own timer beside its import thread, which
  // ran it too: each batch was computed twice, once on the thread that serves the reads.
  it('with everyMs 0, runs neither at start nor on a timer: only when woken by its node\'s change, or asked', async () => {
    const feed = createChangeFeed(test.database.db, 60_000);
    const background = createBackground();
    const runs = { timed: 0, woken: 0 };
    createTriggeredJob({ name: 'timed job', changes: feed, background, wakeOn: 'data', everyMs: 60_000, work: async () => void (runs.timed += 1) });
    const woken = createTriggeredJob({ name: 'woken job', changes: feed, background, wakeOn: 'data', everyMs: 0, work: async () => void (runs.woken += 1) });
    vi.useFakeTimers({ toFake: ['setInterval'] });
    try {
      await background.start(quietLog);
      vi.advanceTimersByTime(60_000);
      // Stopping waits for the runs under way: one begun at start or by a timer is counted by now.
      await background.stop();
      expect(runs).toEqual({ timed: 2, woken: 0 });
      await background.start(quietLog);
      await test.database.db.transaction().execute((trx) => feed.bump(trx, 'data'));
      await feed.changed('data');
      await new Promise((resolve) => setImmediate(resolve));
      await background.stop();
      expect(runs.woken).toBe(1);
      await woken.run();
      expect(runs.woken).toBe(2);
    } finally {
      vi.useRealTimers();
      await background.stop();
      feed.stop();
    }
  });
});
