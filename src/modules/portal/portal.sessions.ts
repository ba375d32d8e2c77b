import { randomBytes } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { type CallbackHook, digestsEqual, type Flow, unauthorized } from '../auth/index.js';

/** A session unused this long ends; so does any session this old, used or not. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_AGE_MS = 12 * 3600 * 1000;
/**
 * At most this many sessions of one client (or of the operator) per node and store: its next
 * sign-in ends its own oldest. One client signing in again and again ends only its own sessions.
 */
export const SESSIONS_PER_OWNER = 20;
/** How long a sign-in refused by a full store is asked to wait: sessions end within SESSION_IDLE_MS, most sooner. */
const FULL_RETRY_AFTER_SECONDS = 60;

/**
 * Sessions in this node's memory, found by a cookie's opaque id; the route's policy step (`admit`)
 * checks the session and, for a state-changing call, its CSRF token. At most `capacity` of them
 * (memory is bounded however many sign in), and SESSIONS_PER_OWNER of one owner.
 */
export interface SessionStore<T> {
  /** The cookie's name. */
  readonly cookie: string;
  /**
   * A new session of `owner`. An owner with SESSIONS_PER_OWNER already has its oldest ended in
   * its place; otherwise a full store opens none (undefined): it never ends another owner's
   * session to make room, so that one client cannot sign every other one out.
   */
  open(owner: string, data: T): Session<T> | undefined;
  /** Ends a session: its cookie names nothing from now on. */
  end(session: Session<T>): void;
  /** The policy step of a session route: 401 without a live session, 403 without its CSRF token when `csrf`. */
  admit(csrf: boolean): CallbackHook;
  /** The session a session route's request was admitted with. */
  current(request: FastifyRequest): Session<T>;
}

/** The portal's and the console's sessions: each its own cookie, so that one never stands for the other. */
export interface WebSessions {
  /** Clients signed in to the portal. */
  portal: SessionStore<ClientSessionData>;
  /** The operator signed in to the console. */
  console: SessionStore<OperatorSessionData>;
}

/** A signed-in browser's session: what it holds stays here, on the server; the browser holds only the id. */
export interface Session<T> {
  readonly id: string;
  /** Whose: a client_id, or the operator. */
  readonly owner: string;
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

export function createSessionStore<T>(deps: { clock: Clock; cookie: string; capacity: number }): SessionStore<T> {
  const { clock, cookie } = deps;
  const store: Sessions<T> = { ...deps, byId: new Map(), owners: new Map() };
  const admitted = new WeakMap<FastifyRequest, Session<T>>();
  return {
    cookie,
    open: (owner, data) => open(store, owner, data, clock.now()),
    end: (session) => remove(store, session),
    admit(csrf) {
      return (request, _reply, done) => {
        const session = find(store, request);
        if (session === undefined) return done(unauthorized('missing_credentials', 'sign in first'));
        const token = request.headers['x-csrf-token'];
        if (csrf && (typeof token !== 'string' || !digestsEqual(token, session.csrf))) {
          return done(new ApiError('FORBIDDEN', 'this call needs the X-CSRF-Token of the session'));
        }
        admitted.set(request, session);
        done();
      };
    },
    current(request) {
      const session = admitted.get(request);
      if (session === undefined) throw new Error('this route reads a session, but its policy does not admit one');
      return session;
    },
  };
}

/** A store's sessions, by id and by owner. */
interface Sessions<T> {
  clock: Clock;
  cookie: string;
  capacity: number;
  byId: Map<string, Session<T>>;
  /** Each owner's sessions, oldest first. */
  owners: Map<string, Map<string, Session<T>>>;
}

const expired = (session: Session<unknown>, now: number) => now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_MAX_AGE_MS;

function open<T>(store: Sessions<T>, owner: string, data: T, now: number): Session<T> | undefined {
  const own = store.owners.get(owner) ?? new Map<string, Session<T>>();
  if (own.size >= SESSIONS_PER_OWNER) {
    const [oldest] = own.values();
    if (oldest !== undefined) remove(store, oldest);
  } else if (store.byId.size >= store.capacity) {
    sweep(store, now);
    if (store.byId.size >= store.capacity) return undefined;
  }
  const session: Session<T> = { id: opaque(), owner, csrf: opaque(), createdAt: now, lastSeenAt: now, data };
  store.byId.set(session.id, session);
  own.set(session.id, session);
  store.owners.set(owner, own);
  return session;
}

function remove<T>(store: Sessions<T>, session: Session<T>): void {
  store.byId.delete(session.id);
  const own = store.owners.get(session.owner);
  own?.delete(session.id);
  if (own?.size === 0) store.owners.delete(session.owner);
}

/** Ends every session past its time: what makes room in a full store. */
function sweep<T>(store: Sessions<T>, now: number): void {
  for (const session of store.byId.values()) if (expired(session, now)) remove(store, session);
}

/** The live session the request's cookie names, marked as seen now. */
function find<T>(store: Sessions<T>, request: FastifyRequest): Session<T> | undefined {
  const id = cookieOf(request, store.cookie);
  const session = id === undefined ? undefined : store.byId.get(id);
  if (session === undefined) return undefined;
  const now = store.clock.now();
  if (expired(session, now)) {
    remove(store, session);
    return undefined;
  }
  session.lastSeenAt = now;
  return session;
}

/** 429 for a sign-in that a full store has no room for. */
export function sessionsFull(): ApiError {
  return new ApiError('RATE_LIMIT_EXCEEDED', 'this server has as many signed-in sessions as it keeps; try again later', {
    headers: { 'retry-after': String(FULL_RETRY_AFTER_SECONDS) },
  });
}

export function createWebSessions(deps: { clock: Clock; capacity: number }): WebSessions {
  const { clock, capacity } = deps;
  return {
    portal: createSessionStore<ClientSessionData>({ clock, capacity, cookie: 'portal_session' }),
    console: createSessionStore<OperatorSessionData>({ clock, capacity, cookie: 'console_session' }),
  };
}

/** The client session's fields a token pair sets. */
export function tokensOf(pair: TokenPairBody, now: number): Pick<ClientSessionData, 'accessToken' | 'refreshToken' | 'accessExpiresAt'> {
  return { accessToken: pair.access_token, refreshToken: pair.refresh_token, accessExpiresAt: now + pair.expires_in * 1000 };
}
