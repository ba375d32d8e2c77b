import { describe, expect, it } from 'vitest';
import { ByteLru } from '../../src/platform/cache/byte-lru.js';

/** Values are strings whose length is their size; each entry also counts its key (2 bytes a character) and 64 bytes. */
const cacheOf = (budgetBytes: number) => new ByteLru<string>(budgetBytes, (value) => value.length);
/** A value making an entry of exactly `bytes` under key `key`. */
const sized = (key: string, bytes: number) => 'x'.repeat(bytes - 2 * key.length - 64);

describe('ByteLru (two generations bounded by bytes, decision 0149)', () => {
  it('never holds more than its budget, whatever the sizes', () => {
    const cache = cacheOf(10_000);
    for (let i = 0; i < 1000; i += 1) {
      cache.set(`k${i}`, sized(`k${i}`, 100 + ((i * 37) % 4000)));
      expect(cache.bytes).toBeLessThanOrEqual(10_000);
    }
    expect(cache.size).toBeGreaterThan(0);
  });

  it('keeps what was used within the last half-budget of insertions, however old it is', () => {
    const cache = cacheOf(10_000);
    cache.set('hot', sized('hot', 500));
    for (let i = 0; i < 200; i += 1) {
      cache.set(`cold-${i}`, sized(`cold-${i}`, 1000));
      // Used once every four insertions (4,000 bytes): always within the last half-budget (5,000).
      if (i % 4 === 0) expect(cache.get('hot')).toBeDefined();
    }
    expect(cache.get('hot')).toBeDefined();
    expect(cache.get('cold-0')).toBeUndefined();
  });

  it('forgets an entry not used for a whole budget of insertions', () => {
    const cache = cacheOf(10_000);
    cache.set('once', sized('once', 1000));
    for (let i = 0; i < 10; i += 1) cache.set(`other-${i}`, sized(`other-${i}`, 1000));
    expect(cache.get('once')).toBeUndefined();
  });

  it('does not keep an entry larger than half the budget, and says so', () => {
    const cache = cacheOf(10_000);
    expect(cache.set('big', sized('big', 5001))).toBe(false);
    expect(cache.set('fits', sized('fits', 5000))).toBe(true);
    expect([cache.get('big'), cache.get('fits')?.length]).toEqual([undefined, 5000 - 2 * 'fits'.length - 64]);
  });

  it('replaces a value, deletes from either generation, and counts the bytes it holds', () => {
    const cache = cacheOf(4000);
    cache.set('a', sized('a', 1000));
    cache.set('b', sized('b', 1500));
    // 'b' does not fit beside 'a' in the younger half (2,000 bytes): 'a' ages, 'c' joins 'b'.
    cache.set('c', sized('c', 500));
    expect(cache.bytes).toBe(3000);
    cache.set('a', sized('a', 700));
    expect(cache.bytes).toBe(2700);
    cache.delete('a');
    cache.delete('b');
    expect([cache.get('a'), cache.get('b'), cache.size, cache.bytes]).toEqual([undefined, undefined, 1, 500]);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});
