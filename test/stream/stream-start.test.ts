import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';
import { openStream } from '../helpers/sse.js';
import { type Change, historyDataset, odds } from '../history/fixture.js';

/**
 * A client that has its 200 may import at once and expect to see the change on its stream. So
 * the stream must know where it starts (the newest change of the price history) before it answers:
 * a starting point read after the 200 could already hold the client's own change, and skip it.
 * PostgreSQL shows it without a race to win: a lock on the history holds the read of its newest
 * id for as long as the test likes (SQLite reads in the same turn, so there is no window to hold).
 */
it('an odds stream answers 200 only once it knows its starting point, so a change imported after the 200 reaches it (postgres)', async () => {
  const t = await harness({ dialect: 'postgres', env: { STREAM_HEARTBEAT_MS: '200' } });
  const locker = new pg.Client({ connectionString: t.config.databaseUrl });
  try {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.import(historyDataset(t.clock.now()));
    const { apiKey } = await t.client({ tier: 'pro' });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE odds_history IN ACCESS EXCLUSIVE MODE');

    const opening = openStream(`${url}/v1/stream/odds?event_ids=100`, { 'x-api-key': apiKey });
    expect(await Promise.race([opening.then(() => 'answered'), sleep(1000).then(() => 'waiting')])).toBe('waiting');
    await locker.query('COMMIT');
    const s = await opening;
    expect(s.status).toBe(200);

    await t.import({ odds: [odds(1, 100, 1, 1, 'home', 2.34)] });
    expect((JSON.parse((await s.next()).data) as Change).price_decimal.to).toBe(2.34);
    s.close();
  } finally {
    await locker.end().catch(() => {});
    await t.close();
  }
}, 30_000);
