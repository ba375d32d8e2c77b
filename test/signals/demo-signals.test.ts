import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PerformanceStats } from '../../src/modules/signals/signals.performance.js';
import { DIALECTS } from '../helpers/app.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';
import type { Caller, Harness } from '../helpers/harness.js';

interface Signal {
  event_id: number;
  detected_at: string;
  outcome: string | null;
  clv_pct: number | null;
}

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(DEMO_NOW + offset * DAY_MS).toISOString().slice(0, 10);

/** The demo's played history fills the record: the detector runs after each of its imports, the grader after its grading. */
describe.each(DIALECTS)('signals of the demo (%s)', (dialect) => {
  let t: Harness;
  let me: Caller;

  beforeAll(async () => {
    t = await demoHarness({ dialect, now: DEMO_NOW, scale: 0.05 });
    me = t.as(await t.client({ tier: 'enterprise' }));
  }, 240_000);
  afterAll(async () => t?.close());

  it('records signals over the played days, graded with CLV, each detected before its event started', async () => {
    const range = { start_date: day(-10), end_date: day(0) };
    const { overall } = await me.ok<{ overall: PerformanceStats }>('/v1/signals/performance', range);
    expect(overall.won + overall.lost).toBeGreaterThan(0);
    expect(overall.clv_count).toBeGreaterThan(0);
    expect(overall.hit_rate_interval).not.toBeNull();
    const graded = await me.page<Signal>('/v1/signals', { ...range, outcomes: ['won', 'lost', 'push', 'void'], page_size: 100 });
    const starts = new Map(
      (await t.ctx.database.db.selectFrom('events').select(['id', 'start_time']).where('id', 'in', graded.results.map((s) => s.event_id)).execute()).map((e) => [Number(e.id), Number(e.start_time)]),
    );
    for (const signal of graded.results) expect(Date.parse(signal.detected_at)).toBeLessThan(starts.get(signal.event_id) ?? 0);
  });
});
