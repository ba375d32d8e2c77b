import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReadCache, RenderedPage } from '../cache/read-cache.js';
import { addVary, COMPRESSION, negotiate, weakTag } from '../http/compression.js';
import { ifNoneMatch, strongTag } from '../http/etag.js';
import { offsetOf, type Page, pageOf, type Paging } from '../pagination.js';
import { createPageCodings, type PageCodings } from './page-codings.js';

/**
 * The data a list endpoint pages through: what a feature supplies, besides its schema and its
 * filter normaliser. Nothing about caches: the building block keeps, per data version, each
 * filter combination's ordered ids (one query; a page is then a slice, so page 5,000 costs
 * what page 1 costs), the items by id, and each page rendered to JSON.
 */
export interface ListSource<F, T, Id = number> {
  /** Names the list in cache keys and logs. */
  readonly name: string;
  /** The ordered ids of one filter combination. May throw (404 for an unknown key). */
  ids(filters: F): Promise<readonly Id[] | Float64Array>;
  /** Items by id; an id the loader does not return is left out of the page. */
  items(ids: readonly Id[], filters: F): Promise<ReadonlyMap<Id, T>>;
  /**
   * When the items themselves depend on a part of the filters (an answer as of an instant), that
   * part as text: items are then cached per id and per it. Absent or '': one item per id.
   */
  itemsKey?(filters: F): string;
  /**
   * How a page shows an item when that depends on the request beyond which items it lists (the
   * odds in the format asked). Items are cached once, as `items` gives them; pages are cached per
   * filters, so the filters must carry what the view reads.
   */
  view?(item: T, filters: F): T;
}

/** A source made ready for paging: routes over one prepared source share its entries. */
export interface PreparedSource<F, T> {
  readonly name: string;
  page(filters: F, paging: Paging): Promise<Page<T>>;
  /** The page as the JSON bytes sent, with their ETag: rendered once per data version. */
  body(filters: F, paging: Paging): RenderedPage | Promise<RenderedPage>;
}

/**
 * A list route's handler: the page its request asks for (filters and paging read from `R`). A list
 * route is declared like every other route, `app.get(url, { config, schema }, handler)`; only its
 * handler comes from here.
 */
export type ListHandler<R> = (request: R, reply: FastifyReply) => Promise<void> | undefined;

export interface PagedLists {
  /** Prepares a source: its id lists, items and rendered pages are kept per data version. */
  source<F, T>(source: ListSource<F, T>): PreparedSource<F, T>;
  /**
   * The handler of a GET list: filters and paging in the query string (the schema includes
   * pagingProperties). `filters` maps equivalent requests to equal filters (sorted arrays, defaults
   * dropped, keys lower-cased), cheaply and synchronously; the request is there for what the
   * caller's account changes in the answer (it must then be in the filters).
   */
  byQuery<Q, F, T>(source: PreparedSource<F, T>, filters: (query: Q, request: FastifyRequest) => F): ListHandler<FastifyRequest & { query: Q }>;
  /** The handler of a POST list: filters and paging in the JSON body (the schema includes pagingProperties). */
  byBody<B, F, T>(source: PreparedSource<F, T>, filters: (body: B, request: FastifyRequest) => F): ListHandler<FastifyRequest & { body: B }>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function createPagedLists(cache: ReadCache): PagedLists {
  let sources = 0;
  const codings = createPageCodings();
  // One prefix per prepared source, so two sources never share an entry whatever their names.
  const prefixOf = (list: ListSource<unknown, unknown>) => `${list.name}#${++sources}|`;

  /**
   * Sends the page a list request asks for. A page already rendered (and, for a client that takes
   * a coding, already compressed) is sent at once and nothing is returned: no promise, and no wait
   * on the reply's end, which a returned promise or reply would cost (decision 0147).
   */
  const send = <F, T>(request: FastifyRequest, reply: FastifyReply, source: PreparedSource<F, T>, filters: F, input: unknown): Promise<void> | undefined => {
    const found = source.body(filters, pagingOf(input));
    return 'etag' in found ? sendRendered(codings, request, reply, found) : found.then((page) => sendRendered(codings, request, reply, page));
  };

  return {
    source: (list) => prepare(cache, list, prefixOf(list)),
    byQuery: (source, filters) => (request, reply) => send(request, reply, source, filters(request.query, request), request.query),
    byBody: (source, filters) => (request, reply) => send(request, reply, source, filters(request.body, request), request.body),
  };
}

/** A source over the read cache: ids per filter combination, items by id, pages as rendered bytes. */
function prepare<F, T>(cache: ReadCache, list: ListSource<F, T>, prefix: string): PreparedSource<F, T> {
  const items = cache.items<T>(list.name);

  async function itemsOf(ids: readonly number[], filters: F): Promise<T[]> {
    const part = list.itemsKey?.(filters) ?? '';
    const found = await items.getMany(ids.map((id) => part + String(id)), async (missing) => {
      const loaded = await list.items(missing.map((key) => Number(key.slice(part.length))), filters);
      return new Map([...loaded].map(([id, item]) => [part + String(id), item]));
    });
    return ids.flatMap((id) => {
      const item = found.get(part + String(id));
      return item === undefined ? [] : [item];
    });
  }

  const idsOf = (filters: F, filterKey: string) => cache.idLists.get(prefix + filterKey, async () => {
    const ids = await list.ids(filters);
    return ids instanceof Float64Array ? ids : Float64Array.from(ids);
  });

  async function page(filters: F, paging: Paging, filterKey = JSON.stringify(filters)): Promise<Page<T>> {
    const ids = await idsOf(filters, filterKey);
    const start = Math.min(offsetOf(paging), ids.length);
    const items = await itemsOf(Array.from(ids.subarray(start, start + paging.page_size)), filters);
    const { view } = list;
    return pageOf(view === undefined ? items : items.map((item) => view(item, filters)), ids.length, paging);
  }

  return {
    name: list.name,
    page: (filters, paging) => page(filters, paging),
    body(filters, paging) {
      // JSON keeps the parts of the key apart whatever characters a key or a search holds.
      const filterKey = JSON.stringify(filters);
      const key = `${prefix}${filterKey}|${paging.page}|${paging.page_size}`;
      // A repeated request is one map lookup: no promise, no query, no serialization.
      // Pages past the end are all alike and empty: rendered when asked, never kept, so that
      // a walk through page numbers up to MAX_PAGE cannot push useful pages out (decision 0032).
      return cache.pages.peek(key) ?? cache.pages.get(key, async () => renderPage(await page(filters, paging, filterKey)), (p) => !p.pastEnd);
    },
  };
}

function sendRendered(codings: PageCodings, request: FastifyRequest, reply: FastifyReply, page: RenderedPage): Promise<void> | undefined {
  // Small pages go as they are; a larger one in the client's coding, compressed once (page-codings.ts).
  const compressible = page.body.length >= COMPRESSION.thresholdBytes;
  const coding = compressible ? negotiate(request) : undefined;
  if (compressible) addVary(reply);
  // RFC 9110 §8.8.3: the compressed bytes are another representation: a weak tag (compression.ts).
  reply.header('etag', coding === undefined ? page.etag : weakTag(page.etag));
  // RFC 9110 §13.1.2: a GET whose copy is current gets 304 and no body; a POST gets its page.
  if (request.method === 'GET' && ifNoneMatch(request.headers['if-none-match'], page.etag)) {
    reply.code(304).send();
    return undefined;
  }
  if (coding === undefined) {
    reply.type(JSON_TYPE).send(page.body);
    return undefined;
  }
  reply.header('content-encoding', coding).type(JSON_TYPE);
  const encoded = codings.encoded(page, coding);
  if (!Buffer.isBuffer(encoded)) return encoded.then((bytes) => void reply.send(bytes));
  reply.send(encoded);
  return undefined;
}

/** An answer in the page shape that is not cut from a list (flows by id): its bytes, tagged like every page. */
export function sendPage(reply: FastifyReply, page: Page<unknown>): FastifyReply {
  const { body, etag } = renderPage(page);
  return reply.header('etag', etag).type(JSON_TYPE).send(body);
}

/**
 * The bytes and their entity tag, computed once per render. The tag is a digest of the bytes, so
 * a page an import did not change keeps its tag, and a client's copy stays valid across imports.
 */
function renderPage(page: Page<unknown>): RenderedPage {
  const body = Buffer.from(JSON.stringify(page), 'utf8');
  const pastEnd = page.page > 1 && page.results.length === 0;
  return { body, etag: strongTag(body), pastEnd };
}

/** page and page_size of a validated list request: the schema's pagingProperties filled them in. */
export function pagingOf(input: unknown): Paging {
  if (typeof input === 'object' && input !== null && 'page' in input && 'page_size' in input) {
    const { page, page_size } = input;
    if (typeof page === 'number' && typeof page_size === 'number') return { page, page_size };
  }
  throw new Error('a list schema must include pagingProperties');
}
