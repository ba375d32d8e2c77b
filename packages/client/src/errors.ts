import type { ErrorBody } from './generated/types.js';

/** The error codes of the API (its closed table today; a later one may add codes). */
export type ApiErrorCode = ErrorBody['error']['code'];

/** Why a 401 refused the credentials. */
export type UnauthorizedReason = NonNullable<ErrorBody['error']['reason']>;

/**
 * Codes of failures that got no answer from the API: the network failed (`NETWORK_ERROR`), an
 * attempt took longer than its timeout (`TIMEOUT`), or the answer was not the API's JSON
 * (`UNEXPECTED_RESPONSE`, e.g. a proxy's HTML page; `status` then says what came).
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE';

/** What a {@link SportsDataError} is made of; its properties say what each is. */
export interface SportsDataErrorFields {
  /** See {@link SportsDataError.status}. */
  status: number;
  /** See {@link SportsDataError.code}. */
  code: ApiErrorCode | ClientErrorCode | (string & {});
  /** What went wrong, for people. */
  message: string;
  /** See {@link SportsDataError.reason}. */
  reason?: UnauthorizedReason | (string & {}) | undefined;
  /** See {@link SportsDataError.request_id}. */
  request_id?: string | undefined;
  /** See {@link SportsDataError.details}. */
  details?: ErrorBody['error']['details'] | undefined;
  /** See {@link SportsDataError.retryAfterSeconds}. */
  retryAfterSeconds?: number | undefined;
  /** The underlying failure, e.g. the network error `fetch` threw. */
  cause?: unknown;
}

/**
 * Every failure of a call, except a cancellation by your own AbortSignal (which rejects with the
 * signal's reason). Act on `code` and, for a 401, on `reason`; `message` is for people.
 *
 * ```ts
 * try {
 *   await api.references.teams.list({ league_key: 'nba' });
 * } catch (error) {
 *   if (error instanceof SportsDataError && error.reason === 'client_disabled') alertTheOperator(error.request_id);
 *   else throw error;
 * }
 * ```
 */
export class SportsDataError extends Error {
  /** Always `SportsDataError`. */
  override readonly name = 'SportsDataError';
  /** The HTTP status of the answer; 0 when no answer came (`NETWORK_ERROR`, `TIMEOUT`). */
  readonly status: number;
  /** The API's error code (`NOT_FOUND`, `RATE_LIMIT_EXCEEDED`, …) or one of {@link ClientErrorCode}. */
  readonly code: ApiErrorCode | ClientErrorCode | (string & {});
  /** On a 401, why the credentials were refused (`client_disabled`, `token_expired`, …). */
  readonly reason: UnauthorizedReason | (string & {}) | undefined;
  /** The request's id (also its `X-Request-Id`): quote it to the operator. */
  readonly request_id: string | undefined;
  /** On a 400 or 422, every offending field and the rule it broke. */
  readonly details: ErrorBody['error']['details'] | undefined;
  /** On a 429 or 503, the seconds `Retry-After` asked to wait. */
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: SportsDataErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.status = fields.status;
    this.code = fields.code;
    this.reason = fields.reason;
    this.request_id = fields.request_id;
    this.details = fields.details;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

/** A 401 from the API: the credential or token was refused. */
export const isUnauthorized = (error: unknown): error is SportsDataError => error instanceof SportsDataError && error.status === 401;
