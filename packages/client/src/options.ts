import type { ClientEvent } from './events.js';
import type { RetryOptions } from './retry.js';
import type { TokenStore } from './token-store.js';

/** Options of every client, whichever credentials it has. */
export interface CommonOptions {
  /** The deployment's origin, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Seconds before `expires_at` at which the access token is refreshed (default 60; at most half its lifetime). */
  refreshSkewSeconds?: number;
  /** The longest `Retry-After` a call waits out on a 429; a longer one fails the call at once (default 60). */
  maxRetryAfterSeconds?: number;
  /** Milliseconds each HTTP attempt may take (default 30000). A call's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** Where the token pair is kept (default: in memory). See {@link TokenStore} to share it between processes. */
  tokenStore?: TokenStore;
  /** The `fetch` to send requests with (default: the platform's). */
  fetch?: typeof fetch;
  /** How failed attempts are retried. */
  retry?: RetryOptions;
  /** Receives what the client does: logins, refreshes, retries. Events never carry a credential or a token. */
  log?: (event: ClientEvent) => void;
  /**
   * The time the client schedules refreshes by (default `Date.now`). Tests and simulations set
   * it together with the server's.
   */
  clock?: {
    /** Milliseconds since the epoch. */
    now(): number;
  };
}

/** A client with an API key: it logs in at /v1/auth/login and refreshes at /v1/auth/refresh. */
export interface ApiKeyOptions extends CommonOptions {
  /** The API key (`sdk_…`). */
  apiKey: string;
  /**
   * `token` (the default): exchange the key for a token pair and send the access token.
   * `apiKeyHeader`: send the key as `X-API-Key` on every call, with no tokens.
   */
  authMode?: 'token' | 'apiKeyHeader';
  /** Not with an API key: give one or the other. */
  clientId?: never;
  /** Not with an API key: give one or the other. */
  clientSecret?: never;
}

/** A client with OAuth 2.0 client credentials: it logs in at /v1/oauth/login and refreshes at /v1/oauth/refresh. */
export interface ClientCredentialsOptions extends CommonOptions {
  /** The client id (a UUID). */
  clientId: string;
  /** The client secret (`sds_…`). */
  clientSecret: string;
  /** Client credentials are only ever exchanged for tokens. */
  authMode?: 'token';
  /** Not with client credentials: give one or the other. */
  apiKey?: never;
}

/** What {@link SportsDataClient} is built from: an API key, or client credentials. */
export type SportsDataClientOptions = ApiKeyOptions | ClientCredentialsOptions;
