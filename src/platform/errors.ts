/**
 * One closed table of error codes (docs/api.md#errors). The HTTP status comes from the code,
 * never from the throw site. Every error is raised one way: `new ApiError(code, message)`; the two
 * helpers below exist only because their code always needs more than a message (the one field a
 * 422 names, the Retry-After of a 503), and are then the only way to raise that error.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  AMBIGUOUS_LOOKUP: 409,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  VALIDATION_ERROR: 422,
  RATE_LIMIT_EXCEEDED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field: string;
  rule: string;
}

export interface ApiErrorOptions {
  details?: ErrorDetail[];
  /** What refines the code, from a closed list of its own: a 401's reason (the auth module's). */
  reason?: string;
  /** Extra response headers, e.g. WWW-Authenticate or Retry-After. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly reason: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.reason = options.reason;
    this.headers = options.headers ?? {};
  }
}

/**
 * 503: a dependency is unavailable or the node is draining; the client waits Retry-After seconds.
 * `headers` adds to Retry-After (a draining node also closes the connection).
 */
export function serviceUnavailable(message: string, retryAfterSeconds: number, headers: Record<string, string> = {}): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', message, { headers: { 'retry-after': String(retryAfterSeconds), ...headers } });
}

/** 422 naming one field and the rule it broke; a 422 naming several builds its `details` with `new ApiError`. */
export function validationError(field: string, rule: string, message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { details: [{ field, rule }] });
}

/** The JSON body of every error response. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    request_id: string;
    reason?: string;
    details?: ErrorDetail[];
  };
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.details ? { details: error.details } : {}),
    },
  };
}
