import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabaseUrl } from '../helpers/app.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { BASKETBALL, eventsOf, resultsDataset } from '../results/fixture.js';
import { admin, call, onboard } from './api.js';

/**
 * A score correction imported on node A re-grades the event's odds, and node B, which had the old
 * grades cached, serves the new ones within the propagation bound: both nodes on one database
 * (one SQLite file, or one PostgreSQL database), B learning of the change by its poll.
 */
const PROPAGATION_ALLOWANCE_MS = 5000;
const POLL_MS = '1000';

describe.each(DIALECTS)('re-grading after a score correction, two nodes (%s)', (dialect) => {
  let a: NodeProcess;
  let b: NodeProcess;
  let dataDir: string;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-regrade-'));
    const shared = dialect === 'postgres' ? await freshDatabaseUrl('postgres') : undefined;
    drop = shared?.drop ?? drop;
    const env = nodeEnv(dataDir, { CHANGE_POLL_MS: POLL_MS, ...(shared ? { DATABASE_URL: shared.url } : {}) });
    a = await startNode({ env });
    await a.waitUntilReady();
    b = await startNode({ env });
    await b.waitUntilReady();
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(2000), b?.stop(2000)]);
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('B serves the new grade of a corrected score within the propagation bound', async () => {
    expect((await admin(a.url, 'POST', '/admin/v1/import', resultsDataset())).status).toBe(200);
    const { apiKey } = await onboard(a.url);
    const graded = async (node: NodeProcess) => {
      const answer = await call(node.url, 'POST', '/v1/results/graded', { 'x-api-key': apiKey }, {
        start_date: '2031-03-01', end_date: '2031-03-01', betting_market_ids: [1], outcomes: ['won'], page_size: 100,
      });
      expect(answer.status).toBe(200);
      return (answer.body.results as Array<{ odds_id: number }>).map((r) => r.odds_id);
    };
    // Boston won 110–104: its moneyline rows won, at both books and (cached now) on B.
    expect(await graded(b)).toEqual([1, 1001, 20, 1020]);
    const corrected = await admin(a.url, 'POST', '/admin/v1/import', { events: eventsOf({ home: 104, away: 110 }) });
    expect(corrected.status).toBe(200);
    expect(corrected.body.graded).toMatchObject({ events: 4 });
    expect(await graded(a)).toEqual([2, 1002, 20, 1020]);
    const started = Date.now();
    expect(await eventually(async () => JSON.stringify(await graded(b)) === JSON.stringify([2, 1002, 20, 1020]), PROPAGATION_ALLOWANCE_MS)).toBe(true);
    expect(Date.now() - started).toBeLessThan(PROPAGATION_ALLOWANCE_MS);
    const history = await call(b.url, 'POST', '/v1/results/by-event', { 'x-api-key': apiKey }, { event_id: BASKETBALL, include_superseded: true });
    const row1 = (history.body.grades as Array<{ odds_id: number; outcome: string }>).filter((g) => g.odds_id === 1).map((g) => g.outcome);
    expect(row1).toEqual(['won', 'lost']);
  }, 60_000);
});
