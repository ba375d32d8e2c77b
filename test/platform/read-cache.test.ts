import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeFeed, createChangeFeed } from '../../src/platform/cache/change-feed.js';
import type { ReadCacheBudgets } from '../../src/platform/cache/namespaces.js';
import { createReadCache } from '../../src/platform/cache/read-cache.js';
import { approximateSize } from '../../src/platform/cache/size.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/app.js';
import { quietLog } from '../helpers/quiet-log.js';

const KiB = 1024;
/** Small budgets, so that a test can fill a namespace. */
const BUDGETS: ReadCacheBudgets = { snapshots: 64 * KiB, idLists: 64 * KiB, items: 64 * KiB, pages: 64 * KiB };

describe.each(DIALECTS)('the read cache: namespaces with byte budgets (%s)', (dialect) => {
  let test: TestDatabase;
  let changes: ChangeFeed;
  beforeAll(async () => {
    test = await openTestDatabase(dialect);
    changes = createChangeFeed(test.database.db);
    await changes.start(quietLog);
  });
  afterAll(async () => {
    changes.stop();
    await test.close();
  });

  /** An import as the import service makes it: bump in the transaction, tell this node after commit. */
  const importData = async () => {
    await test.database.db.transaction().execute((trx) => changes.bump(trx, 'data'));
    await changes.changed('data');
  };
  const page = (n: number) => ({ body: Buffer.alloc(KiB, n % 256), etag: `"${n}"`, pastEnd: false });

  /** A cache with one snapshot, one id list and one item, each counting its computations. */
  async function warmCache() {
    const cache = createReadCache(changes, BUDGETS);
    const builds = { snapshot: 0, ids: 0, items: 0 };
    const snapshot = cache.snapshot('keys:team', async () => {
      builds.snapshot += 1;
      return { byKey: new Map([['nba.lakers', [7]]]) };
    });
    await snapshot();
    await cache.idLists.get('teams|[]', () => {
      builds.ids += 1;
      return Float64Array.from([1, 2, 3]);
    });
    const items = cache.items<{ id: number }>('teams');
    await items.get('1', () => {
      builds.items += 1;
      return { id: 1 };
    });
    return { cache, builds, snapshot, items };
  }

  it('a flood of distinct pages evicts only pages: the key index, id lists and items stay', async () => {
    const { cache, builds, snapshot, items } = await warmCache();
    for (let n = 0; n < 1000; n++) await cache.pages.get(`teams|[]|${n}|20`, () => page(n));

    await snapshot();
    expect(builds.snapshot).toBe(1);
    expect(cache.idLists.peek('teams|[]')).toEqual(Float64Array.from([1, 2, 3]));
    expect(items.peek('1')).toEqual({ id: 1 });
    const usage = cache.usage();
    expect(usage.snapshots.entries).toBe(1);
    expect(usage.idLists.entries).toBe(1);
    expect(usage.items.entries).toBe(1);
  });

  it('a flood of id lists evicts only id lists', async () => {
    const { cache, builds, snapshot } = await warmCache();
    await cache.pages.get('teams|[]|1|20', () => page(1));
    for (let n = 0; n < 500; n++) await cache.idLists.get(`flows|{"min":${n}}`, () => new Float64Array(100));

    await snapshot();
    expect(builds.snapshot).toBe(1);
    expect(cache.pages.peek('teams|[]|1|20')).toEqual(page(1));
    expect(cache.usage().items.entries).toBe(1);
  });

  it('enforces each budget: the bytes held stay within it, the least recently used go first', async () => {
    const cache = createReadCache(changes, BUDGETS);
    for (let n = 0; n < 1000; n++) await cache.pages.get(`p${n}`, () => page(n));
    const { pages } = cache.usage();
    expect(pages.budgetBytes).toBe(BUDGETS.pages);
    expect(pages.bytes).toBeLessThanOrEqual(BUDGETS.pages);
    expect(pages.entries).toBeGreaterThan(10);
    expect(pages.entries).toBeLessThan(64);
    expect(cache.pages.peek('p999')).toEqual(page(999));
    expect(cache.pages.peek('p0')).toBeUndefined();

    // A recently read entry survives the next evictions.
    const kept = `p${1000 - pages.entries}`;
    expect(cache.pages.peek(kept)).toBeDefined();
    for (let n = 1000; n < 1010; n++) await cache.pages.get(`p${n}`, () => page(n));
    expect(cache.pages.peek(kept)).toBeDefined();
  });

  it('returns a value larger than its whole budget, without keeping it', async () => {
    const cache = createReadCache(changes, BUDGETS);
    let builds = 0;
    const huge = () => {
      builds += 1;
      return new Float64Array(BUDGETS.idLists / 8 + 1);
    };
    expect((await cache.idLists.get('all', huge)).length).toBe(BUDGETS.idLists / 8 + 1);
    await cache.idLists.get('all', huge);
    expect(builds).toBe(2);
    expect(cache.usage().idLists).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('an import drops every namespace; a snapshot is built again on its next use', async () => {
    const { cache, builds, snapshot } = await warmCache();
    await cache.pages.get('teams|[]|1|20', () => page(1));

    await importData();

    for (const usage of Object.values(cache.usage())) expect(usage).toMatchObject({ entries: 0, bytes: 0 });
    await snapshot();
    expect(builds.snapshot).toBe(2);
  });

  it('shares one computation between concurrent misses, and keeps nothing computed across an import', async () => {
    const cache = createReadCache(changes, BUDGETS);
    let builds = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async () => {
      builds += 1;
      await gate;
      return page(7);
    };
    const first = cache.pages.get('slow', slow);
    const second = cache.pages.get('slow', slow);
    await importData();
    release();
    expect(await first).toEqual(page(7));
    expect(await second).toEqual(page(7));
    expect(builds).toBe(1);
    // Computed while the data changed: it may predate the import, so it was not kept.
    expect(cache.pages.peek('slow')).toBeUndefined();
  });

  it('keeps the items of two lists apart, even under one label', async () => {
    const cache = createReadCache(changes, BUDGETS);
    const a = cache.items<string>('teams');
    const b = cache.items<string>('teams');
    await a.get('1', () => 'from a');
    expect(await b.get('1', () => 'from b')).toBe('from b');
    expect(a.peek('1')).toBe('from a');
    const many = await a.getMany(['1', '2'], async (missing) => new Map(missing.map((key) => [key, `loaded ${key}`])));
    expect([...many]).toEqual([
      ['1', 'from a'],
      ['2', 'loaded 2'],
    ]);
  });

  it("counts each namespace's lookups, one per key, across invalidations (read_cache_requests_total)", async () => {
    const cache = createReadCache(changes, BUDGETS);
    const counts = () => Object.fromEntries(Object.entries(cache.usage()).map(([name, { hits, misses }]) => [name, [hits, misses]]));
    expect(counts()).toEqual({ snapshots: [0, 0], idLists: [0, 0], items: [0, 0], pages: [0, 0] });

    // A peek counts its hit only: the `get` that follows a miss counts the miss, once.
    expect(cache.pages.peek('p') ?? (await cache.pages.get('p', () => page(1)))).toEqual(page(1));
    expect(cache.pages.peek('p')).toEqual(page(1));
    // Joining a computation in flight is a miss: the caller waits for it.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async () => {
      await gate;
      return new Float64Array(1);
    };
    const joined = [cache.idLists.get('slow', slow), cache.idLists.get('slow', slow)];
    release();
    await Promise.all(joined);
    await cache.idLists.get('slow', () => new Float64Array(3));
    // A page of items: one count per item.
    const items = cache.items<string>('teams');
    await items.getMany(['1', '2', '3'], async (missing) => new Map(missing.map((key) => [key, key])));
    await items.getMany(['2', '3', '4'], async (missing) => new Map(missing.map((key) => [key, key])));
    const snapshot = cache.snapshot('keys:team', async () => 'index');
    await snapshot();
    await snapshot();
    expect(counts()).toEqual({ snapshots: [1, 1], idLists: [1, 2], items: [2, 4], pages: [1, 1] });

    // An import drops the entries, not the counts.
    await importData();
    await cache.pages.get('p', () => page(1));
    expect(counts().pages).toEqual([1, 2]);
  });
});

describe('approximateSize', () => {
  it('counts typed arrays by their bytes, strings by their length, and what containers hold', () => {
    expect(approximateSize(new Float64Array(1000))).toBeGreaterThanOrEqual(8000);
    expect(approximateSize('x'.repeat(1000))).toBeGreaterThan(approximateSize('x'.repeat(10)));
    const item = { id: 1, name: 'Los Angeles Lakers', legs: [{ id: 2, name: 'a leg' }] };
    expect(approximateSize([item, item])).toBeGreaterThan(2 * approximateSize(item));
    expect(approximateSize(new Map([['nba', [1, 2, 3]]]))).toBeGreaterThan(approximateSize([1, 2, 3]));
  });
});
