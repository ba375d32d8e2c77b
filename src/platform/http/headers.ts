import type { FastifyInstance, onSendHookHandler } from 'fastify';

/**
 * The headers every answer carries, and Cache-Control by the route's policy: this file is the one
 * place that writes X-Request-Id, X-Content-Type-Options, Cache-Control and Pragma (decision 0031).
 * `nosniff`: a browser must not read an answer as another type than the one sent (an error
 * echoing input, taken for HTML or script).
 */
const NOSNIFF = 'nosniff';

/** Errors, and answers that carry credentials or account state: no cache on the way may keep them. */
const NO_STORE = 'no-store';

/**
 * Data answers depend on the caller's credentials (never `public`: a shared cache must not serve
 * one client's answer to another) and change with every import: a client's own cache may keep
 * them, but must ask again before each use.
 */
const DATA_CACHE_CONTROL = 'private, no-cache';

/**
 * How the caches on the way may keep a route's answers, as its policy says:
 * - `data`: a successful answer is `private, no-cache`;
 * - `no-store`: every answer is `no-store` (credentials, account state, operations, streams);
 * - `token`: `no-store` and `Pragma: no-cache` on every answer, errors included (RFC 6749 §5.1:
 *   token responses must not be stored, also by HTTP/1.0 caches);
 * - `static`: files served by a static file server keep its Cache-Control (the docs page's
 *   assets: `public, max-age=0`, revalidated on every use); anything else is `no-store`.
 * An error is `no-store` whatever the route (sendError).
 */
export type CachePolicy = 'data' | 'no-store' | 'token' | 'static';

/**
 * The X-Request-Id that names the request in the log (echoed when the caller sent a plain one) and
 * nosniff, on every answer to a routed request, 404s included. Callback style: no promise per request.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', NOSNIFF);
    done();
  });
}

/** The onSend hook that sets a route's Cache-Control (and Pragma) from its cache policy. */
export function cacheHeaders(policy: CachePolicy): onSendHookHandler {
  return CACHE_HOOKS[policy];
}

// Callback style, and one function per policy made once: a hook costs a call, no allocation.
const CACHE_HOOKS: Readonly<Record<CachePolicy, onSendHookHandler>> = {
  data: (_request, reply, payload, done) => {
    if (reply.statusCode < 400) reply.header('cache-control', DATA_CACHE_CONTROL);
    done(null, payload);
  },
  'no-store': (_request, reply, payload, done) => {
    reply.header('cache-control', NO_STORE);
    done(null, payload);
  },
  token: (_request, reply, payload, done) => {
    reply.header('cache-control', NO_STORE);
    reply.header('pragma', 'no-cache');
    done(null, payload);
  },
  static: (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE);
    done(null, payload);
  },
};

/**
 * The headers of an error, which may be answered where no hook ran (a URL the router cannot read,
 * a request refused before routing): the request id, nosniff and no-store.
 */
export function errorHeaders(requestId: string): Record<string, string> {
  return { 'x-request-id': requestId, 'x-content-type-options': NOSNIFF, 'cache-control': NO_STORE };
}
