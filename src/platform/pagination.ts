import { type Static, type TSchema, Type } from 'typebox';

export const DEFAULT_PAGE_SIZE = 20;

/**
 * The largest page a client may ask for: far past any real list (a million pages), and small
 * enough that every offset stays an exact integer and a valid OFFSET on both databases.
 */
export const MAX_PAGE = 1_000_000;

/** `page` (1-indexed, default 1, at most MAX_PAGE) and `page_size` (default 20, at most `max`). */
export function pagingProperties(max: number) {
  return {
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, 1-indexed, at most ${MAX_PAGE}.` }),
    page_size: Type.Integer({ minimum: 1, maximum: max, default: DEFAULT_PAGE_SIZE, description: `Items per page, 1 to ${max}.` }),
  };
}

/** The paginated list shape (docs/api.md#lists-and-pagination). */
export function PageOf<T extends TSchema>(item: T, name: string) {
  return Type.Object(
    {
      results: Type.Array(item, { description: 'Items of the current page.' }),
      total_count: Type.Integer({ minimum: 0, description: 'Items across all pages.' }),
      page: Type.Integer({ minimum: 1, description: 'Current page number (1-indexed).' }),
      page_size: Type.Integer({ minimum: 1, description: 'Items per page.' }),
      total_pages: Type.Integer({ minimum: 0, description: 'Number of pages: ceil(total_count / page_size).' }),
    },
    { title: name, additionalProperties: false },
  );
}

export interface Paging {
  page: number;
  page_size: number;
}

export interface Page<T> {
  results: T[];
  total_count: number;
  page: number;
  page_size: number;
  total_pages: number;
}

export type PageSchema<T extends TSchema> = Static<ReturnType<typeof PageOf<T>>>;

/** Index of the first item of a page. */
export function offsetOf({ page, page_size }: Paging): number {
  return (page - 1) * page_size;
}

export function pageOf<T>(results: T[], totalCount: number, { page, page_size }: Paging): Page<T> {
  return { results, total_count: totalCount, page, page_size, total_pages: Math.ceil(totalCount / page_size) };
}

/** One page cut from a complete, ordered list. A page past the end is empty, not an error. */
export function slicePage<T>(all: readonly T[], paging: Paging): Page<T> {
  const start = offsetOf(paging);
  return pageOf(all.slice(start, start + paging.page_size), all.length, paging);
}
