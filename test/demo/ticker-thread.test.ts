import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadDemoData } from '../../src/modules/demo/index.js';
import { manualClock } from '../../src/platform/clock.js';
import { DIALECTS } from '../helpers/app.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { harness } from '../helpers/harness.js';

// Beside an import thread, the demo ticker imported from the serving thread: the work after each of
// its imports (board events, moves, signals) ran there too, on the thread that serves the reads.
describe.each(DIALECTS)('the demo ticker beside an import thread (%s)', (dialect) => {
  it('imports its ticks through the import thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ticker-thread-'));
    // An in-memory SQLite database cannot be opened by a second thread: a file can.
    const databaseUrl = dialect === 'sqlite' ? { databaseUrl: `sqlite:${join(dir, 'ticker.db')}` } : {};
    const t = await harness({ dialect, clock: manualClock(DEMO_NOW), env: { IMPORT_THREAD: 'true', DEMO_DATA: 'true', DEMO_TICKER_PER_SECOND: '20' }, ...databaseUrl });
    try {
      await loadDemoData(t.ctx, { scale: 0.02 });
      const { importThread, demoTicker } = t.ctx;
      if (importThread === undefined || demoTicker === undefined) throw new Error('the node has no import thread, or no ticker');
      const imports = vi.spyOn(importThread, 'importChecked');
      const ticked = await demoTicker.tick();
      expect(ticked.held).toBe(true);
      expect(ticked.prices.length).toBeGreaterThan(0);
      expect(imports).toHaveBeenCalled();
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
