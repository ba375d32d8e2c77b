import { describe, expect, it } from 'vitest';
import { chunksOf, paddedList } from '../../src/platform/chunks.js';

describe('lists cut and padded for statements', () => {
  it('chunksOf cuts a list in order into lists of at most the size', () => {
    expect([...chunksOf([1, 2, 3, 4, 5], 2)]).toEqual([[1, 2], [3, 4], [5]]);
    expect([...chunksOf([], 2)]).toEqual([]);
  });

  it('paddedList pads to the next power of two (at least the least size) with the last item, so lengths fall in a few classes', () => {
    expect(paddedList([])).toEqual([]);
    expect(paddedList([1, 2, 3])).toEqual([1, 2, 3, 3, 3, 3, 3, 3]);
    expect(paddedList([1, 2], 2)).toEqual([1, 2]);
    expect(paddedList([1, 2, 3], 2)).toEqual([1, 2, 3, 3]);
    const lengths = new Set(Array.from({ length: 1_000 }, (_, n) => paddedList(Array.from({ length: n + 1 }, (_, i) => i)).length));
    expect([...lengths]).toEqual([8, 16, 32, 64, 128, 256, 512, 1024]);
    // Nothing but the last item is added: as an `in` list it means the same.
    const padded = paddedList([5, 9, 7]);
    expect(new Set(padded)).toEqual(new Set([5, 9, 7]));
  });
});
