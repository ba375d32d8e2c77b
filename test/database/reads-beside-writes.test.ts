import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { backgroundTurn, inForeground, LOOP_SLICE_MS, putForegroundFirst } from '../../src/platform/db/loop-slices.js';
import { type Harness, harness } from '../helpers/harness.js';

/** Keeps the event loop busy for `ms`, as a long synchronous stretch of work does. */
function holdTheLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else runs meanwhile
  }
}

/** Lets the event loop turn `n` times: whatever in this process was ready to run has run. */
async function loopTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A promise and the function that settles it: steps by promises, not by timers. */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire = () => {};
  const done = new Promise<void>((resolve) => (fire = resolve));
  return { done, fire };
}

/** A test app on an SQLite file of its own, its background jobs stopped: the database for a describe block. */
function sqliteFileDatabase(name: string): { database: () => Database; t: () => Harness } {
  let dir: string;
  let t: Harness;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `sportsdata-${name}-`));
    t = await harness({ dialect: 'sqlite', databaseUrl: `sqlite:${join(dir, 'db.sqlite')}` });
    await t.ctx.background.stop();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { database: () => t.database, t: () => t };
}

// A write transaction held the process's one SQLite connection from BEGIN to COMMIT, and the
// event loop for every statement in between: a read that missed the cache waited for the whole
// import.
describe('reads beside a write transaction on an SQLite file', () => {
  const file = sqliteFileDatabase('reads');
  let t: Harness;
  let database: Database;
  beforeAll(() => {
    t = file.t();
    database = file.database();
  });

  it('a read answers while a transaction is open, and sees the last commit, not the open writes', async () => {
    const inserted = signal();
    const finish = signal();
    const transaction = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sports').values({ id: 910_001, key: 'open', name: 'Open' }).execute();
      // The transaction's own statements see its writes.
      expect(await trx.selectFrom('sports').select('id').where('id', '=', 910_001).execute()).toEqual([{ id: 910_001 }]);
      inserted.fire();
      await finish.done;
    });
    await inserted.done;
    // Answered while the transaction still holds the writer: it would wait forever otherwise.
    expect(await database.db.selectFrom('sports').select('id').where('id', '=', 910_001).execute()).toEqual([]);
    expect((await t.anonymous.get('/healthz')).statusCode).toBe(200);
    finish.fire();
    await transaction;
    expect(await database.db.selectFrom('sports').select('id').where('id', '=', 910_001).execute()).toEqual([{ id: 910_001 }]);
  });

  it('a transaction that has held the event loop for a slice gives it a turn before its next statement, and a read runs in it', async () => {
    const turns: number[] = [];
    let read: Promise<unknown> | undefined;
    let statementsDone = 0;
    let readAnsweredAt = -1;
    // From a fresh turn of the loop, as a request's handler starts: whether the loop was held before
    // the transaction began must not decide which of its statements give a turn.
    await loopTurns(1);
    await database.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 5; n += 1) {
        // Runs only if the loop turns before the statement: awaits alone (microtasks) never reach it.
        setImmediate(() => turns.push(n));
        holdTheLoop(LOOP_SLICE_MS + 1);
        await trx.insertInto('sports').values({ id: 910_100 + n, key: `turn-${n}`, name: 'Turn' }).execute();
        statementsDone += 1;
        if (n === 1) read = database.db.selectFrom('sports').select('id').execute().then(() => (readAnsweredAt = statementsDone));
      }
    });
    expect(turns).toEqual([0, 1, 2, 3, 4]);
    await read;
    // The read asked after the second statement answered before the transaction's last one ran.
    expect(readAnsweredAt).toBeGreaterThanOrEqual(2);
    expect(readAnsweredAt).toBeLessThan(5);
  });

  it('a write outside the transaction still waits for it, then runs', async () => {
    const order: string[] = [];
    const inserted = signal();
    const finish = signal();
    const transaction = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sports').values({ id: 910_201, key: 'first', name: 'First' }).execute();
      inserted.fire();
      await finish.done;
      order.push('committing');
    });
    await inserted.done;
    const write = database.db.insertInto('sports').values({ id: 910_202, key: 'second', name: 'Second' }).execute().then(() => order.push('written'));
    // SQLite runs in this process and without I/O waits: a write let through would have run within
    // a few turns of the loop (the slices' turn included), not only after a timer.
    await loopTurns(5);
    expect(order).toEqual([]);
    finish.fire();
    await Promise.all([transaction, write]);
    expect(order).toEqual(['committing', 'written']);
  });
});

// On the import thread, the history processors' reads and computations came in between an import's
// statements a slice at a time, and an import of 500 changes took several times its own work.
describe('foreground first: an import transaction before the work after the imports (SQLite)', () => {
  const file = sqliteFileDatabase('foreground');
  let database: Database;
  beforeAll(() => {
    database = file.database();
    putForegroundFirst();
  });
  afterAll(() => putForegroundFirst(false));

  it('a foreground transaction gives the loop no turn from its first statement to its commit', async () => {
    const order: string[] = [];
    await inForeground(() =>
      database.db.transaction().execute(async (trx) => {
        for (let n = 0; n < 5; n += 1) {
          setImmediate(() => order.push(`turn ${n}`));
          holdTheLoop(LOOP_SLICE_MS + 1);
          await trx.insertInto('sports').values({ id: 910_300 + n, key: `fg-${n}`, name: 'Foreground' }).execute();
        }
        order.push('committing');
      }),
    );
    await loopTurns(1);
    expect(order).toEqual(['committing', 'turn 0', 'turn 1', 'turn 2', 'turn 3', 'turn 4']);
  });

  it('background work at its turn waits while foreground work runs, and goes on once it ends', async () => {
    const order: string[] = [];
    const finish = signal();
    const foreground = inForeground(() => finish.done.then(() => order.push('foreground done')));
    const turn = backgroundTurn();
    expect(turn).toBeDefined();
    const background = Promise.resolve(turn).then(() => order.push('background'));
    await loopTurns(5);
    expect(order).toEqual([]);
    finish.fire();
    await Promise.all([foreground, background]);
    expect(order).toEqual(['foreground done', 'background']);
  });

  it('a read made while a background transaction holds the writer never waits for the foreground import waiting on that writer', async () => {
    const order: string[] = [];
    const holding = signal();
    const foregroundAsked = signal();
    const background = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sports').values({ id: 910_400, key: 'bg', name: 'Background' }).execute();
      holding.fire();
      await foregroundAsked.done;
      // Read outside its own transaction, while the foreground import waits for the writer it holds.
      await database.db.selectFrom('sports').select('id').execute();
      order.push('background read');
    });
    await holding.done;
    const foreground = inForeground(() =>
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('sports').values({ id: 910_401, key: 'fg', name: 'Foreground' }).execute();
        order.push('foreground wrote');
      }),
    );
    foregroundAsked.fire();
    await Promise.all([background, foreground]);
    expect(order).toEqual(['background read', 'foreground wrote']);
  });

  it('off (a serving thread), a read asked during a transaction answers before its commit', async () => {
    putForegroundFirst(false);
    try {
      const order: string[] = [];
      let read: Promise<unknown> | undefined;
      await inForeground(() =>
        database.db.transaction().execute(async (trx) => {
          for (let n = 0; n < 5; n += 1) {
            holdTheLoop(LOOP_SLICE_MS + 1);
            await trx.insertInto('sports').values({ id: 910_500 + n, key: `off-${n}`, name: 'Off' }).execute();
            if (n === 1) read = database.db.selectFrom('sports').select('id').execute().then(() => order.push('read'));
          }
          order.push('committing');
        }),
      );
      await read;
      expect(order).toEqual(['read', 'committing']);
    } finally {
      putForegroundFirst();
    }
  });
});

// A feed of imports and background jobs could take every connection of the pool, and a read
// then waited for one of them to commit.
describe('the PostgreSQL pool keeps read connections free', () => {
  let t: Harness;
  let database: Database;
  beforeAll(async () => {
    t = await harness({ dialect: 'postgres' });
    await t.ctx.background.stop();
    // A pool of four: two places for transactions, two kept for reads.
    database = openDatabase(t.config.databaseUrl, { poolSize: 4, waitMs: 2000 });
  });
  afterAll(async () => {
    await database?.close();
    await t?.close();
  });

  it('transactions beyond the pool minus its reserve wait in order; a read still answers', async () => {
    const finish = signal();
    const order: number[] = [];
    const begun: Array<() => void> = [];
    const started = [0, 1, 2, 3].map(
      (n) =>
        new Promise<void>((resolve) => {
          begun[n] = resolve;
        }),
    );
    const writers = [0, 1, 2, 3].map((n) =>
      database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        order.push(n);
        begun[n]?.();
        await finish.done;
      }),
    );
    try {
      await Promise.all(started.slice(0, 2));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The first two asked hold their connections (in either order); the other two wait without taking one.
      expect([...order].sort()).toEqual([0, 1]);
      const read = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(read.rows).toEqual([{ one: 1 }]);
    } finally {
      finish.fire();
    }
    await Promise.all(writers);
    expect([...order.slice(2)].sort()).toEqual([2, 3]);
  });
});
