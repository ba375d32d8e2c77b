import { randomBytes } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { type CallbackHook, digestsEqual, type Flow, unauthorized } from '../auth/index.js';

/** A session unused this long ends; so does any session this old, used or not. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_AGE_MS = 12 * 3600 * 1000;
/** At most this many sessions per node and store: the oldest ends first, so a flood of logins cannot exhaust memory. */
const MAX_SESSIONS = 10_000;

/** A signed-in browser's session: what it holds stays here, on the server; the browser holds only the id. */
export interface Session<T> {
  readonly id: string;
  /** Sent back by the page in X-CSRF-Token on every state-changing call. */
  readonly csrf: string;
  readonly createdAt: number;
  lastSeenAt: number;
  data: T;
}

/** A client's portal session: its token pair, refreshed by the server. */
export interface ClientSessionData {
  clientId: string;
  flow: Flow;
  accessToken: string;
  refreshToken: string;
  /** Epoch ms at which the access token expires. */
  accessExpiresAt: number;
}

/** An operator's console session: the admin token it signed in with. */
export interface OperatorSessionData {
  adminToken: string;
}

export interface TokenPairBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

const opaque = () => randomBytes(32).toString('base64url');

/** The value of one cookie in a Cookie header. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  return parseCookie(request.headers.cookie ?? '')[name];
}

/**
 * Sessions in this node's memory, found by a cookie's opaque id; the route's policy step (`admit`)
 * checks the session and, for a state-changing call, its CSRF token.
 */
export function createSessionStore<T>(deps: { clock: Clock; cookie: string }) {
  const { clock, cookie } = deps;
  const sessions = new Map<string, Session<T>>();
  const admitted = new WeakMap<FastifyRequest, Session<T>>();

  const expired = (session: Session<T>, now: number) => now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_MAX_AGE_MS;

  function find(request: FastifyRequest): Session<T> | undefined {
    const id = cookieOf(request, cookie);
    const session = id === undefined ? undefined : sessions.get(id);
    if (session === undefined) return undefined;
    const now = clock.now();
    if (expired(session, now)) {
      sessions.delete(session.id);
      return undefined;
    }
    session.lastSeenAt = now;
    return session;
  }

  return {
    /** The cookie's name. */
    cookie,

    open(data: T): Session<T> {
      const now = clock.now();
      if (sessions.size >= MAX_SESSIONS) {
        const oldest = sessions.keys().next();
        if (oldest.done !== true) sessions.delete(oldest.value);
      }
      const session: Session<T> = { id: opaque(), csrf: opaque(), createdAt: now, lastSeenAt: now, data };
      sessions.set(session.id, session);
      return session;
    },

    end(session: Session<T>): void {
      sessions.delete(session.id);
    },

    /** The policy step of a session route: 401 without a live session, 403 without its CSRF token when `csrf`. */
    admit(csrf: boolean): CallbackHook {
      return (request, _reply, done) => {
        const session = find(request);
        if (session === undefined) return done(unauthorized('missing_credentials', 'sign in first'));
        const token = request.headers['x-csrf-token'];
        if (csrf && (typeof token !== 'string' || !digestsEqual(token, session.csrf))) {
          return done(new ApiError('FORBIDDEN', 'this call needs the X-CSRF-Token of the session'));
        }
        admitted.set(request, session);
        done();
      };
    },

    /** The session a session route's request was admitted with. */
    current(request: FastifyRequest): Session<T> {
      const session = admitted.get(request);
      if (session === undefined) throw new Error('this route reads a session, but its policy does not admit one');
      return session;
    },
  };
}

export type SessionStore<T> = ReturnType<typeof createSessionStore<T>>;

/** The portal's and the console's sessions: each its own cookie, so that one never stands for the other. */
export function createWebSessions(deps: { clock: Clock }) {
  return {
    portal: createSessionStore<ClientSessionData>({ clock: deps.clock, cookie: 'portal_session' }),
    console: createSessionStore<OperatorSessionData>({ clock: deps.clock, cookie: 'console_session' }),
  };
}

export type WebSessions = ReturnType<typeof createWebSessions>;

/** The client session's fields a token pair sets. */
export function tokensOf(pair: TokenPairBody, now: number): Pick<ClientSessionData, 'accessToken' | 'refreshToken' | 'accessExpiresAt'> {
  return { accessToken: pair.access_token, refreshToken: pair.refresh_token, accessExpiresAt: now + pair.expires_in * 1000 };
}
