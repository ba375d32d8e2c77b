/**
 * A small map of recently used entries, bounded by entry count: two generations of at most half
 * the capacity each. New entries and entries used from the older generation go to the younger;
 * when the younger is full it becomes the older and the old older one is dropped. So what was used
 * within the last half-capacity insertions is always kept, and a hit in the younger generation is
 * one Map lookup — where a strict LRU moves the entry on every hit (a delete and a set, which on
 * a large map also churns its backing store): decision 0141.
 */
export class LruCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aging = this.old.get(key);
    if (aging !== undefined) {
      this.old.delete(key);
      this.keep(key, aging);
    }
    return aging;
  }

  /** The value kept for `key`, else `make(key)`, kept from now on. */
  getOrMake(key: K, make: (key: K) => V): V {
    let value = this.get(key);
    if (value === undefined) this.set(key, (value = make(key)));
    return value;
  }

  set(key: K, value: V): void {
    this.old.delete(key);
    this.keep(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  private keep(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}
