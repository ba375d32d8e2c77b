import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../platform/errors.js';
import { toApiError } from '../../platform/http/errors.plugin.js';
import { errorHeaders } from '../../platform/http/headers.js';

/**
 * Errors of the standard OAuth endpoints, in RFC 6749 §5.2's format (`{"error","error_description"}`)
 * rather than the service's own error shape (docs/api.md#errors): a standard client reads nothing else.
 */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'unsupported_token_type',
  'server_error',
  'temporarily_unavailable',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly error: OAuthErrorCode,
    message: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** RFC 6749 §5.2's body. */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

/**
 * An OAuth error for anything thrown while serving a standard endpoint: our own 401 reasons map to
 * the RFC's codes, a broken request to invalid_request (with its status: 413 stays 413), failures
 * to server_error or temporarily_unavailable. A 401 names the scheme to authenticate with
 * (RFC 6749 §5.2, RFC 9110 §11.6.1): `challenge`.
 */
export function toOAuthError(error: FastifyError | ApiError | OAuthError | Error, challenge: string): OAuthError {
  if (error instanceof OAuthError) return withChallenge(error, challenge);
  if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new OAuthError('invalid_request', 'send the body as application/x-www-form-urlencoded (RFC 6749 §3.2)');
  }
  const apiError = toApiError(error);
  if (apiError.code === 'UNAUTHORIZED') {
    const [code, status] = fromReason(apiError.reason);
    return withChallenge(new OAuthError(code, apiError.message, status), challenge);
  }
  if (apiError.status === 503) return new OAuthError('temporarily_unavailable', apiError.message, 503, apiError.headers);
  if (apiError.status >= 500) return new OAuthError('server_error', apiError.message, apiError.status, apiError.headers);
  // RFC 6749 §5.2 answers a broken request 400 (our 422 included); a body too large stays 413.
  const status = apiError.code === 'VALIDATION_ERROR' ? 400 : apiError.status;
  return new OAuthError('invalid_request', requestProblem(apiError), status, apiError.headers);
}

/** Which RFC code and status answer each of our 401 reasons. */
function fromReason(reason: ApiError['reason']): [OAuthErrorCode, number] {
  switch (reason) {
    case 'token_invalid':
    case 'token_expired':
    case 'refresh_token_revoked':
      // A refresh token that is unknown, expired, revoked or another client's (RFC 6749 §5.2).
      return ['invalid_grant', 400];
    case 'flow_not_enabled':
      // Authenticated, but the account's auth_method does not enable this flow. The contract
      // answers that with 401 everywhere (docs/api.md#which-flows-an-account-may-use); RFC 6749
      // §5.2 lets a code carry another status "unless specified otherwise" (decision 0072).
      return ['unauthorized_client', 401];
    default:
      // Unknown client, wrong secret or key, disabled client, no authentication at all.
      return ['invalid_client', 401];
  }
}

/**
 * A form value can only be text, or a list of texts when the parameter was repeated: a type error
 * in a form body is a repeated parameter, which RFC 6749 §3.2 forbids.
 */
function requestProblem(apiError: ApiError): string {
  const repeated = apiError.details?.find((d) => d.rule === 'type');
  return repeated ? `${repeated.field} must be sent once (RFC 6749 §3.2)` : apiError.message;
}

/** A 401, and only a 401, names the scheme: a client reads a challenge on a 400 as one too. */
function withChallenge(error: OAuthError, challenge: string): OAuthError {
  if (error.status !== 401) return error;
  return new OAuthError(error.error, error.message, error.status, { ...error.headers, 'www-authenticate': challenge });
}

/**
 * RFC 6749 §5.2: error_description is printable ASCII without `"` and `\`. Our messages quote
 * values and name RFC sections (§): those characters are replaced, never sent.
 */
export function errorDescription(message: string): string {
  return message
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    .replace(/§/g, 'section ')
    .replace(/[^\x20-\x7e]/g, '');
}

export function oauthErrorBody(error: OAuthError): OAuthErrorBody {
  return { error: error.error, error_description: errorDescription(error.message) };
}

/** The error handler of the standard endpoints' scope; `challengeOf` names each route's scheme. */
export function oauthErrorHandler(challengeOf: (request: FastifyRequest) => string) {
  return (error: FastifyError | ApiError | OAuthError | Error, request: FastifyRequest, reply: FastifyReply): void => {
    const oauthError = toOAuthError(error, challengeOf(request));
    if (oauthError.status >= 500) request.log.error({ err: error }, 'request failed');
    void reply
      .code(oauthError.status)
      // Pragma too: the scope's cache policy (`token`) adds it to every answer.
      .headers({ ...errorHeaders(request.id), ...oauthError.headers })
      .type('application/json; charset=utf-8')
      .send(oauthErrorBody(oauthError));
  };
}

export function invalidRequest(message: string): OAuthError {
  return new OAuthError('invalid_request', message);
}

export function invalidClient(message: string): OAuthError {
  return new OAuthError('invalid_client', message, 401);
}
