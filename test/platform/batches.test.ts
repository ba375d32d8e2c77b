import { describe, expect, it } from 'vitest';
import { createBatches } from '../../src/platform/batches.js';

describe('batches of writes that arrive together', () => {
  it('what is added in one turn is flushed together; what is added during a flush goes in the next', async () => {
    const flushed: number[][] = [];
    let release: () => void = () => {};
    const add = createBatches<number>(async (items) => {
      flushed.push(items);
      if (flushed.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = [add(1), add(2), add(3)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toEqual([[1, 2, 3]]);
    const second = [add(4), add(5)];
    release();
    await Promise.all([...first, ...second]);
    expect(flushed).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('a failed flush rejects the adds it carried, and the next flush goes on', async () => {
    let calls = 0;
    const add = createBatches<string>(async () => {
      calls += 1;
      if (calls === 1) throw new Error('storage failed');
    });
    const failed = [add('a'), add('b')];
    await expect(Promise.all(failed)).rejects.toThrow('storage failed');
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: expect.any(Error) },
      { status: 'rejected', reason: expect.any(Error) },
    ]);
    await expect(add('c')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
