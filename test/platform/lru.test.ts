import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/platform/cache/lru.js';

describe('LruCache (two generations, decision 0141)', () => {
  it('never holds more than its capacity', () => {
    const cache = new LruCache<number, number>(10);
    for (let i = 0; i < 1000; i += 1) {
      cache.set(i, i);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
  });

  it('keeps what was used within the last half-capacity insertions, however old it is', () => {
    const cache = new LruCache<string, number>(10);
    cache.set('hot', 1);
    for (let i = 0; i < 100; i += 1) {
      cache.set(`cold-${i}`, i);
      // Used once every four insertions: always within the last five.
      if (i % 4 === 0) expect(cache.get('hot')).toBe(1);
    }
    expect(cache.get('hot')).toBe(1);
    expect(cache.get('cold-0')).toBeUndefined();
  });

  it('forgets an entry not used for a whole capacity of insertions', () => {
    const cache = new LruCache<string, number>(10);
    cache.set('once', 1);
    for (let i = 0; i < 10; i += 1) cache.set(`other-${i}`, i);
    expect(cache.get('once')).toBeUndefined();
  });

  it('replaces a value, and deletes from either generation', () => {
    const cache = new LruCache<string, number>(4);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    expect(cache.get('a')).toBe(3);
    cache.delete('a');
    cache.delete('b');
    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([undefined, undefined, 0]);
  });
  it('getOrMake makes a missing value once and keeps it; a value kept is not made again', () => {
    const cache = new LruCache<string, string>(10);
    const made: string[] = [];
    const make = (key: string) => (made.push(key), key.toUpperCase());
    expect([cache.getOrMake('a', make), cache.getOrMake('a', make), cache.getOrMake('b', make)]).toEqual(['A', 'A', 'B']);
    expect(made).toEqual(['a', 'b']);
  });
});
