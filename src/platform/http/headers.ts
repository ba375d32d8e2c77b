import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries (decision 0031). `nosniff`: a browser must not read an answer as
 * another type than the one sent (an error echoing input, taken for HTML or script).
 */
export const NOSNIFF = 'nosniff';

/** Errors, and answers that carry credentials or account state: no cache on the way may keep them. */
export const NO_STORE = 'no-store';

/**
 * Data answers depend on the caller's credentials (never `public`: a shared cache must not serve
 * one client's answer to another) and change with every import: a client's own cache may keep
 * them, but must ask again before each use.
 */
export const DATA_CACHE_CONTROL = 'private, no-cache';

/**
 * Sets both on every routed answer. A route that chose its own Cache-Control keeps it; otherwise
 * a successful answer to an authenticated client call is data, and everything else no-store.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  // Callback style: no promise per request on the hot path.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', NOSNIFF);
    if (!reply.hasHeader('cache-control')) {
      // `principal` is set by the authenticate hook of client routes only (null elsewhere).
      const data = reply.statusCode < 400 && (request.principal as typeof request.principal | null) !== null;
      reply.header('cache-control', data ? DATA_CACHE_CONTROL : NO_STORE);
    }
    done(null, payload);
  });
}
