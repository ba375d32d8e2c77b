import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createHistoryWork } from '../../src/history-work.js';
import { createRecentChanges } from '../../src/modules/history/index.js';
import { createBackground } from '../../src/platform/background.js';
import { createChangeFeed } from '../../src/platform/cache/change-feed.js';
import { manualClock } from '../../src/platform/clock.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrations.js';
import { DIALECTS, freshDatabaseUrl, TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from '../helpers/app.js';
import { quietLog } from '../helpers/quiet-log.js';

// Beside the import thread, the serving thread also ran the work after the imports on its own timer,
// and on SQLite both threads computed the same batches: the serving thread's were thrown away, and
// took its reads' time.
describe.each(DIALECTS)('the work after the imports, on a timer or not (%s)', (dialect) => {
  /**
   * The statements the work ran while its jobs were started and stopped again (a run begun at
   * start has ended by then), built as a thread builds it on a connection of its own.
   */
  async function startedAndStopped(onTimer: boolean | undefined): Promise<string[]> {
    const statements: string[] = [];
    const { url, drop } = await freshDatabaseUrl(dialect);
    const database = openDatabase(url, { onQuery: (sql) => statements.push(sql) });
    await migrateToLatest(database.db);
    statements.length = 0;
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', JWT_SECRET: TEST_JWT_SECRET, ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    const changes = createChangeFeed(database.db, 60_000);
    const background = createBackground();
    createHistoryWork({ config, db: database.db, clock: manualClock(Date.now()), changes, background, recent: createRecentChanges(), ...(onTimer === undefined ? {} : { onTimer }) });
    await background.start(quietLog);
    await background.stop();
    changes.stop();
    await database.close();
    await drop();
    return statements;
  }

  it('off the timer (a serving thread beside its import thread), nothing runs at start; on it, every processor does', async () => {
    expect(await startedAndStopped(false)).toEqual([]);
    expect((await startedAndStopped(undefined)).some((sql) => sql.includes('feed_cursors'))).toBe(true);
  });
});
