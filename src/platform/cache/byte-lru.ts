/** What an entry costs beyond its value: the key, the map slot and the bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 64;

/**
 * A least-recently-used map bounded by bytes, not by entry count: a cache of values that range
 * from a few bytes to megabytes (an id list, a rendered page) is only bounded if their sizes
 * count. Sizes are estimates (`sizeOf`); an entry larger than the whole budget is not kept.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    readonly budgetBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Re-insert to mark as most recently used: Map iteration order is insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value, evicting the least recently used until it fits. False when it can never fit. */
  set(key: string, value: V): boolean {
    this.delete(key);
    const bytes = this.sizeOf(value) + 2 * key.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.budgetBytes) return false;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(oldKey);
      this.used -= old.bytes;
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  /** The estimated bytes held, never above the budget. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}
