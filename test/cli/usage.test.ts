import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { type CliDatabase, cliDatabase, sportsdata } from './cli-helpers.js';

/**
 * `sportsdata usage` showed a client's calls of the last seconds as 0, without saying
 * so. Serving nodes count in memory and write every USAGE_FLUSH_MS; the command reads what was
 * written. It now says that under the days, and the counts appear with the next write.
 */
describe.each(DIALECTS)('sportsdata usage and counts not written yet (%s)', (dialect) => {
  let db: CliDatabase;
  let h: Harness;
  beforeAll(async () => {
    db = await cliDatabase(dialect);
    // A serving node's meter, held still: its counts stay in memory until the test writes them.
    await db.ctx.meter.stop();
    h = await harness({ dialect, context: db.ctx });
  });
  afterAll(async () => {
    await h.close();
    await db.close();
  });

  it('says that the days hold what the nodes have written, and shows the calls once they are written', async () => {
    const { account, credentials } = await db.ctx.clients.create({ name: 'Acme', tier: 'pro', authMethod: 'both' });
    for (let i = 0; i < 3; i++) expect((await h.as(credentials).get('/v1/references/sports')).statusCode).toBe(200);
    const today = new Date(db.ctx.clock.now()).toISOString().slice(0, 10);
    const usage = () => sportsdata(db.env, 'usage', account.id, '--start-date', today);

    const before = await usage();
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(new RegExp(`^${today} +0 `, 'm'));
    expect(before.stdout).toMatch(/requests per day: as the serving nodes have written them, each every USAGE_FLUSH_MS \(\d+ ms\); their calls since are not in them yet/);

    await db.ctx.meter.flush();
    const after = await usage();
    // DATE, REQUESTS, CHARGED, then a column per usage group, each named: three references calls, all charged.
    expect(after.stdout).toMatch(/^DATE +REQUESTS +CHARGED +REFERENCES +EVENTS +ODDS +TRENDS +RESULTS +ACCOUNT$/m);
    expect(after.stdout).toMatch(new RegExp(`^${today} +3 +3 +3 +0 +0 +0 +0 +0$`, 'm'));
  });
});
