import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { retryWhileBusy } from '../../src/platform/db/busy-retry.js';
import { DatabaseUnavailableError } from '../../src/platform/db/unavailable.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { type Harness, harness } from '../helpers/harness.js';

/**
 * Two nodes starting at once on one SQLite file: the one that imported the dataset can meet the
 * other's lock in any step after it (the moves' detection, the signals, the moves, the grading).
 * Such a step is tried again on its own: the whole first start run again would find the database
 * filled, leave the moves, competitions and grading undone, and report nothing seeded.
 */
describe('a first start whose step after the seeding meets another node’s lock (sqlite)', () => {
  let t: Harness;
  let upserted: Record<string, number> | undefined;
  let busyOnce = true;
  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite', clock: manualClock(DEMO_NOW) });
    const oddsMoves = t.ctx.oddsMoves;
    const run = async () => {
      if (busyOnce) {
        busyOnce = false;
        // What the dialect throws when another process held the write lock past busyWaitMs.
        throw new DatabaseUnavailableError('busy', 'the database stayed locked for 5000 ms');
      }
      await oddsMoves?.run();
    };
    // As the server calls it (serve.ts): the whole first start tried again while busy.
    // Without the competitions (a step of their own after the moves): the moves and the grading tell the later steps ran.
    upserted = await retryWhileBusy(() => ensureDemoData({ ...t.ctx, oddsMoves: { run } }, { competitions: false }));
  }, 300_000);
  afterAll(async () => t.close());

  it('still reports what it seeded, imports the moves and leaves nothing due to grade', async () => {
    expect(busyOnce).toBe(false);
    expect(upserted?.odds).toBeGreaterThan(0);
    expect(await t.database.db.selectFrom('grading_due').select('event_id').execute()).toEqual([]);
    const moved = await t.database.db.selectFrom('odds_history').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(moved.n)).toBeGreaterThan(upserted?.odds ?? 0);
  });
});
