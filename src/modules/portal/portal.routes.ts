import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { ApiError } from '../../platform/errors.js';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import type { Authenticator } from '../auth/index.js';
import { type ClientSessionData, SESSION_MAX_AGE_MS, type Session, type SessionStore, sessionsFull, type TokenPairBody, tokensOf } from './portal.sessions.js';
import { bodyOf, callFrom, forward, methodOf, proxiedPath, type PublicOrigin, queryOf, serveWebFiles, sessionCookie, signInRoute } from './web.js';

/** Refresh the access token this long before it expires, so that no call races its expiry. */
const REFRESH_MARGIN_MS = 60 * 1000;

/**
 * What "Try it" may call: the data and account routes. Never the token endpoints, whose answers
 * carry the tokens the page must not see, nor the event stream, which never ends.
 */
const TRY_REFUSED: ReadonlySet<string> = new Set(['auth', 'oauth', 'stream']);

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

const sessionEnded = () => new ApiError('UNAUTHORIZED', 'the portal session has ended; sign in again', { reason: 'refresh_token_revoked' });

const Rest = Type.Object({ '*': Type.String({ maxLength: 300, description: 'The path under /v1.' }) });

export interface PortalRoutesDeps extends PublicOrigin {
  sessions: SessionStore<ClientSessionData>;
  /** Whether the API still accepts the session's access token (its key deleted, its client disabled…), without counting a call. */
  authenticator: Pick<Authenticator, 'authenticate'>;
  clock: Clock;
  /** Ends the session's refresh-token family (sign out), as POST /v1/oauth/revoke does. */
  revoke(clientId: string, refreshToken: string): Promise<void>;
}

/**
 * The client portal at /portal: a back end for its front end. The page posts the credential once
 * to POST /portal/session; the server logs in through the public login route, keeps the token pair
 * and refreshes it; the browser gets an opaque HttpOnly cookie. The page's calls to /portal/api/…
 * run the public API's own /v1/account/… routes with the session's token (app.inject), its calls
 * to /portal/webhooks… the /v1/webhooks… routes, and "Try it" (/portal/try/…) its other /v1 routes: the same handlers, policies, limits and usage as any
 * client call (the portal's own refreshes are `account` calls: the minute, never the day).
 */
export const portalRoutes: ModuleRoutes<PortalRoutesDeps> = async (app, deps) => {
  serveWebFiles(app, 'portal', ['index.html', 'portal.js', 'web.css', 'uplot.css']);
  const accessToken = sessionAccessTokens(app, deps);
  sessionRoutes(app, deps, accessToken);
  proxyRoutes(app, deps, accessToken);
};

/** The session's access token, refreshed through the public refresh route when it is about to expire. */
type AccessToken = (request: FastifyRequest, current: Session<ClientSessionData>) => Promise<string>;

const session = (csrf: boolean) => ({ config: { policy: { auth: 'session', realm: 'portal', cache: 'no-store', csrf } } }) as const;

/** Sign in, the page's check on load, sign out. */
function sessionRoutes(app: App, { sessions, clock, revoke, authenticator, publicUrl }: PortalRoutesDeps, accessToken: AccessToken): void {
  const site = { publicUrl };
  const cookie = (request: FastifyRequest, value: string, maxAgeSeconds: number) => sessionCookie(request, site, { name: sessions.cookie, path: '/portal' }, value, maxAgeSeconds);

  signInRoute(app, '/portal/session', site, SignIn, async (request, body, reply) => {
    const login =
      'api_key' in body
        ? await callFrom(app, request, { method: 'POST', url: '/v1/auth/login', headers: { 'x-api-key': body.api_key } })
        : await callFrom(app, request, { method: 'POST', url: '/v1/oauth/login', payload: { client_id: body.client_id, client_secret: body.client_secret } });
    if (login.statusCode !== 200) return forward(reply, login);
    const pair = login.json<TokenPairBody>();
    const config = await callFrom(app, request, { method: 'GET', url: '/v1/account/config', headers: { authorization: `Bearer ${pair.access_token}` } });
    if (config.statusCode !== 200) return forward(reply, config);
    const clientId = config.json<{ client_id: string }>().client_id;
    const session = sessions.open(clientId, { clientId, flow: 'api_key' in body ? 'api_key' : 'oauth', ...tokensOf(pair, clock.now()) });
    if (session === undefined) {
      // No session holds the pair just issued: it ends here, unused.
      await revoke(clientId, pair.refresh_token);
      throw sessionsFull();
    }
    reply.header('set-cookie', cookie(request, session.id, SESSION_MAX_AGE_MS / 1000));
    return reply.code(201).send({ client_id: clientId, csrf_token: session.csrf });
  });

  /**
   * The page asks this on load to know whether it is signed in: a session whose token the API no
   * longer accepts (its key deleted, its client disabled or reset) has ended, as it has for every
   * other call. The token is checked as any call's is, but no call is counted.
   */
  app.get('/portal/session', { ...session(false), schema: { hide: true } }, async (request) => {
    const current = sessions.current(request);
    const token = await accessToken(request, current);
    try {
      await authenticator.authenticate({ authorization: `Bearer ${token}` });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      sessions.end(current);
      throw sessionEnded();
    }
    return { client_id: current.data.clientId, csrf_token: current.csrf };
  });

  app.delete('/portal/session', { ...session(true), schema: { hide: true } }, async (request, reply) => {
    const current = sessions.current(request);
    sessions.end(current);
    await revoke(current.data.clientId, current.data.refreshToken);
    reply.header('set-cookie', cookie(request, '', 0));
    return reply.code(204).send(null);
  });
}

function sessionAccessTokens(app: App, { sessions, clock }: PortalRoutesDeps): AccessToken {
  /**
   * The refresh under way for a session. A refresh token is used once: a second refresh with it is
   * a replay, which revokes the session's whole family. The usage page sends two calls at once;
   * near the token's expiry both would refresh, and the second would sign the user out. So one
   * call refreshes, and the others of the session wait for its token (single-flight per session).
   */
  const refreshing = new WeakMap<Session<ClientSessionData>, Promise<string>>();

  function accessToken(request: FastifyRequest, current: Session<ClientSessionData>): Promise<string> {
    if (current.data.accessExpiresAt - clock.now() > REFRESH_MARGIN_MS) return Promise.resolve(current.data.accessToken);
    const pending = refreshing.get(current);
    if (pending !== undefined) return pending;
    const refresh = refreshed(request, current).finally(() => refreshing.delete(current));
    refreshing.set(current, refresh);
    return refresh;
  }

  async function refreshed(request: FastifyRequest, current: Session<ClientSessionData>): Promise<string> {
    const { data } = current;
    const url = data.flow === 'api_key' ? '/v1/auth/refresh' : '/v1/oauth/refresh';
    const answer = await callFrom(app, request, { method: 'POST', url, payload: { refresh_token: data.refreshToken } });
    if (answer.statusCode !== 200) {
      sessions.end(current);
      throw sessionEnded();
    }
    current.data = { ...data, ...tokensOf(answer.json<TokenPairBody>(), clock.now()) };
    return current.data.accessToken;
  }

  return accessToken;
}

/** The page's calls to the account routes, the webhook routes, and "Try it". */
function proxyRoutes(app: App, { sessions }: PortalRoutesDeps, accessToken: AccessToken): void {
  /** Runs `/v1/{path}` with the session's token (`path` as proxiedPath resolved it): no data path of its own. */
  const run: Run = async (request, reply, path) => {
    const current = sessions.current(request);
    const token = await accessToken(request, current);
    const { headers, ...body } = bodyOf(request);
    const answer = await callFrom(app, request, { method: methodOf(request), url: `/v1/${path}${queryOf(request)}`, headers: { ...headers, authorization: `Bearer ${token}` }, ...body });
    // The API refused the session's own token: the session has ended, whatever the page does next.
    if (answer.statusCode === 401) sessions.end(current);
    return forward(reply, answer);
  };

  /** /portal/api/X runs /v1/account/X, and nothing outside it. */
  const account = (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) =>
    run(request, reply, `account/${proxiedPath(request.params['*'], '/v1/account/').path}`);
  const schema = { hide: true, params: Rest };
  app.get('/portal/api/*', { ...session(false), schema }, account);
  app.route({ method: ['POST', 'DELETE'], url: '/portal/api/*', ...session(true), schema, handler: account });

  webhookProxyRoutes(app, run);

  /**
   * "Try it": /portal/try/X runs /v1/X. Every method asks for the CSRF token, a GET too: a data
   * call spends the client's quota, which another site's page must not do with its cookie.
   */
  app.route({
    method: ['GET', 'POST'],
    url: '/portal/try/*',
    ...session(true),
    schema,
    handler: async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
      const { path, segments } = proxiedPath(request.params['*'], '/v1/');
      if (TRY_REFUSED.has(segments[0] ?? '')) throw new ApiError('FORBIDDEN', 'the token and stream endpoints cannot be tried from the portal');
      return run(request, reply, path);
    },
  });
}

type Run = (request: FastifyRequest, reply: FastifyReply, path: string) => Promise<FastifyReply>;

/**
 * The webhooks section: /portal/webhooks and /portal/webhooks/X run /v1/webhooks and /v1/webhooks/X,
 * and GET /portal/webhook-event-types runs /v1/webhook-event-types; nothing outside them. They are
 * account calls (the minute only), so a GET needs no CSRF token, as /portal/api's do not; a change,
 * a test message sent or a secret rotated does.
 */
function webhookProxyRoutes(app: App, run: Run): void {
  const nested = (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) =>
    run(request, reply, `webhooks/${proxiedPath(request.params['*'], '/v1/webhooks/').path}`);
  const hidden = { schema: { hide: true } } as const;
  app.get('/portal/webhook-event-types', { ...session(false), ...hidden }, (request, reply) => run(request, reply, 'webhook-event-types'));
  app.get('/portal/webhooks', { ...session(false), ...hidden }, (request, reply) => run(request, reply, 'webhooks'));
  app.post('/portal/webhooks', { ...session(true), ...hidden }, (request, reply) => run(request, reply, 'webhooks'));
  const schema = { hide: true, params: Rest };
  app.get('/portal/webhooks/*', { ...session(false), schema }, nested);
  app.route({ method: ['POST', 'PATCH', 'DELETE'], url: '/portal/webhooks/*', ...session(true), schema, handler: nested });
}
