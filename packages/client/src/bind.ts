import type { Call, CallOptions, CallWith, CallWithRequired, CursorCall, CursorPage, CursorParams, ItemOf, OperationSpec, Page, PagedCall } from './endpoint.js';

/** What sends one operation: the client, with its session, retries and limits. */
export interface Invoker {
  invoke<R>(spec: OperationSpec, params: object | undefined, options: CallOptions | undefined): Promise<R>;
}

export function bindCall<R>(invoker: Invoker, spec: OperationSpec): Call<R> {
  return (options) => invoker.invoke<R>(spec, undefined, options);
}

export function bindCallWith<P extends object, R>(invoker: Invoker, spec: OperationSpec): CallWith<P, R> {
  return (params, options) => invoker.invoke<R>(spec, params, options);
}

/** A list: one page when called, every page or item through `pages` and `iterate`. */
export function bindPaged<P extends object, R extends Page<unknown>>(invoker: Invoker, spec: OperationSpec): PagedCall<P, R> {
  const list: CallWith<P, R> = (params, options) => invoker.invoke<R>(spec, params, options);
  async function* pages(params?: P, options?: CallOptions): AsyncGenerator<R> {
    // P is the operation's parameter type, every list's with a `page`; TypeScript cannot see
    // that through the generic, hence the casts of this function.
    const first = (params as { page?: unknown } | undefined)?.page;
    let page = typeof first === 'number' ? first : 1;
    for (;;) {
      const answer = await list({ ...params, page } as P, options);
      yield answer;
      // The contract's rule; an empty page also ends it, should the list shrink while it is read.
      if (answer.page >= answer.total_pages || answer.results.length === 0) return;
      page = answer.page + 1;
    }
  }
  async function* iterate(params?: P, options?: CallOptions): AsyncGenerator<ItemOf<R>> {
    for await (const answer of pages(params, options)) yield* answer.results as Array<ItemOf<R>>;
  }
  return Object.assign(list, { list, pages, iterate });
}

/** A keyset cursor: one page when called, every page or item after `after` through `pages` and `iterate`. */
export function bindCursor<P extends CursorParams, R extends CursorPage<unknown>>(invoker: Invoker, spec: OperationSpec): CursorCall<P, R> {
  const list: CallWithRequired<P, R> = (params, options) => invoker.invoke<R>(spec, params, options);
  async function* pages(params: P, options?: CallOptions): AsyncGenerator<R> {
    for (let after = params.after ?? 0; ; ) {
      const answer = await list({ ...params, after }, options);
      // An empty page is the end for now; a later call from the same position brings what came since.
      if (answer.results.length === 0) return;
      yield answer;
      after = answer.next_after;
    }
  }
  async function* iterate(params: P, options?: CallOptions): AsyncGenerator<R['results'][number]> {
    // R is a page of its items; TypeScript cannot see that through the generic.
    for await (const answer of pages(params, options)) yield* answer.results as Array<R['results'][number]>;
  }
  return Object.assign(list, { list, pages, iterate });
}
