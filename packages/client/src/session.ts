import { abortable } from './abort.js';
import { SportsDataError } from './errors.js';
import type { ClientEvent } from './events.js';
import type { TokenPair } from './generated/types.js';
import type { TokenStore } from './token-store.js';

/** The credentials a session logs in with. */
export type Credentials = { flow: 'api_key'; apiKey: string } | { flow: 'oauth'; clientId: string; clientSecret: string };

/** A token request: login or refresh, a POST to the service's token endpoints. */
export type TokenRequest = (path: string, request: { headers: Record<string, string>; body?: string; retry: boolean }) => Promise<unknown>;

export interface SessionDeps {
  credentials: Credentials;
  store: TokenStore;
  refreshSkewSeconds: number;
  now: () => number;
  request: TokenRequest;
  log: (event: ClientEvent) => void;
}

type Renewal = 'expiring' | 'unauthorized' | 'login';

const ENDPOINTS = {
  api_key: { login: '/v1/auth/login', refresh: '/v1/auth/refresh' },
  oauth: { login: '/v1/oauth/login', refresh: '/v1/oauth/refresh' },
} as const;

/**
 * A token pair kept as the contract asks of a client: refreshed `refreshSkewSeconds` before
 * `expires_at`; one renewal at a time, which every concurrent caller waits for (two refreshes of
 * one refresh token count as reuse and end the session); after a 401, a refresh, then a login.
 */
export class Session {
  readonly #deps: SessionDeps;
  #pair: TokenPair | undefined;
  #loaded = false;
  #renewal: Promise<TokenPair> | undefined;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
  }

  /** A token to send now: the current one, or a renewed one when it is about to expire. */
  async accessToken(signal: AbortSignal | undefined): Promise<string> {
    if (!this.#loaded) {
      this.#pair = await abortable(Promise.resolve(this.#deps.store.get()), signal);
      this.#loaded = true;
    }
    const pair = this.#pair;
    if (pair !== undefined && !this.#expiring(pair)) return pair.access_token;
    return (await this.#renew(pair?.access_token, 'expiring', signal)).access_token;
  }

  /** A token to retry with after `refused` was answered 401: refreshed the first time, from a new login the second. */
  async afterUnauthorized(refused: string, step: 'refresh' | 'login', signal: AbortSignal | undefined): Promise<string> {
    return (await this.#renew(refused, step === 'refresh' ? 'unauthorized' : 'login', signal)).access_token;
  }

  /** The refresh token to revoke at logout, and forgets the pair. */
  async end(): Promise<string | undefined> {
    const pair = (await this.#deps.store.get()) ?? this.#pair;
    await this.#deps.store.set(undefined);
    this.#pair = undefined;
    return pair?.refresh_token;
  }

  get flow(): 'api_key' | 'oauth' {
    return this.#deps.credentials.flow;
  }

  /** Refreshing well before the end: by the skew, but never more than half the token's lifetime early. */
  #expiring(pair: TokenPair): boolean {
    const skewSeconds = Math.min(this.#deps.refreshSkewSeconds, pair.expires_in / 2);
    return Date.parse(pair.expires_at) - skewSeconds * 1000 <= this.#deps.now();
  }

  /**
   * Single flight: a renewal under way is joined, not repeated. It runs apart from any one
   * caller's signal (an abort must not cancel the others' renewal); each caller stops waiting
   * for it on its own abort.
   */
  #renew(stale: string | undefined, why: Renewal, signal: AbortSignal | undefined): Promise<TokenPair> {
    this.#renewal ??= this.#withLock(() => this.#renewNow(stale, why)).finally(() => {
      this.#renewal = undefined;
    });
    return abortable(this.#renewal, signal);
  }

  #withLock<T>(work: () => Promise<T>): Promise<T> {
    const { store } = this.#deps;
    return store.lock ? store.lock(work) : work();
  }

  async #renewNow(stale: string | undefined, why: Renewal): Promise<TokenPair> {
    // The store's newest pair: another client or process sharing it may have renewed already.
    const stored = await this.#deps.store.get();
    if (stored !== undefined && stored.access_token !== stale && !this.#expiring(stored)) {
      this.#pair = stored;
      return stored;
    }
    const refreshed = why !== 'login' && stored !== undefined ? await this.#refresh(stored.refresh_token, why) : undefined;
    const pair = refreshed ?? (await this.#login());
    await this.#deps.store.set(pair);
    this.#pair = pair;
    return pair;
  }

  /**
   * A refresh, or undefined when it failed and a login should follow. Never retried: a refresh
   * whose answer was lost has rotated the token, and sending it again would count as reuse.
   */
  async #refresh(refreshToken: string, cause: 'expiring' | 'unauthorized'): Promise<TokenPair | undefined> {
    const { flow } = this.#deps.credentials;
    this.#deps.log({ type: 'refresh', flow, cause });
    try {
      const answer = await this.#deps.request(ENDPOINTS[flow].refresh, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
        retry: false,
      });
      return tokenPair(answer);
    } catch (error) {
      if (!(error instanceof SportsDataError)) throw error;
      this.#deps.log({ type: 'refresh_failed', status: error.status, code: error.code, reason: error.reason });
      return undefined;
    }
  }

  async #login(): Promise<TokenPair> {
    const { credentials } = this.#deps;
    this.#deps.log({ type: 'login', flow: credentials.flow });
    // A login that is sent twice only starts a second session: it may be retried.
    const answer =
      credentials.flow === 'api_key'
        ? await this.#deps.request(ENDPOINTS.api_key.login, { headers: { 'x-api-key': credentials.apiKey }, retry: true })
        : await this.#deps.request(ENDPOINTS.oauth.login, {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ client_id: credentials.clientId, client_secret: credentials.clientSecret }),
            retry: true,
          });
    return tokenPair(answer);
  }
}

function tokenPair(answer: unknown): TokenPair {
  const pair = answer as Partial<TokenPair> | undefined;
  if (
    typeof pair?.access_token !== 'string' ||
    typeof pair.refresh_token !== 'string' ||
    typeof pair.expires_at !== 'string' ||
    typeof pair.expires_in !== 'number'
  ) {
    throw new SportsDataError({ status: 200, code: 'UNEXPECTED_RESPONSE', message: 'a token endpoint answered without a token pair' });
  }
  return { access_token: pair.access_token, refresh_token: pair.refresh_token, token_type: 'Bearer', expires_at: pair.expires_at, expires_in: pair.expires_in };
}
