import { readFile } from 'node:fs/promises';
import { stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TSchema } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { App, BodyOf } from '../../platform/http/types.js';

/**
 * What the portal and the console share: their pages' files (bundled by `npm run build` into
 * dist/web, the same folder from src/ and from dist/), the headers every answer of theirs carries,
 * their cookies, and how their routes run the API's own routes.
 */
const WEB = new URL('../../../dist/web/', import.meta.url);

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

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

/** The paths of the pages: /portal and /console, and everything under them. */
const PAGE_PATH = /^\/(portal|console)(\/|\?|$)/;

/**
 * On every answer under /portal and /console, a 404 of a path no route has included (the root's
 * not-found answer, which no hook of the pages' own scope sees): the CSP, no framing
 * (clickjacking), no Referer leaving the page. A route is known by its pattern, so that an
 * escaped path that reaches a page's route gets them too.
 */
export function registerPageHeaders(app: App): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (PAGE_PATH.test(request.routeOptions.url ?? request.url)) {
      reply.header('content-security-policy', CSP);
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'no-referrer');
    }
    done(null, payload);
  });
}

/** Serves `folder`'s bundled files under `/{folder}`: its index.html at `/{folder}` itself. */
export function serveWebFiles(app: App, folder: string, files: readonly string[]): void {
  const page = { config: { policy: { auth: 'none', cache: 'no-store' } }, schema: { hide: true } } as const;
  for (const file of files) {
    const url = file === 'index.html' ? `/${folder}` : `/${folder}/${file}`;
    const type = TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
    app.get(url, page, async (_request, reply) => reply.type(type).send(await readFile(new URL(`${folder}/${file}`, WEB))));
  }
}

/** A call of the API's own routes from inside, from the caller's own address (the login-failure limits count it). */
export function callFrom(app: App, request: FastifyRequest, options: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject({ ...options, remoteAddress: request.ip });
}

/**
 * Where the pages are served from, as the browser sees it: PUBLIC_URL when set; otherwise the
 * request's own scheme and host, where Fastify believes X-Forwarded-Proto and X-Forwarded-Host
 * only from the TRUST_PROXY hops (a client cannot claim HTTPS or another host through a proxy
 * the service does not trust). Behind a proxy that ends TLS, the node itself sees plain HTTP and
 * often the proxy's upstream name.
 */
export interface PublicOrigin {
  /** PUBLIC_URL's origin, or undefined: each request's own. */
  readonly publicUrl: string | undefined;
}

/** The page's host (`host[:port]`, lower case) and whether it is served over HTTPS. */
function pageOf(request: FastifyRequest, { publicUrl }: PublicOrigin): { host: string; https: boolean } {
  if (publicUrl !== undefined) {
    const url = new URL(publicUrl);
    return { host: url.host, https: url.protocol === 'https:' };
  }
  return { host: request.host.toLowerCase(), https: request.protocol === 'https' };
}

/**
 * A sign-in posted by another site's page (login CSRF: the victim would browse as the attacker).
 * A browser names the page's origin in Origin on every POST. With PUBLIC_URL it must be that
 * origin exactly; without, its host must be the page's (the scheme is not compared: behind a
 * proxy that ends TLS and is not trusted, the node sees http where the page said https).
 */
function rejectCrossSite(request: FastifyRequest, site: PublicOrigin): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (URL.canParse(origin)) {
    const url = new URL(origin);
    if (site.publicUrl === undefined ? url.host === pageOf(request, site).host : url.origin === site.publicUrl) return;
  }
  throw new ApiError('FORBIDDEN', 'a sign-in from another site is refused');
}

/**
 * A sign-in route: anyone may post a credential to it, but not from another site's page
 * (rejectCrossSite); its answer carries the session's CSRF token, which no cache may keep.
 */
export function signInRoute<Body extends TSchema>(
  app: App,
  url: string,
  site: PublicOrigin,
  body: Body,
  signIn: (request: FastifyRequest, body: BodyOf<Body>, reply: FastifyReply) => Promise<FastifyReply>,
): void {
  app.post(
    url,
    { config: { policy: { auth: 'none', cache: 'token' } }, schema: { hide: true, body } },
    async (request, reply) => {
      rejectCrossSite(request, site);
      return signIn(request, request.body, reply);
    },
  );
}

const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * A session cookie: HttpOnly, SameSite=Strict, only under its path, and Secure unless the page is
 * served over plain HTTP from this machine (localhost: a browser keeps no Secure cookie there).
 */
export function sessionCookie(request: FastifyRequest, site: PublicOrigin, cookie: { name: string; path: string }, value: string, maxAgeSeconds: number): string {
  const page = pageOf(request, site);
  const secure = page.https || !LOCAL_HOST.test(page.host);
  return stringifySetCookie({ ...cookie, value, httpOnly: true, sameSite: 'strict', maxAge: maxAgeSeconds, secure });
}

/** The inner route's answer as it was: status, body, and the headers a page reads. */
export function forward(reply: FastifyReply, answer: LightMyRequestResponse): FastifyReply {
  for (const name of ['content-type', 'retry-after', 'ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    const value = answer.headers[name];
    if (typeof value === 'string' || typeof value === 'number') reply.header(name, value);
  }
  return reply.code(answer.statusCode).send(answer.rawPayload);
}

/** The query string of a request's URL, `?` included, or ''. */
export const queryOf = (request: FastifyRequest): string => (request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '');

/** The method of a request, as inject takes it. */
export function methodOf(request: FastifyRequest): 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' {
  const method = request.method;
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE' ? method : 'GET';
}

/** The request's JSON body, re-sent as it came (a method with a body), for inject. */
export function bodyOf(request: FastifyRequest): Pick<InjectOptions, 'payload'> & { headers: Record<string, string> } {
  const method = methodOf(request);
  if (method === 'GET' || method === 'DELETE') return { headers: {} };
  return { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(request.body ?? {}) };
}

/** How often a segment is decoded, at most, to find what it stands for: text still encoded after that is refused. */
const MAX_DECODINGS = 4;

/** What no segment may be or hold once decoded: a dot segment, a backslash (a slash to a URL parser), a control character (dropped by one). */
const CLIMBING = /^\.{1,2}$|[\\\u0000-\u001f\u007f]/;

/**
 * The path a proxy runs under its API's prefix, from its route's wildcard (decoded once by the
 * router), resolved once: each segment encoded again, so that the route reached sees exactly the
 * segments given, and no URL parser on the way can read a dot segment or a slash in them. What the
 * path stands for is checked decoded as often as it takes (`%252e` is `%2e` is `.`): a dot
 * segment, a backslash, a control character or an empty segment (a doubled slash) anywhere in it
 * is a 403 before any call. Returns the path to run (no leading slash) and the segments it stands
 * for, decoded, for the proxy's own rule of what it runs.
 */
export function proxiedPath(rest: string, prefix: string): { path: string; segments: string[] } {
  const refuse = () => new ApiError('FORBIDDEN', `this path leaves ${prefix}: no dot segment, backslash or empty segment is run, however encoded`);
  let decoded = rest;
  for (let round = 0; /%[0-9a-f]{2}/i.test(decoded); round += 1) {
    if (round === MAX_DECODINGS) throw refuse();
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      throw refuse();
    }
  }
  const segments = decoded.split('/');
  if (segments.some((segment) => segment === '' || CLIMBING.test(segment))) throw refuse();
  return { path: rest.split('/').map(encodeURIComponent).join('/'), segments };
}
