import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';

/**
 * db_pool_wait_seconds: a query that finds the connection taken (SQLite's one connection, or a
 * PostgreSQL pool of one) waits, and the wait is what is reported.
 */
describe.each(DIALECTS)('time waiting for a database connection (%s)', (dialect) => {
  let t: Harness;
  let database: Database;
  const waits: number[] = [];

  beforeAll(async () => {
    t = await harness({ dialect });
    // Only this file's queries: the app's change feed would poll the shared SQLite connection every second.
    await t.ctx.background.stop();
    // SQLite: the app's own in-memory database. PostgreSQL: a pool of one over the app's database.
    database = dialect === 'sqlite' ? t.database : openDatabase(t.config.databaseUrl, { poolSize: 1 });
    // The pool's one connection opened now: a first wait would include connecting (a busy machine takes 100 ms).
    await database.db.selectFrom('sports').select('id').execute();
    database.observeConnectionWaits((seconds) => waits.push(seconds));
  });
  afterAll(async () => {
    if (database !== t.database) await database.close();
    await t.close();
  });

  it('a query behind an open transaction waits for it to finish, and that wait is reported', async () => {
    const events: string[] = [];
    waits.length = 0;
    // Steps by promises, not by timers: on a busy machine a 20 ms timer can fire 100 ms late.
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const transaction = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sports').values({ id: 900_001, key: 'held', name: 'Held' }).execute();
      events.push('inserted');
      holding();
      await finished;
      events.push('committing');
    });
    await held; // the transaction holds the connection
    const asked = performance.now();
    const query = database.db.selectFrom('sports').select('id').where('id', '=', 900_001).execute();
    await sleep(100);
    const heldFor = (performance.now() - asked) / 1000;
    finish();
    const rows = await query;
    events.push('selected');
    await transaction;

    // The query ran after the commit: it never slipped into the transaction on the shared connection.
    expect(events).toEqual(['inserted', 'committing', 'selected']);
    expect(rows).toEqual([{ id: 900_001 }]);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThan(0.1); // the transaction found the connection free
    expect(waits[1]).toBeGreaterThanOrEqual(heldFor - 0.005); // the query waited at least as long as the transaction held on
  });

  it('a transaction that fails gives the connection back', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('sports').select('id').execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    waits.length = 0;
    await database.db.selectFrom('sports').select('id').execute();
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeLessThan(0.1);
  });

  it('queries queue in the order they asked, each reported once', async () => {
    waits.length = 0;
    const order: number[] = [];
    const holder = database.db.transaction().execute(async () => {
      await sleep(50);
    });
    await sleep(5);
    await Promise.all(
      [1, 2, 3].map(async (n) => {
        await database.db.selectFrom('sports').select('id').limit(1).execute();
        order.push(n);
      }),
    );
    await holder;
    expect(order).toEqual([1, 2, 3]);
    expect(waits).toHaveLength(4);
  });
});
