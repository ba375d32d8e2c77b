import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, serviceUnavailable } from '../errors.js';
import { sendError, toApiError } from './errors.plugin.js';
import { errorHeaders } from './headers.js';

/**
 * The answers Fastify and Node give on their own — before a route is found, or when the bytes are
 * not HTTP at all — in the error shape (docs/api.md#errors), like every other answer (decision
 * 0030).
 */

/** How long a refused connection may go on sending before it is cut off. */
const LINGER_MS = 2_000;

/**
 * Fastify's `frameworkErrors`: a path that cannot be percent-decoded, a path parameter over the
 * router's 100 characters. Routing has not happened, so no hook runs: the answer is complete here.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('URI_TOO_LONG', 'a path segment is longer than 100 characters')
      : error.code === 'FST_ERR_BAD_URL'
        ? new ApiError('BAD_REQUEST', 'the path is not validly percent-encoded')
        : toApiError(error);
  sendError(reply, apiError, request.id);
}

/**
 * Node's `clientError`: bytes that are not an HTTP request (a broken request line or header),
 * headers over Node's 16 KiB, or a request not received in time. There is no request object:
 * the answer is written to the socket by hand, then the connection is closed.
 */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (error: ConnectionError, socket: Socket): void => {
    // A reset connection has nobody to answer. A connection already answered (ended) ignores the
    // parser's further errors on whatever the client still sends.
    if (error.code === 'ECONNRESET' || !socket.writable) return;
    const apiError = clientErrorOf(error.code);
    const requestId = randomUUID();
    // The code only: the error also carries the raw bytes received, credentials included.
    log.info({ request_id: requestId, code: error.code, statusCode: apiError.status }, 'malformed request refused');
    // end(), not destroy(): a client still sending what we refused would otherwise get a TCP
    // reset, and may lose the answer with it. One that never stops sending is cut off.
    socket.end(rawErrorResponse(apiError, requestId));
    socket.setTimeout(LINGER_MS, () => socket.destroy());
  };
}

function clientErrorOf(code: string): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('HEADERS_TOO_LARGE', 'the request line and headers are over 16 KiB');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'the request was not received in time');
    default:
      return new ApiError('BAD_REQUEST', 'the request is not valid HTTP/1.1');
  }
}

function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorBody(error, requestId));
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body, 'utf8')}`,
    'connection: close',
    ...Object.entries(errorHeaders(requestId)).map(([name, value]) => `${name}: ${value}`),
    '',
    body,
  ].join('\r\n');
}

/**
 * While the app closes, requests still arriving on open connections (keep-alive, pipelined) are
 * answered 503 SERVICE_UNAVAILABLE with Retry-After, so that a client or load balancer retries
 * on another node. Replaces Fastify's `return503OnClosing`, whose body is not our shape.
 */
export function registerClosingAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!closing) return done();
    done(serviceUnavailable('this node is shutting down; retry the request', 1, { connection: 'close' }));
  });
}
