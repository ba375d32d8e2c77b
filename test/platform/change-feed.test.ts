import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeFeed, createChangeFeed } from '../../src/platform/cache/change-feed.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/app.js';
import { quietLog } from '../helpers/quiet-log.js';

/** Waits until `check` holds, polling every 5 ms, for at most `ms`. */
async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(DIALECTS)('the change feed (%s)', (dialect) => {
  let test: TestDatabase;
  const feeds: ChangeFeed[] = [];
  /** A node's feed over the shared database; stopped after each test. */
  const node = (intervalMs = 20) => {
    const feed = createChangeFeed(test.database.db, intervalMs);
    feeds.push(feed);
    return feed;
  };
  /** What a service does: bump inside the change's transaction, then tell this node. */
  const change = async (feed: ChangeFeed, name: 'clients' | 'data') => {
    await test.database.db.transaction().execute((trx) => feed.bump(trx, name));
    await feed.changed(name);
  };

  beforeAll(async () => {
    test = await openTestDatabase(dialect);
  });
  afterEach(() => {
    for (const feed of feeds.splice(0)) feed.stop();
  });
  afterAll(async () => test.close());

  it('starts from the versions in the database', async () => {
    const writer = node();
    await change(writer, 'data');
    await change(writer, 'data');
    const reader = node();
    expect(reader.version('data')).toBe(0);
    await reader.start(quietLog);
    expect(reader.version('data')).toBe(writer.version('data'));
    expect(reader.version('clients')).toBe(writer.version('clients'));
  });

  it('a committed change moves its counter on this node at once and tells its listeners, not those of the other counter', async () => {
    const feed = node();
    await feed.start(quietLog);
    const heard: string[] = [];
    feed.onChange('data', () => heard.push('data'));
    feed.onChange('clients', () => heard.push('clients'));
    const before = feed.version('data');

    await change(feed, 'data');

    expect(feed.version('data')).toBe(before + 1);
    expect(heard).toContain('data');
    expect(heard).not.toContain('clients');
  });

  it('a rolled-back change moves nothing', async () => {
    const feed = node();
    await feed.start(quietLog);
    const before = feed.version('clients');
    await expect(
      test.database.db.transaction().execute(async (trx) => {
        await feed.bump(trx, 'clients');
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await feed.poll();
    expect(feed.version('clients')).toBe(before);
  });

  it("another node's change reaches a started feed within its poll interval, and its listeners run", async () => {
    const other = node();
    const feed = node(20);
    await feed.start(quietLog);
    let heard = 0;
    feed.onChange('clients', () => (heard += 1));
    const before = feed.version('clients');

    await change(other, 'clients');

    await eventually(() => feed.version('clients') === before + 1);
    expect(heard).toBe(1);
  });

  it('starting twice runs one poller, and stop ends it: no change is seen after stop', async () => {
    const other = node();
    const feed = node(10);
    await feed.start(quietLog);
    await feed.start(quietLog);
    feed.stop();
    const stopped = feed.version('data');

    await change(other, 'data');
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(feed.version('data')).toBe(stopped);
    await feed.poll();
    expect(feed.version('data')).toBe(stopped + 1);
  });
});
