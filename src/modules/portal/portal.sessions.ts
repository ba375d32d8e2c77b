import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import { type CallbackHook, digestsEqual, type Flow, unauthorized } from '../auth/index.js';

export const SESSION_COOKIE = 'portal_session';
/** A session unused this long ends; so does any session this old, used or not. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_AGE_MS = 12 * 3600 * 1000;
/** At most this many sessions per node: the oldest ends first, so a flood of logins cannot exhaust memory. */
const MAX_SESSIONS = 10_000;

/** A signed-in client's session: its token pair stays here, on the server; the browser holds only the id. */
export interface PortalSession {
  id: string;
  /** Sent back by the page in X-CSRF-Token on every state-changing call. */
  csrf: string;
  clientId: string;
  flow: Flow;
  accessToken: string;
  refreshToken: string;
  /** Epoch ms at which the access token expires. */
  accessExpiresAt: number;
  createdAt: number;
  lastSeenAt: number;
}

export interface TokenPairBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

const opaque = () => randomBytes(32).toString('base64url');

/** The value of one cookie in a Cookie header. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The portal's sessions, in this node's memory. A session is found by the cookie's opaque id;
 * the route's policy step (`admit`) checks it and, for a state-changing call, its CSRF token.
 */
export function createPortalSessions(deps: { clock: Clock }) {
  const { clock } = deps;
  const sessions = new Map<string, PortalSession>();
  const admitted = new WeakMap<FastifyRequest, PortalSession>();

  const expired = (session: PortalSession, now: number) => now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_MAX_AGE_MS;

  function find(request: FastifyRequest): PortalSession | undefined {
    const id = cookieOf(request, SESSION_COOKIE);
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
    /** Starts a session over a fresh token pair. */
    open(clientId: string, flow: Flow, pair: TokenPairBody): PortalSession {
      const now = clock.now();
      if (sessions.size >= MAX_SESSIONS) {
        const oldest = sessions.keys().next();
        if (oldest.done !== true) sessions.delete(oldest.value);
      }
      const session: PortalSession = { id: opaque(), csrf: opaque(), clientId, flow, createdAt: now, lastSeenAt: now, ...tokensOf(pair, now) };
      sessions.set(session.id, session);
      return session;
    },

    /** Replaces a session's pair after a refresh. */
    renew(session: PortalSession, pair: TokenPairBody): void {
      Object.assign(session, tokensOf(pair, clock.now()));
    },

    end(session: PortalSession): void {
      sessions.delete(session.id);
    },

    /** The policy step of a session route: 401 without a live session, 403 without its CSRF token when `csrf`. */
    admit(csrf: boolean): CallbackHook {
      return (request, _reply, done) => {
        const session = find(request);
        if (session === undefined) return done(unauthorized('missing_credentials', 'sign in to the portal first'));
        const token = request.headers['x-csrf-token'];
        if (csrf && (typeof token !== 'string' || !digestsEqual(token, session.csrf))) {
          return done(new ApiError('FORBIDDEN', 'this call needs the X-CSRF-Token of the session'));
        }
        admitted.set(request, session);
        done();
      };
    },

    /** The session a session route's request was admitted with. */
    current(request: FastifyRequest): PortalSession {
      const session = admitted.get(request);
      if (session === undefined) throw new Error('this route reads the portal session, but its policy does not admit one');
      return session;
    },
  };
}

function tokensOf(pair: TokenPairBody, now: number) {
  return { accessToken: pair.access_token, refreshToken: pair.refresh_token, accessExpiresAt: now + pair.expires_in * 1000 };
}

export type PortalSessions = ReturnType<typeof createPortalSessions>;
