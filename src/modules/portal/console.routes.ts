import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { serviceUnavailable } from '../../platform/errors.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { type OperatorSessionData, SESSION_MAX_AGE_MS, type SessionStore, sessionsFull } from './portal.sessions.js';
import { bodyOf, callFrom, forward, methodOf, proxiedPath, type PublicOrigin, queryOf, serveWebFiles, sessionCookie, signInRoute } from './web.js';

const SignIn = Type.Object(
  { admin_token: Type.String({ minLength: 1, maxLength: 500, description: 'The ADMIN_TOKEN.' }) },
  { additionalProperties: false },
);

/** Whose console sessions are: the one operator the admin token stands for. */
const OPERATOR = 'operator';

const Rest = Type.Object({ '*': Type.String({ maxLength: 300, description: 'The path under /admin/v1.' }) });

/**
 * The operator console at /console, registered only when ADMIN_TOKEN is set (without it, like the
 * admin API, it does not exist: 404). The operator signs in with the admin token once; the server
 * keeps it in the session and the browser holds an opaque HttpOnly cookie. The page's calls to
 * /console/api/… run the admin API's own /admin/v1/… routes with it (app.inject), and
 * /console/health runs /readyz: the console has no data path of its own.
 */
export interface ConsoleRoutesDeps extends PublicOrigin {
  sessions: SessionStore<OperatorSessionData>;
}

export const consoleRoutes: ModuleRoutes<ConsoleRoutesDeps> = async (app, { sessions, publicUrl }) => {
  const site = { publicUrl };
  serveWebFiles(app, 'console', ['index.html', 'console.js', 'web.css', 'uplot.css']);
  const cookie = (request: FastifyRequest, value: string, maxAgeSeconds: number) => sessionCookie(request, site, { name: sessions.cookie, path: '/console' }, value, maxAgeSeconds);

  signInRoute(app, '/console/session', site, SignIn, async (request, body, reply) => {
    const adminToken = body.admin_token;
    // The admin guard of the admin API decides, as it would for the same token sent with curl,
    // from this address: a wrong token counts there once as a failed login, and past the limit
    // its 429 is the answer here too.
    const check = await callFrom(app, request, { method: 'GET', url: '/admin/v1/clients?page_size=1', headers: { authorization: `Bearer ${adminToken}` } });
    if (check.statusCode === 401 || check.statusCode === 429) return forward(reply, check);
    if (check.statusCode !== 200) throw serviceUnavailable('the admin API could not check the token', 5);
    const session = sessions.open(OPERATOR, { adminToken });
    if (session === undefined) throw sessionsFull();
    reply.header('set-cookie', cookie(request, session.id, SESSION_MAX_AGE_MS / 1000));
    return reply.code(201).send({ csrf_token: session.csrf });
  });

  const session = (csrf: boolean) => ({ config: { policy: { auth: 'session', realm: 'console', cache: 'no-store', csrf } } }) as const;

  app.get('/console/session', { ...session(false), schema: { hide: true } }, async (request) => ({ csrf_token: sessions.current(request).csrf }));

  app.delete('/console/session', { ...session(true), schema: { hide: true } }, async (request, reply) => {
    sessions.end(sessions.current(request));
    reply.header('set-cookie', cookie(request, '', 0));
    return reply.code(204).send(null);
  });

  /** /console/api/X runs /admin/v1/X with the session's admin token. */
  const admin = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    // The admin token reaches /admin/v1 and nothing else, however the path is encoded.
    const { path } = proxiedPath(request.params['*'], '/admin/v1/');
    const { headers, ...body } = bodyOf(request);
    const answer = await callFrom(app, request, {
      method: methodOf(request),
      url: `/admin/v1/${path}${queryOf(request)}`,
      headers: { ...headers, authorization: `Bearer ${sessions.current(request).data.adminToken}` },
      ...body,
    });
    return forward(reply, answer);
  };
  const schema = { hide: true, params: Rest };
  app.get('/console/api/*', { ...session(false), schema }, admin);
  app.route({ method: ['POST', 'PATCH', 'DELETE'], url: '/console/api/*', ...session(true), schema, handler: admin });

  /** The service's health as a load balancer sees it: readiness, the database, Redis. */
  app.get('/console/health', { ...session(false), schema: { hide: true } }, async (request, reply) =>
    forward(reply, await callFrom(app, request, { method: 'GET', url: '/readyz' })),
  );
};
