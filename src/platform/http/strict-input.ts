import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { ApiError, type ErrorDetail, validationError } from '../errors.js';
import { hooksOf } from './route-hooks.js';

/**
 * The schema key of a route that follows a standard's rules for its input and errors rather than
 * ours (the OAuth endpoints: RFC 6749 §3.2 makes them ignore unknown parameters). Its value names
 * the standard; it is copied into the operation of the OpenAPI document.
 */
export const STANDARD_ENDPOINT = 'x-standard-endpoint';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Strict input everywhere (decision 0071): a parameter an endpoint does not take is a 422 naming it,
 * never silently ignored — `POST /v1/events/upcoming-events?league_key=nba` answered every
 * league's events. Schemas already refuse unknown fields where they exist (`additionalProperties:
 * false`); this covers what has no schema: the query string of an endpoint that reads its input
 * from the body (or takes none), the body of an endpoint that takes none, and content on a GET.
 * Routes hidden from the document (the docs page and its assets) and standard endpoints keep their
 * own rules (decision 0071).
 */
export function registerStrictInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (schema === undefined || schema.hide === true || schema[STANDARD_ENDPOINT] !== undefined) return;
    const bodyFields = propertiesOf(schema.body);
    const checkQuery = schema.querystring === undefined;
    const methods = methodsOf(route);
    const checkBody = schema.body === undefined && methods.some((m) => BODY_METHODS.has(m));
    const bodyless = methods.every((m) => !BODY_METHODS.has(m));
    const check = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const problem =
        (checkQuery ? queryProblem(request.query, bodyFields) : undefined) ??
        (checkBody ? bodyProblem(request.body) : undefined) ??
        (bodyless ? contentProblem(request) : undefined);
      done(problem);
    };
    route.preValidation = [...hooksOf(route.preValidation), check];
  });
}

/** Any query parameter, on an endpoint whose query string takes none; a body field there is misplaced. */
function queryProblem(query: unknown, bodyFields: readonly string[]): ApiError | undefined {
  const names = isRecord(query) ? Object.keys(query) : [];
  const first = names[0];
  if (first === undefined) return undefined;
  const details: ErrorDetail[] = names.map((field) => ({ field, rule: 'additionalProperties' }));
  const message = bodyFields.includes(first)
    ? `${first} is not a query parameter: this endpoint reads it from the JSON body`
    : `${first} is not a known query parameter: this endpoint takes none`;
  return new ApiError('VALIDATION_ERROR', message, { details });
}

/**
 * Content on a GET, which Fastify never reads: filters sent as a JSON body would be ignored and
 * every record answered. RFC 9110 §9.3.1 gives such content no meaning, so it is refused.
 */
function contentProblem(request: FastifyRequest): ApiError | undefined {
  const length = request.headers['content-length'];
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) return undefined;
  return validationError('body', 'absent', `${request.method} takes no body: send the parameters in the query string`);
}

/** A body where none is taken: nothing, or an empty JSON object, is accepted. */
function bodyProblem(body: unknown): ApiError | undefined {
  if (body === undefined) return undefined;
  if (!isRecord(body)) return new ApiError('BAD_REQUEST', 'this endpoint takes no body; send none, or {}', { details: [{ field: 'body', rule: 'type' }] });
  const names = Object.keys(body);
  const first = names[0];
  if (first === undefined) return undefined;
  return new ApiError('VALIDATION_ERROR', `${first} is not a known field: this endpoint takes no body`, {
    details: names.map((field) => ({ field, rule: 'additionalProperties' })),
  });
}

function propertiesOf(schema: unknown): string[] {
  return isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : [];
}

function methodsOf(route: RouteOptions): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

declare module 'fastify' {
  interface FastifySchema {
    /** Set on a route that follows a standard's rules for input and errors (STANDARD_ENDPOINT). */
    'x-standard-endpoint'?: string;
  }
}
