import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { harness } from '../helpers/harness.js';

// A demo loaded into an empty PostgreSQL database left the planner believing its tables were still
// empty until autovacuum came round: the history processors' reads right after the load were planned
// as sequential scans (on the scale-1 demo, 20 s of 11 reads of the touched markets' rows, and 16 s
// of reading the history back, half of the whole load). SQLite's planner uses no such statistics.
describe('the demo loaded into an empty PostgreSQL database', () => {
  it('leaves the planner the statistics of what it wrote', async () => {
    const t = await harness({ dialect: 'postgres', clock: manualClock(Date.parse('2031-03-01T12:00:00Z')) });
    try {
      await loadDemoData(t.ctx, { scale: 0.02 });
      const { rows } = await sql<{ relname: string; reltuples: number }>`select relname, reltuples from pg_class where relname in ('odds', 'odds_history') order by relname`.execute(t.database.db);
      const odds = await t.database.db.selectFrom('odds').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      // What was analyzed: the first import's rows (the history grows after it, with the price moves).
      expect(rows.map((r) => r.relname)).toEqual(['odds', 'odds_history']);
      expect(Number(rows[0]?.reltuples)).toBe(Number(odds.n));
      expect(Number(rows[1]?.reltuples)).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
