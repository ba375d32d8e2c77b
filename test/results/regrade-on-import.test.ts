import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { BASKETBALL, LIVE, MOVED, oddsAt, resultsDataset } from './fixture.js';

interface ImportAnswer {
  graded?: { events: number; grades: number };
}
interface Grade {
  odds_id: number;
  closing_price: number | null;
}

/**
 * A live feed moves the prices of games under way after every import: those moves change no grade
 * (the close is the last price before the start), so the import grades nothing again for them,
 * while a late price from before the start changes the close and regrades the game.
 */
describe.each(DIALECTS)('grading after a price import (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));
  const importing = async (dataset: Record<string, unknown[]>) => (await h.admin.ok<ImportAnswer>('/admin/v1/import', dataset)).graded;
  const closeOfRow1 = async () => {
    const caller = h.as({ apiKey: (await h.client({ tier: 'pro' })).apiKey });
    const results = await caller.ok<{ grades: Grade[] }>('/v1/results/by-event', { event_id: BASKETBALL });
    return results.grades.find((g) => g.odds_id === 1)?.closing_price;
  };

  it('regrades an ended game for a price moved before its start, not for one moved after it', async () => {
    expect((await importing(resultsDataset()))?.events).toBeGreaterThan(0);
    const close = await closeOfRow1();
    // The same rows again: nothing changed, nothing to grade.
    expect(await importing({ odds: oddsAt(LIVE, 1.1) })).toEqual({ events: 0, grades: 0 });
    expect(await importing({ odds: oddsAt(LIVE, 1.1) })).toEqual({ events: 0, grades: 0 });
    expect(await closeOfRow1()).toBe(close);
    const late = await importing({ odds: oddsAt(MOVED, 1.02) });
    expect(late?.events).toBeGreaterThan(0);
    expect(late?.grades).toBeGreaterThan(0);
    expect(await closeOfRow1()).not.toBe(close);
  });

  it('regrades when a row of an ended game changes what it is graded on, whenever it changed', async () => {
    const [row] = oddsAt(LIVE, 1.1);
    const moved = { ...row, line: 3.5 };
    expect((await importing({ odds: [moved] }))?.events).toBe(1);
  });
});
