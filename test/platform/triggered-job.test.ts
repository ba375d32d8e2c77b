import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
