import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { STANDARD_ENDPOINT } from './strict-input.js';

/**
 * The schema key under which whoever declares a route's policy tells the document what that policy
 * adds to the operation; read here, and removed from the published document.
 */
export const OPERATION_ANSWERS = 'x-answers';

/** What a route's policy adds to its operation, beyond what its schema says. */
export interface OperationAnswers {
  /** The errors of the policy (401, 403, 429) and those the route declares (404, 409…). */
  readonly errors: readonly ErrorCode[];
  /** Every 2xx and 3xx carries the rate-limit fields. */
  readonly rateLimitHeaders: boolean;
  /** A page (a 200 in the page shape) carries an ETag, and a GET takes If-None-Match (304). */
  readonly entityTags: boolean;
}

const NO_ANSWERS: OperationAnswers = { errors: [], rateLimitHeaders: false, entityTags: false };

/**
 * Finishes the document @fastify/swagger generates from the route schemas: request fields a
 * client may omit are shown as optional, and every operation lists its error responses and the
 * headers of its answers, as its schema and its policy say.
 */
export function finishDocument<T extends object>(document: T): T {
  if (!isRecord(document)) return document;
  const components = objectAt(document, 'components');
  Object.assign(objectAt(components, 'responses'), componentResponses());
  Object.assign(objectAt(components, 'headers'), {
    RequestId: { description: 'The id of this request (echoed when the caller sent a plain X-Request-Id).', schema: { type: 'string' } },
    ...RATE_LIMIT_HEADERS,
  });
  for (const item of Object.values(objectAt(document, 'paths'))) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const answers = answersOf(operation);
      optionalDefaults(operation);
      addErrorResponses(method, operation, answers);
      if (answers.entityTags) addEntityTags(method, operation);
      if (answers.rateLimitHeaders) addRateLimitHeaders(operation);
    }
  }
  return document;
}

/** The operation's answers as its policy gave them, taken out of the published operation. */
function answersOf(operation: Record<string, unknown>): OperationAnswers {
  const answers = operation[OPERATION_ANSWERS];
  delete operation[OPERATION_ANSWERS];
  return isOperationAnswers(answers) ? answers : NO_ANSWERS;
}

function isOperationAnswers(value: unknown): value is OperationAnswers {
  return isRecord(value) && Array.isArray(value.errors) && typeof value.rateLimitHeaders === 'boolean' && typeof value.entityTags === 'boolean';
}

/**
 * A request field with a default (page, page_size, timezone, …) is filled in by validation
 * (ajv `useDefaults`), so the client may omit it, although the TypeBox schema lists it as
 * required to give handlers a complete type. A body without required fields may be omitted
 * entirely (an empty body is `{}`, see json-bodies.ts).
 */
function optionalDefaults(operation: Record<string, unknown>): void {
  for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
    if (isRecord(parameter) && parameter.in !== 'path' && hasDefault(parameter.schema)) parameter.required = false;
  }
  const body = operation.requestBody;
  if (!isRecord(body) || !isRecord(body.content)) return;
  for (const media of Object.values(body.content)) {
    const schema = isRecord(media) ? media.schema : undefined;
    if (!isRecord(schema) || schema.type !== 'object') continue;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = (Array.isArray(schema.required) ? schema.required : []).filter((name) => !hasDefault(properties[String(name)]));
    schema.required = required;
    if (required.length === 0) {
      delete schema.required;
      body.required = false;
    }
  }
}

function hasDefault(schema: unknown): boolean {
  return isRecord(schema) && schema.default !== undefined;
}

/**
 * The error responses (docs/api.md#errors), in the document only: the routes' `response` config
 * stays 2xx-only, so Fastify never serializes an error through a route schema.
 */
function addErrorResponses(method: string, operation: Record<string, unknown>, answers: OperationAnswers): void {
  const responses = objectAt(operation, 'responses');
  for (const code of errorCodesOf(method, operation, answers)) {
    responses[String(ERROR_STATUS[code])] ??= { $ref: `#/components/responses/${RESPONSES[code].name}` };
  }
}

/**
 * Every page of a data list carries an ETag (a digest of its bytes). A GET list also takes
 * If-None-Match and answers 304 when it names the current page (RFC 9110 §13.1.2); a POST has
 * no 304, its ETag only tells a client whether a page changed.
 */
function addEntityTags(method: string, operation: Record<string, unknown>): void {
  const responses = objectAt(operation, 'responses');
  const ok = responses['200'];
  if (!isRecord(ok) || !isPage(ok)) return;
  const etag = { description: 'A digest of the page: unchanged bytes, unchanged tag (also across imports).', schema: { type: 'string' } };
  Object.assign(objectAt(ok, 'headers'), { ETag: etag });
  const notModified = responses['304'];
  if (method !== 'get' || !isRecord(notModified)) return;
  Object.assign(objectAt(notModified, 'headers'), { ETag: etag });
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  operation.parameters = [
    ...parameters,
    { name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of the copy the client has: 304 if it is current.', schema: { type: 'string' } },
  ];
}

/**
 * The rate-limit fields of draft-ietf-httpapi-ratelimit-headers-10 and the conventional
 * X-RateLimit-* trio, on every answer to a client call (decision 0091). A window without a cap
 * is left out of the policy; without any cap the fields are absent.
 */
const RATE_LIMIT_HEADERS = {
  RateLimitPolicy: {
    description:
      'The limits of this client for this operation (structured-field list): `"minute";q=600;w=60, "day";q=200000;w=86400`. ' +
      'Fixed windows: the UTC minute and the UTC day. /v1/account/* lists the minute only: it never counts against the daily quota.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'The window closest to running out: `"minute";r=599;t=42` (r: requests remaining, t: seconds until it resets).',
    schema: { type: 'string' },
  },
  XRateLimitLimit: { description: 'Requests allowed per UTC minute.', schema: { type: 'integer', minimum: 1 } },
  XRateLimitRemaining: { description: 'Requests left in this UTC minute (the first answer of a minute shows the limit − 1).', schema: { type: 'integer', minimum: 0 } },
  XRateLimitReset: { description: 'Seconds until this UTC minute ends.', schema: { type: 'integer', minimum: 1, maximum: 60 } },
};

const RATE_LIMIT_REFS = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/XRateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/XRateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/XRateLimitReset' },
};

/** On every successful answer of an operation whose policy charges it against the client's limits. */
function addRateLimitHeaders(operation: Record<string, unknown>): void {
  for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) {
    if (/^[23]\d\d$/.test(status) && isRecord(response)) Object.assign(objectAt(response, 'headers'), RATE_LIMIT_REFS);
  }
}

function isPage(response: Record<string, unknown>): boolean {
  const media = isRecord(response.content) ? response.content['application/json'] : undefined;
  const schema = isRecord(media) ? media.schema : undefined;
  return isRecord(schema) && isRecord(schema.properties) && 'total_pages' in schema.properties && 'results' in schema.properties;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'trace'] as const;
// A DELETE may carry a body too, which Fastify reads and bounds like any other (400, 413).
const BODY_METHODS = new Set<string>(['post', 'put', 'patch', 'delete']);

interface ErrorResponse {
  name: string;
  description: string;
  headers?: Record<string, object>;
}

const RESPONSES: Record<ErrorCode, ErrorResponse> = {
  BAD_REQUEST: { name: 'BadRequest', description: 'Malformed JSON, a value of the wrong JSON type, or a body that is not application/json.' },
  UNAUTHORIZED: {
    name: 'Unauthorized',
    description: 'Missing, invalid or expired credentials, or a flow the account does not enable; `reason` says which. Try a refresh, then log in again.',
    headers: {
      'WWW-Authenticate': {
        description:
          'On every 401: `Bearer error="invalid_token"` for a refused access or refresh token, `ApiKey realm="sports-data-api"` at ' +
          '/v1/auth/login, `ClientSecretPost realm="sports-data-api"` at /v1/oauth/login, `Bearer realm=…` otherwise.',
        schema: { type: 'string' },
      },
    },
  },
  FORBIDDEN: { name: 'Forbidden', description: 'Authenticated, but the account may not do this.' },
  NOT_FOUND: { name: 'NotFound', description: 'An unknown id or key (or route).' },
  METHOD_NOT_ALLOWED: {
    name: 'MethodNotAllowed',
    description: 'The path exists, but not with this method.',
    headers: { Allow: { description: 'The methods the path answers, e.g. `GET, HEAD`.', schema: { type: 'string' } } },
  },
  REQUEST_TIMEOUT: { name: 'RequestTimeout', description: 'The request was not received in time; the connection is closed.' },
  AMBIGUOUS_LOOKUP: { name: 'AmbiguousLookup', description: 'A key matches several records (e.g. `premier-league`); use the qualified key or the id.' },
  CONFLICT: {
    name: 'Conflict',
    description: "The request conflicts with the account's state, e.g. deleting its last API key while auth_method enables API keys, an 11th active key, or a change to a deleted client; the message says why.",
  },
  PRECONDITION_FAILED: { name: 'PreconditionFailed', description: 'The account lacks what the operation needs first, e.g. a quote without a check endpoint; the message says what.' },
  PAYLOAD_TOO_LARGE: { name: 'PayloadTooLarge', description: 'The body is larger than the endpoint accepts (1 MiB unless stated).' },
  URI_TOO_LONG: { name: 'UriTooLong', description: 'A path segment is longer than 100 characters.' },
  VALIDATION_ERROR: { name: 'ValidationError', description: 'A field breaks a rule (e.g. page 0, page_size over the maximum, a missing field); `details` names each field.' },
  RATE_LIMIT_EXCEEDED: {
    name: 'RateLimitExceeded',
    description:
      "Too many requests: the client's per-minute rate or daily quota is used up (the message names the window and the tier), " +
      'or too many failed logins from this address. Wait as long as Retry-After says; the request was not charged.',
    headers: {
      'Retry-After': { description: 'Whole seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
      ...RATE_LIMIT_REFS,
    },
  },
  HEADERS_TOO_LARGE: {
    name: 'HeadersTooLarge',
    description: 'The request line and headers together are over 16 KiB (a very long query string counts); the connection is closed.',
  },
  INTERNAL_ERROR: { name: 'InternalError', description: 'An unexpected failure; quote the request_id when reporting it.' },
  SERVICE_UNAVAILABLE: {
    name: 'ServiceUnavailable',
    description: 'A dependency (the database) is unavailable, or the node is draining or shutting down; retry after Retry-After seconds.',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } },
  },
};

/** One reusable response per code: the Error schema with `code` pinned to that code. */
function componentResponses(): Record<string, object> {
  const entries = (Object.keys(RESPONSES) as ErrorCode[]).map((code) => {
    const { name, description, headers } = RESPONSES[code];
    const error = {
      type: 'object',
      description: `An error with the code ${code}.`,
      properties: { code: { const: code, description: `Always ${code} with status ${ERROR_STATUS[code]}.` } },
      ...(code === 'UNAUTHORIZED' ? { required: ['reason'] } : {}),
    };
    return [
      name,
      {
        description,
        headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ...headers },
        content: {
          'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error } }] } },
        },
      },
    ] as const;
  });
  return Object.fromEntries(entries);
}

/**
 * The errors an operation can answer: what its policy and the route declare (401, 403, 404, 409,
 * 429), and what follows from what it takes: input → 400/422, a body → 413, path parameters → 414.
 * Every operation may answer 408 and 431 (the request itself could not be read), 500, and 503
 * while the database is unavailable or its node shuts down. 405 belongs to no operation: it
 * answers the methods a path does not have (components.responses.MethodNotAllowed). Every
 * operation refuses a parameter it does not take (422, strict-input.ts). A standard endpoint (the
 * OAuth ones) documents its own errors in its standard's format: it gets only 408 and 431, which
 * the server writes to the socket before any endpoint is known.
 */
function errorCodesOf(method: string, operation: Record<string, unknown>, answers: OperationAnswers): ErrorCode[] {
  if (operation[STANDARD_ENDPOINT] !== undefined) return ['REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE'];
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isRecord) : [];
  const hasInput = parameters.length > 0 || operation.requestBody !== undefined;
  const hasBody = BODY_METHODS.has(method);
  const pathParameters = parameters.some((p) => p.in === 'path');
  const codes = new Set<ErrorCode>(answers.errors);
  if (hasInput || hasBody) codes.add('BAD_REQUEST');
  codes.add('REQUEST_TIMEOUT');
  if (hasBody) codes.add('PAYLOAD_TOO_LARGE');
  if (pathParameters) codes.add('URI_TOO_LONG');
  codes.add('VALIDATION_ERROR');
  codes.add('HEADERS_TOO_LARGE').add('INTERNAL_ERROR').add('SERVICE_UNAVAILABLE');
  // In the table's order: of two codes with one status (409), the first is the one documented.
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => codes.has(code));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object under `key`, created when absent. */
function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  if (isRecord(value)) return value;
  const created: Record<string, unknown> = {};
  parent[key] = created;
  return created;
}

declare module 'fastify' {
  interface FastifySchema {
    /** What the route's policy adds to its operation (OPERATION_ANSWERS); not published. */
    'x-answers'?: OperationAnswers;
  }
}
