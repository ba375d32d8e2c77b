import { readFile } from 'node:fs/promises';
import { stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import type { App } from '../../platform/http/types.js';

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

/** On every answer of the scope: the CSP, no framing (clickjacking), no Referer leaving the page. */
export function addPageHeaders(app: App): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
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
 * A sign-in posted by another site's page (login CSRF: the victim would browse as the attacker).
 * A browser names the page's origin in Origin on every POST; it must be this one.
 */
export function rejectCrossSite(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  // The host only: behind a proxy that ends TLS this server sees http where the page said https.
  if (URL.canParse(origin) && new URL(origin).host === request.headers.host) return;
  throw new ApiError('FORBIDDEN', 'a sign-in from another site is refused');
}

/** A session cookie: HttpOnly, SameSite=Strict, only under its path, Secure except on localhost (plain HTTP there). */
export function sessionCookie(request: FastifyRequest, name: string, path: string, value: string, maxAgeSeconds: number): string {
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(request.headers.host ?? '');
  return stringifySetCookie({ name, value, path, httpOnly: true, sameSite: 'strict', maxAge: maxAgeSeconds, secure: !local });
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
