import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { createUsageRepository } from '../../src/modules/usage/index.js';
import { DIALECTS, freshDatabaseUrl, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { harness } from '../helpers/harness.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';

/** The client's requests the database holds, read beside a running node: what a kill -9 would leave. */
async function writtenCounts(reader: Database, clientId: string): Promise<number> {
  const rows = await createUsageRepository(reader.db).ofClient(clientId, '1970-01-01', '9999-12-31');
  return rows.reduce((sum, row) => sum + row.requests, 0);
}

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

describe.each(DIALECTS)('no request waits on a write for its count (%s)', (dialect) => {
  it('under 50 concurrent connections not one statement writes; the counts reach the database in the next flush', async () => {
    const statements: string[] = [];
    const h = await harness({
      dialect,
      clock: systemClock,
      env: { LOG_LEVEL: 'warn', USAGE_FLUSH_MS: '600000' },
      onQuery: (sql) => void statements.push(sql),
    });
    const { app, ctx, database } = h;
    try {
      const { account, credentials } = await ctx.clients.create({ name: 'Load', tier: 'enterprise', authMethod: 'api_key' });
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      // Warm the caches the requests go through (the account, the page).
      expect((await fetch(`${address}/v1/references/sports`, { headers: { 'x-api-key': credentials.apiKey } })).status).toBe(200);
      // Only the requests' own statements are looked at: the background jobs (the polls every second,
      // the history processors every 5 s, however many of those a loaded machine's run spans) stop
      // first, and their stop writes the warm-up's count.
      await ctx.background.stop();
      statements.length = 0;

      const result = await autocannon({ url: `${address}/v1/references/sports`, connections: 50, amount: 2000, headers: { 'x-api-key': credentials.apiKey } });
      expect(result.non2xx).toBe(0);
      expect(result.errors).toBe(0);
      const during = [...statements];
      // A cache trusts what it holds only while the change feed's counters are fresh: with its poll
      // stopped, a request reads them once they are due (a read, shared by the requests meanwhile).
      const counters = /^select "name", "version", .* from "change_versions"/;
      expect(during.filter((statement) => !counters.test(statement))).toEqual([]);

      await ctx.meter.flush();
      const writes = statements.slice(during.length).filter((s) => /^insert into "usage_daily"/.test(s));
      expect(writes).toHaveLength(1);
      const rows = await database.db.selectFrom('usage_daily').select('requests').where('client_id', '=', account.id).execute();
      expect(rows.map((r) => Number(r.requests))).toEqual([2001]);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('usage survives a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-usage-'));
  const nodes: NodeProcess[] = [];
  afterAll(async () => {
    for (const node of nodes) await node.stop(2000);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async (env: Record<string, string>) => {
    const node = await startNode({ env });
    nodes.push(node);
    await node.waitUntilReady(60_000);
    return node;
  };
  /** The client's requests of the report's 30 days (a run across midnight counts on two). */
  const requestsReported = async (node: NodeProcess, clientId: string) => {
    const res = await fetch(`${node.url}/admin/v1/clients/${clientId}/usage`, { headers: admin });
    expect(res.status).toBe(200);
    return ((await res.json()) as { days: Array<{ requests: number }> }).days.reduce((sum, day) => sum + day.requests, 0);
  };

  it('a process killed outright loses at most the last flush interval; one stopped gracefully loses nothing', async () => {
    const env = nodeEnv(dataDir, { USAGE_FLUSH_MS: '200' });
    const first = await start(env);
    const created = await fetch(`${first.url}/admin/v1/clients`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme', tier: 'pro', auth_method: 'api_key' }) });
    const { client_id, api_key } = (await created.json()) as { client_id: string; api_key: string };
    for (let i = 0; i < 30; i += 1) expect((await fetch(`${first.url}/v1/references/sports`, { headers: { 'x-api-key': api_key } })).status).toBe(200);
    // Until the node's flush timer has written them (read beside it: a busy machine runs the timer
    // late), then no chance to flush on the way out.
    const reader = openDatabase(env.DATABASE_URL ?? '');
    try {
      expect(await eventually(async () => (await writtenCounts(reader, client_id)) === 30, 30_000)).toBe(true);
    } finally {
      await reader.close();
    }
    first.child.kill('SIGKILL');
    await first.exited;

    // A long interval: only the graceful stop writes these.
    const second = await start({ ...env, USAGE_FLUSH_MS: '600000' });
    expect(await requestsReported(second, client_id)).toBe(30);
    for (let i = 0; i < 12; i += 1) expect((await fetch(`${second.url}/v1/references/sports`, { headers: { 'x-api-key': api_key } })).status).toBe(200);
    expect((await second.stop()).code).toBe(0);

    const third = await start(env);
    expect(await requestsReported(third, client_id)).toBe(42);
  }, 120_000);
});

/** A count is written by the flush after it; the timer and the write may run late on a busy machine by this much. */
const FLUSH_ALLOWANCE_MS = 1000;
/** The most a kill -9 may lose with the defaults: one second of counts. */
const AT_RISK_MS = 1000 + FLUSH_ALLOWANCE_MS;

describe.each(DIALECTS)('kill -9 with the default USAGE_FLUSH_MS (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-kill-'));
  const nodes: NodeProcess[] = [];
  let drop = async () => {};
  afterAll(async () => {
    for (const node of nodes) await node.stop(2000);
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('at every moment of a load, and at a SIGKILL, only the last second of counts is unwritten; the restarted node starts the day from them', async () => {
    const database = dialect === 'postgres' ? await freshDatabaseUrl('postgres') : undefined;
    if (database) drop = database.drop;
    // No USAGE_FLUSH_MS: the default is what is tested.
    const env = nodeEnv(dataDir, database ? { DATABASE_URL: database.url } : {});
    const start = async () => {
      const node = await startNode({ env });
      nodes.push(node);
      await node.waitUntilReady(60_000);
      return node;
    };
    const first = await start();
    const created = await fetch(`${first.url}/admin/v1/clients`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Load', tier: 'enterprise', auth_method: 'api_key' }) });
    const { client_id, api_key } = (await created.json()) as { client_id: string; api_key: string };
    // No 429 under the load: every request is counted.
    const patched = await fetch(`${first.url}/admin/v1/clients/${client_id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ rate_limit_per_minute: 1_000_000_000 }) });
    expect(patched.status).toBe(200);

    // What a kill -9 at any moment would leave: read from the database beside the running server.
    const reader = openDatabase(env.DATABASE_URL ?? '');
    const written = async () => writtenCounts(reader, client_id);
    /** When each answered request got its answer (the server counted it before answering). */
    const answered: number[] = [];
    const answeredBefore = (at: number) => answered.filter((time) => time <= at).length;
    try {
      const until = Date.now() + 6000;
      const load = async () => {
        while (Date.now() < until) {
          const res = await fetch(`${first.url}/v1/references/sports`, { headers: { 'x-api-key': api_key } });
          await res.arrayBuffer();
          expect(res.status).toBe(200);
          answered.push(Date.now());
        }
      };
      const behind: number[] = [];
      const watch = async () => {
        while (Date.now() < until) {
          const at = Date.now();
          const stored = await written();
          behind.push(answeredBefore(at - AT_RISK_MS) - stored);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      await Promise.all([load(), load(), load(), watch()]);
      expect(answered.length).toBeGreaterThan(100);
      // Never more than the last second (and the allowance) unwritten.
      expect(Math.max(...behind)).toBeLessThanOrEqual(0);

      const killedAt = Date.now();
      first.child.kill('SIGKILL');
      await first.exited;
      const kept = await written();
      expect(kept).toBeGreaterThanOrEqual(answeredBefore(killedAt - AT_RISK_MS));
      expect(kept).toBeLessThanOrEqual(answered.length);

      // The restarted node charges the day from what was kept, not from 0.
      const second = await start();
      const usage = await fetch(`${second.url}/admin/v1/clients/${client_id}/usage`, { headers: admin });
      const report = (await usage.json()) as { current: { day: { used: number } }; days: Array<{ charged: number }> };
      expect(report.current.day.used).toBe(kept);
      expect(report.days.at(-1)?.charged).toBe(kept);
    } finally {
      await reader.close();
    }
  }, 120_000);
});
