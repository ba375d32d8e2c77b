import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { importDataset } from '../helpers/data.js';
import { type Reader, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';

/** The longest gap between ticks of a 5 ms interval while `work` runs. */
async function longestGap<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number; ms: number }> {
  let last = performance.now();
  let gapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    return { result, gapMs: Math.max(gapMs, performance.now() - last), ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

const BODIES: Array<Record<string, unknown>> = [
  {},
  { flow_type: 'fact' },
  { sport_ids: [2] },
  { league_key: 'nba' },
  { team_ids: [100, 210] },
  { player_ids: [1000, 1002] },
  { operator_ids: [1] },
  { bet_type: 'parlay' },
  { likelihood_type: 'possible', min_hit_rate_threshold: 30 },
  { event_start_date_from: '2030-06-15', event_start_date_to: '2030-06-16' },
];

// Building the id list of a new flows filter at --scale 10 held the event loop
// for 50–340 ms in one block (better-sqlite3 runs the query inside the call).
describe('long reads of an SQLite file', () => {
  let dir: string;
  let file: Reader;
  let memory: Reader;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sportsdata-long-reads-'));
    file = await reader({ dialect: 'sqlite', databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`, dataset: eventsFlowsDataset });
    memory = await reader({ dialect: 'sqlite', dataset: eventsFlowsDataset });
  });
  afterAll(async () => {
    await file?.t.close();
    await memory?.t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leave the event loop free while they run', async () => {
    // About three million ids, computed by SQLite: a read far longer than any tick.
    const { database } = file.t;
    const query = sql<{ x: number }>`with recursive n(x) as (select 1 union all select x + 1 from n where x < 3000000) select x from n`;
    const { result, gapMs, ms } = await longestGap(() => database.readIds({ compile: () => query.compile(database.db) }));
    expect(result.length).toBe(3_000_000);
    expect(result[2_999_999]).toBe(3_000_000);
    expect(ms).toBeGreaterThan(200);
    // Correctness, not performance: run on the loop, the read would be one gap as long as
    // itself. A loaded machine (the whole suite, other processes) may pause any process briefly.
    expect(gapMs).toBeLessThan(Math.max(100, ms / 3));
  });

  it.each(BODIES)('give the answers the connection itself gives: %j', async (body) => {
    for (const url of ['/v1/trends/mixed-flows', '/v1/trends/flows']) {
      expect(await file.allIds(url, body, 25)).toEqual(await memory.allIds(url, body, 25));
    }
  });
});

// Whole reference tables and key indexes are read in keyset chunks of 2,000 rows: the lists and
// lookups must come out exactly as from one query, across chunk boundaries.
describe('reference tables read in chunks', () => {
  const PLAYERS = 4_500;
  let t: Harness;
  let apiKey: string;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite' });
    const teams = Array.from({ length: 3 }, (_, i) => ({ id: i + 1, key: `team-${i + 1}`, name: `Team ${i + 1}`, league_id: 1 }));
    // Ids out of insertion order and with gaps: the order is the id's, not the rows'.
    const players = Array.from({ length: PLAYERS }, (_, i) => ({ id: (PLAYERS - i) * 3, key: `p${PLAYERS - i}`, name: `P ${i}`, team_id: (i % 3) + 1 }));
    await importDataset(t, { sports: [{ id: 1, key: 's', name: 'S' }], leagues: [{ id: 1, key: 'l', name: 'L', sport_id: 1 }], teams, players });
    apiKey = (await onboardClient(t)).apiKey;
  });
  afterAll(async () => t.close());

  it('list every player once, in id order, with each filter', async () => {
    const ids: number[] = [];
    for (let page = 1; page <= PLAYERS / 100; page += 1) {
      const res = await t.as({ apiKey }).get(`/v1/references/players?page=${page}&page_size=100`);
      ids.push(...(res.json() as { results: Array<{ id: number }> }).results.map((p) => p.id));
    }
    expect(ids).toEqual(Array.from({ length: PLAYERS }, (_, i) => (i + 1) * 3));
    expect((await t.as({ apiKey }).get('/v1/references/players?team_key=team-2&page_size=1')).json()).toMatchObject({ total_count: PLAYERS / 3 });
  });

  it('resolve keys on either side of a chunk boundary', async () => {
    // Key pK has id 3K: chunks end at p2000 and p4000.
    for (const key of ['p1', 'p2000', 'p2001', 'p4001', 'team-1.p4500']) {
      const res = await t.as({ apiKey }).post('/v1/trends/flows', { player_key: key });
      expect(res.statusCode, `${key}: ${res.body}`).toBe(200);
    }
  });
});
