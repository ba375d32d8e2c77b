import type { CallOptions, OperationSpec } from './endpoint.js';
import { isUnauthorized } from './errors.js';
import type { ClientEvent } from './events.js';
import type { Api } from './generated/namespaces.js';
import { bindApi } from './generated/operations.js';
import { type HttpDeps, send } from './http.js';
import type { SportsDataClientOptions } from './options.js';
import { type RateLimitState, rateLimitOf } from './rate-limit.js';
import { place } from './request.js';
import { type RetryPolicy, withRetries } from './retry.js';
import { type Credentials, Session } from './session.js';
import { type OddsStreamEvent, type OddsStreamOptions, type OddsStreamParams, oddsStream } from './stream.js';
import { MemoryTokenStore } from './token-store.js';
import { VERSION } from './version.js';

const DEFAULTS = { refreshSkewSeconds: 60, maxRetryAfterSeconds: 60, timeoutMs: 30_000, maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

// The namespaces (`api.account`, `api.references`, …) come from the generated Api, merged into
// the class: an endpoint or namespace added to the table needs nothing here.
export interface SportsDataClient extends Api {}

/**
 * The Sports Data API, with the contract's client duties done: tokens refreshed before they
 * expire, one renewal at a time, a 401 answered by a refresh and then a login; every page of a
 * list on request; `Retry-After` waited out; reads retried after network errors and 5xx.
 *
 * ```ts
 * const api = new SportsDataClient({ baseUrl: 'https://api.example.com', apiKey: process.env.SPORTS_DATA_API_KEY ?? '' });
 * for await (const team of api.references.teams.iterate({ league_key: 'nba' })) console.log(team.name);
 * ```
 */
export class SportsDataClient {
  readonly #baseUrl: string;
  readonly #apiKeyHeader: string | undefined;
  readonly #credentials: Credentials;
  readonly #session: Session | undefined;
  readonly #http: HttpDeps;
  readonly #policy: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #log: (event: ClientEvent) => void;
  #rateLimit: RateLimitState | undefined;

  constructor(options: SportsDataClientOptions) {
    this.#baseUrl = baseUrlOf(options.baseUrl);
    this.#credentials = credentialsOf(options);
    const clock = options.clock ?? { now: () => Date.now() };
    const now = () => clock.now();
    this.#log = (event) => {
      try {
        options.log?.(event);
      } catch {
        // A failing log hook must not fail the call it describes.
      }
    };
    this.#timeoutMs = positive(options.timeoutMs, 'timeoutMs') ?? DEFAULTS.timeoutMs;
    this.#policy = {
      maxRetries: nonNegative(options.retry?.maxRetries, 'retry.maxRetries') ?? DEFAULTS.maxRetries,
      baseDelayMs: nonNegative(options.retry?.baseDelayMs, 'retry.baseDelayMs') ?? DEFAULTS.baseDelayMs,
      maxDelayMs: nonNegative(options.retry?.maxDelayMs, 'retry.maxDelayMs') ?? DEFAULTS.maxDelayMs,
      maxRetryAfterSeconds: nonNegative(options.maxRetryAfterSeconds, 'maxRetryAfterSeconds') ?? DEFAULTS.maxRetryAfterSeconds,
      random: Math.random,
    };
    const platformFetch = options.fetch ?? globalThis.fetch;
    if (typeof platformFetch !== 'function') throw new TypeError('this runtime has no fetch: pass the fetch option');
    this.#http = { fetch: platformFetch, now, observe: (headers) => this.#observe(headers, now()) };

    const apiKeyHeader = options.authMode === 'apiKeyHeader';
    if (apiKeyHeader && this.#credentials.flow !== 'api_key') throw new TypeError("authMode 'apiKeyHeader' needs an apiKey");
    this.#apiKeyHeader = apiKeyHeader && this.#credentials.flow === 'api_key' ? this.#credentials.apiKey : undefined;
    this.#session = apiKeyHeader
      ? undefined
      : new Session({
          credentials: this.#credentials,
          store: options.tokenStore ?? new MemoryTokenStore(),
          refreshSkewSeconds: nonNegative(options.refreshSkewSeconds, 'refreshSkewSeconds') ?? DEFAULTS.refreshSkewSeconds,
          now,
          log: this.#log,
          request: (path, request) => this.#tokenRequest(path, request),
        });
    Object.assign(this, bindApi({ invoke: (spec, params, callOptions) => this.#invoke(spec, params, callOptions) }));
  }

  /**
   * The limits as the last answer that stated them said (`RateLimit`, `RateLimit-Policy`,
   * `X-RateLimit-*`), or undefined before any did.
   */
  get rateLimit(): RateLimitState | undefined {
    return this.#rateLimit;
  }

  /**
   * Ends the session: revokes its refresh token at /v1/oauth/revoke (its whole family, RFC 7009)
   * and forgets the pair. The access token stays valid until it expires; the next call logs in
   * again. Nothing to do with `authMode: 'apiKeyHeader'`.
   */
  async logout(options: CallOptions = {}): Promise<void> {
    const refreshToken = await this.#session?.end();
    if (refreshToken === undefined) return;
    const form = new URLSearchParams({ token: refreshToken });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (this.#credentials.flow === 'api_key') headers['x-api-key'] = this.#credentials.apiKey;
    else {
      form.set('client_id', this.#credentials.clientId);
      form.set('client_secret', this.#credentials.clientSecret);
    }
    await this.#attempt('/v1/oauth/revoke', { method: 'POST', headers, body: form.toString(), idempotent: true }, options);
  }

  /**
   * The live odds stream (`GET /v1/stream/odds`) as typed events: price changes, board and settled
   * events, heartbeats and the server's `end`. A lost connection or an end is followed by a
   * reconnection with `Last-Event-ID`, so no price change is missed or received twice; an access
   * token is renewed when the server refuses it; any other refusal ends the iteration with its
   * {@link SportsDataError}. Stop with `break` or the `signal`.
   *
   * ```ts
   * for await (const event of api.oddsStream({ event_ids: [1], lastEventId: saved })) {
   *   if (event.type === 'odds') saved = event.id;
   * }
   * ```
   */
  oddsStream(params?: OddsStreamParams, options?: OddsStreamOptions): AsyncGenerator<OddsStreamEvent> {
    const session = this.#session;
    const apiKey = this.#apiKeyHeader ?? '';
    const authHeaders = async (refused?: Record<string, string>): Promise<Record<string, string>> => {
      const userAgent = { 'user-agent': `sports-data-client/${VERSION}` };
      if (session === undefined) return { ...userAgent, 'x-api-key': apiKey };
      const token = refused?.authorization?.replace(/^Bearer /, '');
      const next = token === undefined ? await session.accessToken(options?.signal) : await session.afterUnauthorized(token, 'refresh', options?.signal);
      return { ...userAgent, authorization: `Bearer ${next}` };
    };
    return oddsStream({ baseUrl: this.#baseUrl, fetch: this.#http.fetch, now: this.#http.now, authHeaders }, params, options);
  }

  /** One operation: credentials, then the attempt with its retries, and on a 401 the session's remedies. */
  async #invoke<R>(spec: OperationSpec, params: object | undefined, options: CallOptions = {}): Promise<R> {
    const { target, body } = place(spec, params);
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    const call = { method: spec.method, body, idempotent: spec.idempotent, what: `${spec.method} ${spec.path}` };
    const session = this.#session;
    if (session === undefined) {
      return (await this.#attempt(target, { ...call, headers: { ...headers, 'x-api-key': this.#apiKeyHeader ?? '' } }, options)) as R;
    }
    const withToken = async (token: string, remedies: Array<'refresh' | 'login'>): Promise<R> => {
      try {
        return (await this.#attempt(target, { ...call, headers: { ...headers, authorization: `Bearer ${token}` } }, options)) as R;
      } catch (error) {
        if (!isUnauthorized(error)) throw error;
        const [next, ...later] = remedies;
        this.#log({ type: 'unauthorized', request: call.what, reason: error.reason, next: next ?? 'fail' });
        if (next === undefined) throw error;
        return withToken(await session.afterUnauthorized(token, next, options.signal), later);
      }
    };
    return withToken(await session.accessToken(options.signal), ['refresh', 'login']);
  }

  /** Sends to `target` (path and query) with the client's retries, or with none when `retry` is false. */
  #attempt(
    target: string,
    request: { method: string; headers: Record<string, string>; body?: string | undefined; idempotent: boolean; what?: string; retry?: boolean },
    options: CallOptions,
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `sports-data-client/${VERSION}`, ...request.headers };
    if (options.requestId !== undefined) headers['x-request-id'] = options.requestId;
    const timeoutMs = positive(options.timeoutMs, 'timeoutMs') ?? this.#timeoutMs;
    const attempt = { method: request.method, url: `${this.#baseUrl}${target}`, headers, body: request.body, signal: options.signal, timeoutMs };
    return withRetries(() => send(this.#http, attempt), {
      idempotent: request.idempotent,
      policy: request.retry === false ? { ...this.#policy, maxRetries: 0 } : this.#policy,
      signal: options.signal,
      what: request.what ?? `${request.method} ${target}`,
      log: this.#log,
    });
  }

  /** A login or refresh, for the session: apart from any caller's signal, which only ends that caller's wait. */
  #tokenRequest(path: string, request: { headers: Record<string, string>; body?: string; retry: boolean }): Promise<unknown> {
    return this.#attempt(path, { method: 'POST', ...request, idempotent: request.retry }, {});
  }

  #observe(headers: Headers, now: number): void {
    this.#rateLimit = rateLimitOf(headers, now) ?? this.#rateLimit;
  }
}

function credentialsOf(options: SportsDataClientOptions): Credentials {
  const hasKey = typeof options.apiKey === 'string' && options.apiKey !== '';
  const hasClient = typeof options.clientId === 'string' && options.clientId !== '' && typeof options.clientSecret === 'string' && options.clientSecret !== '';
  if (hasKey === hasClient) throw new TypeError('give either apiKey, or clientId and clientSecret');
  if (options.apiKey !== undefined && hasKey) return { flow: 'api_key', apiKey: options.apiKey };
  if (options.clientId !== undefined && options.clientSecret !== undefined) return { flow: 'oauth', clientId: options.clientId, clientSecret: options.clientSecret };
  throw new TypeError('give either apiKey, or clientId and clientSecret');
}

function baseUrlOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Not echoed: a URL that does not parse may still hold a credential.
    throw new TypeError('baseUrl is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('baseUrl must be an http or https URL');
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') throw new TypeError('baseUrl takes no query, fragment or credentials');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function nonNegative(value: number | undefined, name: string): number | undefined {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new TypeError(`${name} must be a number, 0 or more`);
  return value;
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new TypeError(`${name} must be a number above 0`);
  return value;
}
