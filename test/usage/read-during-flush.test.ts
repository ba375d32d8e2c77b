import pg from 'pg';
import { expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

/**
 * A client's usage is the stored counts plus this node's counts not yet written. A flush moves
 * the counts from memory to the database: a report that read the stored counts before the flush's
 * write and the memory after it found them in neither, and said 0 (as the results suite saw on a
 * busy machine). PostgreSQL shows it without a race to win: a lock on the daily counts holds the
 * report's read, and a flush started meanwhile waits behind it (SQLite has one connection, which
 * a read holds to its end).
 */
it('a usage report read while a flush writes counts every request once (postgres)', async () => {
  const t = await harness({ dialect: 'postgres', env: { USAGE_FLUSH_MS: '600000' } });
  const locker = new pg.Client({ connectionString: t.config.databaseUrl });
  try {
    const client = t.as(await t.client({ tier: 'pro' }));
    await client.ok('/v1/references/sports');
    await client.ok('/v1/references/sports');
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE usage_daily IN ACCESS EXCLUSIVE MODE');
    /** Until a statement waits for the lock in this mode: a read's, or a write's. */
    const waitingFor = async (mode: 'AccessShareLock' | 'RowExclusiveLock') => {
      const query = `SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND mode = $1 AND relation = 'usage_daily'::regclass
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      while (Number((await locker.query<{ n: string }>(query, [mode])).rows[0]?.n) === 0);
    };

    // The report's read of the stored counts waits on the lock; then the flush's write, behind it.
    const report = client.ok<{ days: Array<{ by_group: Record<string, number> }> }>('/v1/account/usage');
    await waitingFor('AccessShareLock');
    const flushed = t.ctx.meter.flush();
    await waitingFor('RowExclusiveLock');
    await locker.query('COMMIT');
    await flushed;
    expect((await report).days.at(-1)?.by_group.references).toBe(2);
    const again = await client.ok<{ days: Array<{ by_group: Record<string, number> }> }>('/v1/account/usage');
    expect(again.days.at(-1)?.by_group.references).toBe(2);
  } finally {
    await locker.end().catch(() => {});
    await t.close();
  }
}, 30_000);
