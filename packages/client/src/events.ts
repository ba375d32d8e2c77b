/** A login: with the API key or with the client credentials. */
export interface LoginEvent {
  /** The event's kind. */
  type: 'login';
  /** `api_key` (at /v1/auth/login) or `oauth` (at /v1/oauth/login). */
  flow: 'api_key' | 'oauth';
}

/** A refresh of the session's token pair. */
export interface RefreshEvent {
  /** The event's kind. */
  type: 'refresh';
  /** The flow whose refresh endpoint is used: the one the pair was logged in with. */
  flow: 'api_key' | 'oauth';
  /** `expiring`: `refreshSkewSeconds` before expires_at; `unauthorized`: after a 401. */
  cause: 'expiring' | 'unauthorized';
}

/** A refresh failed; the client logs in instead. */
export interface RefreshFailedEvent {
  /** The event's kind. */
  type: 'refresh_failed';
  /** The refresh's HTTP status (0: no answer). */
  status: number;
  /** The error code of the answer. */
  code: string;
  /** Why a 401 refused it, e.g. `refresh_token_revoked`. */
  reason: string | undefined;
}

/** A call was answered 401. */
export interface UnauthorizedEvent {
  /** The event's kind. */
  type: 'unauthorized';
  /** The request, as method and path template: `GET /v1/references/teams`. */
  request: string;
  /** Why the server refused the credential. */
  reason: string | undefined;
  /** What the client does next: refresh, log in, or give up and reject the call. */
  next: 'refresh' | 'login' | 'fail';
}

/** An attempt failed, and the call tries again after a wait. */
export interface RetryEvent {
  /** The event's kind. */
  type: 'retry';
  /** The request, as method and path template. */
  request: string;
  /** The number of the attempt about to be made (2 for the first retry). */
  attempt: number;
  /** How long the call waits first. */
  delayMs: number;
  /** The failed attempt's HTTP status (0: no answer). */
  status: number;
  /** Its error code: `RATE_LIMIT_EXCEEDED`, `NETWORK_ERROR`, `TIMEOUT`, `SERVICE_UNAVAILABLE`, … */
  code: string;
}

/**
 * What the client tells the `log` option. Events name requests by method and path template;
 * they never carry a URL's query, a credential or a token.
 */
export type ClientEvent = LoginEvent | RefreshEvent | RefreshFailedEvent | UnauthorizedEvent | RetryEvent;
