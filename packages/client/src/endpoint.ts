/** Options every call takes, as its last argument. */
export interface CallOptions {
  /**
   * Cancels the call: the request in flight, and any wait for a retry, for `Retry-After` or for
   * a token. The call then rejects with the signal's reason, as `fetch` does.
   */
  signal?: AbortSignal;
  /** Milliseconds each HTTP attempt of this call may take (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /**
   * Sent as `X-Request-Id` (up to 64 characters of `A–Z a–z 0–9 . _ : -`), so that the
   * service's log and the error's `request_id` carry your own id.
   */
  requestId?: string;
}

/** The shape every list answers (see "Lists and pagination" in the API documentation). */
export interface Page<Item> {
  /** Items of this page. */
  results: Item[];
  /** Items across all pages. */
  total_count: number;
  /** This page's number, from 1. */
  page: number;
  /** Items per page. */
  page_size: number;
  /** Number of pages: ceil(total_count / page_size). */
  total_pages: number;
}

/** The item type of a page type. */
export type ItemOf<P extends Page<unknown>> = P['results'][number];

/** An operation that takes no parameters: `api.account.config()`. */
export interface Call<R> {
  (options?: CallOptions): Promise<R>;
}

/** An operation whose parameters are all optional. */
export interface CallWith<P, R> {
  (params?: P, options?: CallOptions): Promise<R>;
}

/** An operation with a required parameter. */
export interface CallWithRequired<P, R> {
  (params: P, options?: CallOptions): Promise<R>;
}

/**
 * A list whose filters are all optional. Called, it answers one page (`page` and `page_size`
 * among the parameters); `iterate` and `pages` walk every page, from `page` (default 1) until
 * `page >= total_pages`, one request at a time.
 */
export interface PagedCall<P, R extends Page<unknown>> extends CallWith<P, R> {
  /** One page: the same as calling the list itself. */
  list: CallWith<P, R>;
  /** Every item of every page, in the list's order. */
  iterate(params?: P, options?: CallOptions): AsyncIterableIterator<ItemOf<R>>;
  /** Every page, whole. */
  pages(params?: P, options?: CallOptions): AsyncIterableIterator<R>;
}

/** A list with a required parameter (`api.odds.upcomingByEvent({ event_id })`); otherwise as {@link PagedCall}. */
export interface PagedCallWithRequired<P, R extends Page<unknown>> extends CallWithRequired<P, R> {
  /** One page: the same as calling the list itself. */
  list: CallWithRequired<P, R>;
  /** Every item of every page, in the list's order. */
  iterate(params: P, options?: CallOptions): AsyncIterableIterator<ItemOf<R>>;
  /** Every page, whole. */
  pages(params: P, options?: CallOptions): AsyncIterableIterator<R>;
}

/** What a keyset cursor's parameters have in common. */
export interface CursorParams {
  /** The position to read after: the id of the last item the caller has (none: the start, 0). */
  after?: number;
}

/** A keyset page: the change cursor's answer (`GET /v1/odds/changes`). */
export interface CursorPage<Item> {
  /** Items after the position asked for, in id order. */
  results: Item[];
  /** The position to ask after next: the last item's id, or the one asked for when there is none. */
  next_after: number;
}

/**
 * A keyset cursor (`api.odds.changes`). Called, it answers one page after `after`; `iterate` and
 * `pages` follow `next_after`, one request at a time, until a page comes back empty: the end for
 * now. Each item's `id` is the position to resume from (the `after` of a later call, or the
 * `Last-Event-ID` of a stream).
 */
export interface CursorCall<P extends CursorParams, R extends CursorPage<unknown>> extends CallWithRequired<P, R> {
  /** One page: the same as calling the cursor itself. */
  list: CallWithRequired<P, R>;
  /** Every item after `after`, in id order, until the end for now. */
  iterate(params: P, options?: CallOptions): AsyncIterableIterator<R['results'][number]>;
  /** Every non-empty page after `after`, whole. */
  pages(params: P, options?: CallOptions): AsyncIterableIterator<R>;
}

/** Where an operation's parameters go; generated from the OpenAPI document. */
export interface OperationSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With `{name}` for each path parameter. */
  readonly path: string;
  /** The parameters other than the path's go in a JSON body; otherwise in the query string. */
  readonly body: boolean;
  /** The parameter whose value is the whole body, when the body is a JSON array rather than an object. */
  readonly arrayBody?: string;
  /** Safe to send again after a network error or a 5xx: every read, the POST lists included. */
  readonly idempotent: boolean;
}
