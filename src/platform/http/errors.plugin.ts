import type { FastifyError, FastifyInstance } from 'fastify';
import { databaseUnavailable } from '../db/unavailable.js';
import { ApiError, errorBody, serviceUnavailable } from '../errors.js';
import { fromValidationErrors } from './validation.js';

/** Every error leaves as {"error":{code,message,request_id,…}} with the status of its code. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    void reply.code(apiError.status).headers(apiError.headers).type('application/json; charset=utf-8').send(errorBody(apiError, request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const apiError = new ApiError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0] ?? ''}`);
    void reply.code(404).type('application/json; charset=utf-8').send(errorBody(apiError, request.id));
  });
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
