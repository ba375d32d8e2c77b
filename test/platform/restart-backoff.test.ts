import { describe, expect, it } from 'vitest';
import { createRestartBackoff } from '../../src/platform/cluster/restart-backoff.js';

describe('the restart backoff', () => {
  it('replaces a worker that ran well at once, and waits longer after each crash in a row, up to a bound', () => {
    const backoff = createRestartBackoff({ baseMs: 500, maxMs: 4000, stableMs: 10_000 });
    expect([100, 100, 100, 100, 100, 100].map((ran) => backoff.next(ran))).toEqual([0, 500, 1000, 2000, 4000, 4000]);
    expect(backoff.next(60_000)).toBe(0);
    expect(backoff.next(50)).toBe(500);
  });
});
