import { readFile } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { SESSION_COOKIE, SESSION_MAX_AGE_MS, type PortalSession, type PortalSessions, type TokenPairBody } from './portal.sessions.js';

/** The page's files, beside the repository's sources (the same folder from src/ and from dist/). */
const WEB = new URL('../../../web/portal/', import.meta.url);
const FILES: Record<string, string> = { 'index.html': 'text/html; charset=utf-8', 'portal.js': 'text/javascript; charset=utf-8', 'portal.css': 'text/css; charset=utf-8' };

/** Nothing but this server's own files, no inline script or style, no frame around the page. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Refresh the access token this long before it expires, so that no call races its expiry. */
const REFRESH_MARGIN_MS = 60 * 1000;

const SignIn = Type.Union([
  Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 200, description: 'An API key.' }) }, { additionalProperties: false }),
  Type.Object(
    {
      client_id: Type.String({ minLength: 1, maxLength: 100, description: 'The client_id.' }),
      client_secret: Type.String({ minLength: 1, maxLength: 200, description: 'A client secret.' }),
    },
    { additionalProperties: false },
  ),
]);

export interface PortalRoutesDeps {
  sessions: PortalSessions;
  clock: Clock;
  /** Ends the session's refresh-token family (sign out), as POST /v1/oauth/revoke does. */
  revoke(clientId: string, refreshToken: string): Promise<void>;
}

/**
 * The client portal at /portal: a back end for its front end. The page posts the credential once
 * to POST /portal/session; the server logs in through the public login route, keeps the token pair
 * and refreshes it; the browser gets an opaque HttpOnly cookie. The page's calls to /portal/api/…
 * run the public API's own /v1/account/… routes with the session's token (app.inject): the same
 * handlers, policies, limits and usage (the `account` group) as any client call.
 */
export const portalRoutes: ModuleRoutes<PortalRoutesDeps> = async (app, { sessions, clock, revoke }) => {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    done(null, payload);
  });

  const page = { config: { policy: { auth: 'none', cache: 'no-store' } }, schema: { hide: true } } as const;
  for (const [file, type] of Object.entries(FILES)) {
    const url = file === 'index.html' ? '/portal' : `/portal/${file}`;
    app.get(url, page, async (_request, reply) => reply.type(type).send(await readFile(new URL(file, WEB))));
  }

  /** A call of the public API from inside, from the caller's own address (the login-failure limits count it). */
  const call = (request: FastifyRequest, options: InjectOptions) => app.inject({ ...options, remoteAddress: request.ip });

  app.post(
    '/portal/session',
    { config: { policy: { auth: 'none', cache: 'token' } }, schema: { hide: true, body: SignIn } },
    async (request, reply) => {
      rejectCrossSite(request);
      const body = request.body;
      const login =
        'api_key' in body
          ? await call(request, { method: 'POST', url: '/v1/auth/login', headers: { 'x-api-key': body.api_key } })
          : await call(request, { method: 'POST', url: '/v1/oauth/login', payload: { client_id: body.client_id, client_secret: body.client_secret } });
      if (login.statusCode !== 200) return forward(reply, login);
      const pair = login.json<TokenPairBody>();
      const config = await call(request, { method: 'GET', url: '/v1/account/config', headers: { authorization: `Bearer ${pair.access_token}` } });
      if (config.statusCode !== 200) return forward(reply, config);
      const session = sessions.open(config.json<{ client_id: string }>().client_id, 'api_key' in body ? 'api_key' : 'oauth', pair);
      reply.header('set-cookie', cookie(request, session.id, SESSION_MAX_AGE_MS / 1000));
      return reply.code(201).send({ client_id: session.clientId, csrf_token: session.csrf });
    },
  );

  app.get('/portal/session', { config: { policy: { auth: 'session', cache: 'no-store', csrf: false } }, schema: { hide: true } }, async (request) => {
    const session = sessions.current(request);
    return { client_id: session.clientId, csrf_token: session.csrf };
  });

  app.delete('/portal/session', { config: { policy: { auth: 'session', cache: 'no-store', csrf: true } }, schema: { hide: true } }, async (request, reply) => {
    const session = sessions.current(request);
    sessions.end(session);
    await revoke(session.clientId, session.refreshToken);
    reply.header('set-cookie', cookie(request, '', 0));
    return reply.code(204).send(null);
  });

  /** The session's access token, refreshed through the public refresh route when it is about to expire. */
  async function accessToken(request: FastifyRequest, session: PortalSession): Promise<string> {
    if (session.accessExpiresAt - clock.now() > REFRESH_MARGIN_MS) return session.accessToken;
    const url = session.flow === 'api_key' ? '/v1/auth/refresh' : '/v1/oauth/refresh';
    const refreshed = await call(request, { method: 'POST', url, payload: { refresh_token: session.refreshToken } });
    if (refreshed.statusCode !== 200) {
      sessions.end(session);
      throw new ApiError('UNAUTHORIZED', 'the portal session has ended; sign in again', { reason: 'refresh_token_revoked' });
    }
    sessions.renew(session, refreshed.json<TokenPairBody>());
    return session.accessToken;
  }

  /** /portal/api/X runs /v1/account/X with the session's token: no data path of its own. */
  const account = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const session = sessions.current(request);
    const token = await accessToken(request, session);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const hasBody = request.method === 'POST';
    const answer = await call(request, {
      method: request.method === 'POST' ? 'POST' : request.method === 'DELETE' ? 'DELETE' : 'GET',
      url: `/v1/account/${request.params['*']}${query}`,
      headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      ...(hasBody ? { payload: JSON.stringify(request.body ?? {}) } : {}),
    });
    return forward(reply, answer);
  };
  const schema = { hide: true, params: Type.Object({ '*': Type.String({ maxLength: 200, description: 'The account path.' }) }) };
  app.get('/portal/api/*', { config: { policy: { auth: 'session', cache: 'no-store', csrf: false } }, schema }, account);
  app.route({ method: ['POST', 'DELETE'], url: '/portal/api/*', config: { policy: { auth: 'session', cache: 'no-store', csrf: true } }, schema, handler: account });
};

/**
 * A sign-in posted by another site's page (login CSRF: the victim would browse as the attacker).
 * A browser names the page's origin in Origin on every POST; it must be this one.
 */
function rejectCrossSite(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  // The host only: behind a proxy that ends TLS this server sees http where the page said https.
  if (URL.canParse(origin) && new URL(origin).host === request.headers.host) return;
  throw new ApiError('FORBIDDEN', 'a sign-in from another site is refused');
}

/** The session cookie: HttpOnly, SameSite=Strict, only under /portal, Secure except on localhost (plain HTTP there). */
function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(request.headers.host ?? '');
  return `${SESSION_COOKIE}=${value}; Path=/portal; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${local ? '' : '; Secure'}`;
}

/** The public route's answer as it was: status, body, and the headers a page reads. */
function forward(reply: FastifyReply, answer: LightMyRequestResponse): FastifyReply {
  for (const name of ['content-type', 'retry-after', 'ratelimit', 'ratelimit-policy']) {
    const value = answer.headers[name];
    if (typeof value === 'string' || typeof value === 'number') reply.header(name, value);
  }
  return reply.code(answer.statusCode).send(answer.rawPayload);
}
