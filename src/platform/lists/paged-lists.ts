import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject, TSchema } from 'typebox';
import type { ReadCache, RenderedPage } from '../cache/read-cache.js';
import { addVary, COMPRESSION, negotiate, weakTag } from '../http/compression.js';
import { ifNoneMatch, NOT_MODIFIED, strongTag } from '../http/etag.js';
import type { App, BodyOf, QueryOf } from '../http/types.js';
import { offsetOf, type Page, pageOf, type Paging } from '../pagination.js';
import { createPageCodings } from './page-codings.js';

/**
 * The data a list endpoint pages through: what a feature supplies, besides its schema and its
 * filter normaliser. Nothing about caches: the building block keeps, per data version, each
 * filter combination's ordered ids (one query; a page is then a slice, so page 5,000 costs
 * what page 1 costs), the items by id, and each page rendered to JSON.
 */
export interface ListSource<F, T> {
  /** Names the list in cache keys and logs. */
  readonly name: string;
  /** The ordered ids of one filter combination. May throw (404 for an unknown key). */
  ids(filters: F): Promise<readonly number[] | Float64Array>;
  /** Items by id; an id the loader does not return is left out of the page. */
  items(ids: readonly number[]): Promise<ReadonlyMap<number, T>>;
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

interface ListRoute<F, T> {
  url: string;
  tag: string;
  summary: string;
  description?: string;
  /** The page schema: PageOf(item). Rendered pages must match it exactly (nothing strips them). */
  response: TSchema;
  source: PreparedSource<F, T>;
  /** The route's config: its policy (who may call it, which tier, limit, usage group and cache). */
  config: FastifyContextConfig;
}

/** A GET list: filters and paging in the query string (the schema includes pagingProperties). */
export interface GetListRoute<S extends TObject, F, T> extends ListRoute<F, T> {
  query: S;
  /**
   * Equivalent requests → equal filters (sorted arrays, defaults dropped, keys lower-cased). Cheap and synchronous.
   * The request is there for what the caller's account changes in the answer (it must then be in the filters).
   */
  filters(query: QueryOf<S>, request: FastifyRequest): F;
}

/** A POST list: filters and paging in the JSON body (the schema includes pagingProperties). */
export interface PostListRoute<S extends TObject, F, T> extends ListRoute<F, T> {
  body: S;
  filters(body: BodyOf<S>, request: FastifyRequest): F;
}

export interface PagedLists {
  source<F, T>(source: ListSource<F, T>): PreparedSource<F, T>;
  get<S extends TObject, F, T>(app: App, route: GetListRoute<S, F, T>): void;
  post<S extends TObject, F, T>(app: App, route: PostListRoute<S, F, T>): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';


export function createPagedLists(cache: ReadCache): PagedLists {
  let sources = 0;
  const codings = createPageCodings();

  function source<F, T>(list: ListSource<F, T>): PreparedSource<F, T> {
    // One prefix per prepared source, so two sources never share an entry whatever their names.
    const prefix = `${list.name}#${++sources}|`;
    const items = cache.items<T>(list.name);

    async function itemsOf(ids: readonly number[]): Promise<T[]> {
      const found = await items.getMany(ids.map(String), async (missing) => {
        const loaded = await list.items(missing.map(Number));
        return new Map([...loaded].map(([id, item]) => [String(id), item]));
      });
      return ids.flatMap((id) => {
        const item = found.get(String(id));
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
      const items = await itemsOf(Array.from(ids.subarray(start, start + paging.page_size)));
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

  /**
   * Sends the page a list request asks for. A page already rendered (and, for a client that takes
   * a coding, already compressed) is sent at once and nothing is returned: no promise, and no wait
   * on the reply's end, which a returned promise or reply would cost (decision 0147).
   */
  const send = <F, T>(request: FastifyRequest, reply: FastifyReply, route: ListRoute<F, T>, filters: F, input: unknown): Promise<void> | undefined => {
    const found = route.source.body(filters, pagingOf(input));
    return 'etag' in found ? sendRendered(request, reply, found) : found.then((page) => sendRendered(request, reply, page));
  };

  function sendRendered(request: FastifyRequest, reply: FastifyReply, page: RenderedPage): Promise<void> | undefined {
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

  const schemaOf = <F, T>(route: ListRoute<F, T>) => ({
    tags: [route.tag],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
  });

  return {
    source,
    get(app, route) {
      app.get(
        route.url,
        { config: route.config, schema: { ...schemaOf(route), querystring: route.query, response: { 200: route.response, 304: NOT_MODIFIED } } },
        (request, reply) => send(request, reply, route, route.filters(request.query, request), request.query),
      );
    },
    post(app, route) {
      app.post(
        route.url,
        { config: route.config, schema: { ...schemaOf(route), body: route.body, response: { 200: route.response } } },
        (request, reply) => send(request, reply, route, route.filters(request.body, request), request.body),
      );
    },
  };
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
function pagingOf(input: unknown): Paging {
  if (typeof input === 'object' && input !== null && 'page' in input && 'page_size' in input) {
    const { page, page_size } = input;
    if (typeof page === 'number' && typeof page_size === 'number') return { page, page_size };
  }
  throw new Error('a list schema must include pagingProperties');
}
