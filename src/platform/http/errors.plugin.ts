import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { databaseUnavailable } from '../db/unavailable.js';
import { ApiError, errorBody, serviceUnavailable } from '../errors.js';
import { type UrlRedactor, urlRedactor } from '../logging.js';
import type { AuthFailureCounter } from '../metrics/metrics.js';
import { errorHeaders } from './headers.js';
import { fromValidationErrors } from './validation.js';

export interface ErrorHandlingOptions {
  /**
   * Paths whose other methods a 405 must not reveal: they answer 404 like an unknown path (the
   * admin API without ADMIN_TOKEN, which does not exist, decision 0009).
   */
  hidden?: (path: string) => boolean;
  /** Told every 401 by its reason (auth_failures_total). */
  authFailures?: AuthFailureCounter;
  /** What a 404 or 405 may repeat of the path (the logger's redactor, which knows the process's secrets). */
  redactUrl?: UrlRedactor;
}

/** Every error leaves as {"error":{code,message,request_id,…}} with the status of its code. */
export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions = {}): void {
  const routes = createRouteTable();
  const redactUrl = options.redactUrl ?? urlRedactor();
  app.addHook('onRoute', (route) => routes.add(route.method, route.url, route.exposeHeadRoute !== false));

  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    const apiError = toApiError(error);
    // Every 401 carries its reason; counted here, where it is answered, whoever refused it.
    if (apiError.reason !== undefined) options.authFailures?.inc(apiError.reason);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    sendError(reply, apiError, request.id);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const matched = options.hidden?.(path) ? [] : routes.methodsOf(path);
    // The router reads a parameter before a suffix (`:event_id.csv`) on one line only: a path our
    // patterns give the very method asked is one the router refused, so an unknown path, not a 405.
    const allowed = matched.includes(request.method) ? [] : matched;
    // A credential a client put in the path is not echoed back: answers may be logged on the way.
    const shown = redactUrl(path);
    const apiError =
      allowed.length > 0
        ? new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${shown}; it answers ${allowed.join(', ')}`, {
            headers: { allow: allowed.join(', ') },
          })
        : new ApiError('NOT_FOUND', `no route for ${request.method} ${shown}`);
    sendError(reply, apiError, request.id);
  });
}

/**
 * Sends an error in the shape of docs/api.md#errors, with its own headers and the request id. Errors
 * raised before routing pass no hook, so the headers of every answer are set here as well.
 */
export function sendError(reply: FastifyReply, apiError: ApiError, requestId: string): void {
  void reply
    .code(apiError.status)
    .headers({ ...errorHeaders(requestId), ...apiError.headers })
    .type('application/json; charset=utf-8')
    .send(errorBody(apiError, requestId));
}

/** The path of a URL, without the query and (the router ignores it) a trailing slash. */
function pathOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Every route's path pattern and methods, to tell a wrong method (405) from an unknown path (404). */
function createRouteTable() {
  const patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  return {
    add(method: string | string[], url: string, headWithGet = true): void {
      let entry = patterns.get(url);
      if (entry === undefined) {
        entry = { pattern: patternOf(url), methods: new Set() };
        patterns.set(url, entry);
      }
      for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m.toUpperCase());
      // Fastify answers HEAD wherever it answers GET, unless the route says not to (a stream).
      if (entry.methods.has('GET') && headWithGet) entry.methods.add('HEAD');
    },
    methodsOf(path: string): string[] {
      const methods = new Set<string>();
      for (const { pattern, methods: ofRoute } of patterns.values()) if (pattern.test(path)) for (const m of ofRoute) methods.add(m);
      return [...methods].sort();
    },
  };
}

/**
 * `/admin/v1/clients/:client_id` → a RegExp matching its paths; `*` matches the rest. A parameter
 * ends where its name does: `/odds/:event_id.csv` matches `/odds/12.csv`, not `/odds/12.xml`.
 */
function patternOf(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split(/(:\w+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  // The one place where a database outage (down, restarting, locked, read-only) becomes 503.
  // An error with an HTTP status is the framework's (e.g. a client's aborted upload, ECONNRESET).
  const unavailable = fastifyError.statusCode === undefined ? databaseUnavailable(error) : undefined;
  if (unavailable) return serviceUnavailable(unavailable.message, unavailable.retryAfterSeconds);
  if (fastifyError.validation) {
    return fromValidationErrors(fastifyError.validation, fastifyError.validationContext ?? 'request');
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'the request body is larger than this endpoint accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('BAD_REQUEST', 'send the body as application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('BAD_REQUEST', 'the body is not valid JSON');
    default:
      break;
  }
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return new ApiError('BAD_REQUEST', 'the body is not valid JSON');
  }
  if (fastifyError.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'the request body is larger than this endpoint accepts');
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new ApiError('BAD_REQUEST', 'the request could not be read');
  }
  // Internals (SQL, stack traces, driver messages) stay in the log, never in the response.
  return new ApiError('INTERNAL_ERROR', 'an internal error occurred; quote the request_id when reporting it');
}
