import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChangeFeed, createChangeFeed } from '../../src/platform/cache/change-feed.js';
import { createReadCache, type ReadCache } from '../../src/platform/cache/read-cache.js';
import { createPagedLists, type ListSource, type PagedLists } from '../../src/platform/lists/paged-lists.js';
import { ApiError } from '../../src/platform/errors.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/app.js';
import { quietLog } from '../helpers/quiet-log.js';

interface Filters {
  min: number;
}

interface Row {
  id: number;
  name: string;
}

const KiB = 1024;

describe.each(DIALECTS)('paged lists: id lists computed once per data version, pages cut from them (%s)', (dialect) => {
  let test: TestDatabase;
  let changes: ChangeFeed;
  let cache: ReadCache;
  let lists: PagedLists;
  /** What the source was asked, in order. */
  let calls: { ids: Filters[]; items: number[][] };

  /** Ids 1..n, in a stable order; filter `min` keeps ids at or above it, and -1 is an unknown key. */
  const source = (n = 45, name = 'rows'): ListSource<Filters, Row> => ({
    name,
    async ids({ min }) {
      calls.ids.push({ min });
      if (min < 0) throw new ApiError('NOT_FOUND', 'no such key');
      return Array.from({ length: n }, (_, i) => i + 1).filter((id) => id >= min);
    },
    async items(ids) {
      calls.items.push([...ids]);
      return new Map(ids.map((id) => [id, { id, name: `${name} ${id}` }]));
    },
  });

  const importData = async () => {
    await test.database.db.transaction().execute((trx) => changes.bump(trx, 'data'));
    await changes.changed('data');
  };

  beforeAll(async () => {
    test = await openTestDatabase(dialect);
    changes = createChangeFeed(test.database.db);
    await changes.start(quietLog);
  });
  beforeEach(() => {
    cache = createReadCache(changes);
    lists = createPagedLists(cache);
    calls = { ids: [], items: [] };
  });
  afterAll(async () => {
    changes.stop();
    await test.close();
  });

  it('cuts every page from one id list: one ids query for all pages, totals right, a page past the end empty', async () => {
    const rows = lists.source(source());
    const pages = await Promise.all([1, 2, 3].map((page) => rows.page({ min: 1 }, { page, page_size: 20 })));
    expect(pages.map((p) => p.results.map((r) => r.id))).toEqual([
      Array.from({ length: 20 }, (_, i) => i + 1),
      Array.from({ length: 20 }, (_, i) => i + 21),
      [41, 42, 43, 44, 45],
    ]);
    for (const p of pages) expect(p).toMatchObject({ total_count: 45, page_size: 20, total_pages: 3 });
    expect(await rows.page({ min: 1 }, { page: 5_000, page_size: 20 })).toEqual({ results: [], total_count: 45, page: 5_000, page_size: 20, total_pages: 3 });
    expect(calls.ids).toEqual([{ min: 1 }]);
  });

  it('loads only the items it does not hold yet', async () => {
    const rows = lists.source(source());
    await rows.page({ min: 1 }, { page: 1, page_size: 10 });
    await rows.page({ min: 1 }, { page: 1, page_size: 15 });
    expect(calls.items).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15],
    ]);
  });

  it('each filter combination has its own id list; concurrent first requests share one query', async () => {
    const rows = lists.source(source());
    const [a, b, c] = await Promise.all([
      rows.page({ min: 40 }, { page: 1, page_size: 20 }),
      rows.page({ min: 40 }, { page: 2, page_size: 3 }),
      rows.page({ min: 44 }, { page: 1, page_size: 20 }),
    ]);
    expect(a.results.map((r) => r.id)).toEqual([40, 41, 42, 43, 44, 45]);
    expect(b.results.map((r) => r.id)).toEqual([43, 44, 45]);
    expect(c.results.map((r) => r.id)).toEqual([44, 45]);
    expect(calls.ids).toEqual([{ min: 40 }, { min: 44 }]);
  });

  it('after an import the ids and the items are read again', async () => {
    const rows = lists.source(source());
    await rows.page({ min: 1 }, { page: 1, page_size: 5 });
    await importData();
    await rows.page({ min: 1 }, { page: 1, page_size: 5 });
    expect(calls.ids).toEqual([{ min: 1 }, { min: 1 }]);
    expect(calls.items).toHaveLength(2);
  });

  it('a failed ids query (an unknown key) is not kept: the next request asks again', async () => {
    const rows = lists.source(source());
    await expect(rows.page({ min: -1 }, { page: 1, page_size: 5 })).rejects.toBeInstanceOf(ApiError);
    await expect(rows.page({ min: -1 }, { page: 1, page_size: 5 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(calls.ids).toHaveLength(2);
  });

  it('renders a page to JSON once; two sources never share an entry, whatever their names', async () => {
    const first = lists.source(source(3, 'same'));
    const second = lists.source(source(5, 'same'));
    const rendered = await first.body({ min: 1 }, { page: 1, page_size: 20 });
    expect(JSON.parse(rendered.body.toString('utf8'))).toMatchObject({ total_count: 3, results: [{ id: 1, name: 'same 1' }, { id: 2 }, { id: 3 }] });
    expect(first.body({ min: 1 }, { page: 1, page_size: 20 })).toBe(rendered); // a hit: the same bytes, synchronously
    const other = await second.body({ min: 1 }, { page: 1, page_size: 20 });
    expect(JSON.parse(other.body.toString('utf8'))).toMatchObject({ total_count: 5 });
    expect(other.etag).not.toBe(rendered.etag);
  });

  it('pages past the end answer an empty page but are never kept (a walk through page numbers evicts nothing)', async () => {
    const rows = lists.source(source(3));
    const before = cache.usage().pages.entries;
    for (let page = 2; page < 50; page++) {
      const past = await rows.body({ min: 1 }, { page, page_size: 20 });
      expect(JSON.parse(past.body.toString('utf8'))).toEqual({ results: [], total_count: 3, page, page_size: 20, total_pages: 1 });
    }
    expect(cache.usage().pages.entries).toBe(before);
    await rows.body({ min: 1 }, { page: 1, page_size: 20 });
    expect(cache.usage().pages.entries).toBe(before + 1);
  });

  it('id lists are bounded by their byte budget: a flood of filter combinations keeps the newest within it', async () => {
    const small = createReadCache(changes, { snapshots: 64 * KiB, idLists: 64 * KiB, items: 64 * KiB, pages: 64 * KiB });
    const rows = createPagedLists(small).source(source(1000));
    for (let min = 1; min <= 200; min++) await rows.page({ min }, { page: 1, page_size: 1 });
    const { idLists } = small.usage();
    expect(idLists.bytes).toBeLessThanOrEqual(64 * KiB);
    expect(idLists.entries).toBeLessThan(200);
    calls.ids = [];
    await rows.page({ min: 200 }, { page: 2, page_size: 1 });
    await rows.page({ min: 1 }, { page: 2, page_size: 1 });
    expect(calls.ids).toEqual([{ min: 1 }]);
  });
});
