/** What an entry costs beyond its value: the key, the map slot and the bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 64;

interface Entry<V> {
  value: V;
  bytes: number;
}

/**
 * A map of recently used entries bounded by bytes, not by entry count: a cache of values that
 * range from a few bytes to megabytes (an id list, a rendered page) is only bounded if their sizes
 * count. Sizes are estimates (`sizeOf`).
 *
 * Two generations of at most half the budget each, as LruCache keeps by count (decision 0141): new
 * entries and entries used from the older generation go to the younger; when the younger would
 * outgrow its half it becomes the older and the old older one is dropped. What was used within the
 * last half-budget of insertions is always kept, and a hit in the younger generation is one map
 * lookup, where a strict LRU moved the entry on every hit: a delete and a set, several times the
 * cost of a lookup on a map of a few thousand pages (decision 0149). An entry larger than half the
 * budget is not kept.
 */
export class ByteLru<V> {
  private young = new Map<string, Entry<V>>();
  private old = new Map<string, Entry<V>>();
  private youngBytes = 0;
  private oldBytes = 0;
  private readonly half: number;

  constructor(
    readonly budgetBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {
    this.half = Math.floor(budgetBytes / 2);
  }

  get(key: string): V | undefined {
    const entry = this.young.get(key);
    if (entry !== undefined) return entry.value;
    const aging = this.takeOld(key);
    if (aging === undefined) return undefined;
    this.keep(key, aging);
    return aging.value;
  }

  /** Stores a value. False when it is too large to keep (more than half the budget). */
  set(key: string, value: V): boolean {
    this.delete(key);
    const bytes = this.sizeOf(value) + 2 * key.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.half) return false;
    this.keep(key, { value, bytes });
    return true;
  }

  delete(key: string): void {
    const entry = this.young.get(key);
    if (entry !== undefined) {
      this.young.delete(key);
      this.youngBytes -= entry.bytes;
      return;
    }
    this.takeOld(key);
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
    this.youngBytes = 0;
    this.oldBytes = 0;
  }

  /** The estimated bytes held, never above the budget. */
  get bytes(): number {
    return this.youngBytes + this.oldBytes;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  /** Removes an entry from the older generation, and gives it back. */
  private takeOld(key: string): Entry<V> | undefined {
    const entry = this.old.get(key);
    if (entry === undefined) return undefined;
    this.old.delete(key);
    this.oldBytes -= entry.bytes;
    return entry;
  }

  private keep(key: string, entry: Entry<V>): void {
    if (this.youngBytes + entry.bytes > this.half) {
      this.old = this.young;
      this.oldBytes = this.youngBytes;
      this.young = new Map();
      this.youngBytes = 0;
    }
    this.young.set(key, entry);
    this.youngBytes += entry.bytes;
  }
}
