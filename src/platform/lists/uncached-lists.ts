import type { FastifyRequest } from 'fastify';
import { offsetOf, type Page, pageOf, type Paging } from '../pagination.js';
import { type ListHandler, type ListSource, pagingOf } from './paged-lists.js';

/**
 * A list read as it is at each request, for account state (API keys, client secrets, clients,
 * the audit log): the same source as a cached list, a filter, an ids query and an item loader,
 * without the read cache. Its ids come as an array (ids are a client's UUID, a credential's code
 * or a number), and a page is its slice of them with the items loaded for that slice alone.
 */
export type UncachedSource<F, T, Id> = Omit<ListSource<F, T, Id>, 'ids'> & { ids(filters: F): Promise<readonly Id[]> };

/** An uncached list: its page for filters and paging, for its route and for the CLI. */
export interface UncachedList<F, T> {
  readonly name: string;
  page(filters: F, paging: Paging): Promise<Page<T>>;
}

/** The list over its source: the ordered ids, then the items of the page's ids, in that order. */
export function uncachedList<F, T, Id>(list: UncachedSource<F, T, Id>): UncachedList<F, T> {
  return {
    name: list.name,
    async page(filters, paging) {
      const ids = await list.ids(filters);
      const start = Math.min(offsetOf(paging), ids.length);
      const slice = ids.slice(start, start + paging.page_size);
      // A page past the end, or of an empty list, asks nothing more of the database.
      const found = slice.length === 0 ? new Map<Id, T>() : await list.items(slice, filters);
      const items = slice.flatMap((id) => {
        const item = found.get(id);
        return item === undefined ? [] : [item];
      });
      const { view } = list;
      return pageOf(view === undefined ? items : items.map((item) => view(item, filters)), ids.length, paging);
    },
  };
}

/**
 * The handler of an uncached GET list: filters from the request, paging from its query string (the
 * schema includes pagingProperties). The page goes out through the route's response schema like
 * any answer: no ETag, no 304, and the cache header its policy gives (`no-store`).
 */
export function uncachedByRequest<R extends FastifyRequest, F>(list: UncachedList<F, unknown>, filters: (request: R) => F): ListHandler<R> {
  // The reply goes back to Fastify: a handler's promise that settles before its answer is written
  // (a compressed page is written later, by an onSend hook) would make Fastify answer it again.
  return async (request, reply) => reply.send(await list.page(filters(request), pagingOf(request.query)));
}
