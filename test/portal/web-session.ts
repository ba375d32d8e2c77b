import { expect } from 'vitest';
import type { Answer, Harness } from '../helpers/harness.js';

/** A portal or console session as a browser holds it: the cookie, and the CSRF token the page keeps. */
export interface WebSession {
  cookie: string;
  csrf: string;
}

/** The host the pages are served on in these tests (not localhost, so the cookie is Secure). */
export const HOST = 'portal.example.com';

/** The session a sign-in (201) started. */
export function sessionOf(res: Answer, cookieName: string): WebSession {
  expect(res.statusCode, res.body).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = new RegExp(`^(${cookieName}=[^;]+);`).exec(setCookie)?.[1];
  expect(cookie).toBeDefined();
  return { cookie: cookie ?? '', csrf: res.json<{ csrf_token: string }>().csrf_token };
}

/** A call a page makes with its session: the cookie, and the CSRF token unless `csrf: false`. */
export function sessionCall(h: Harness, s: WebSession, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, options: { csrf?: boolean; body?: object } = {}) {
  return h.anonymous.request({
    method,
    url,
    headers: {
      host: HOST,
      cookie: s.cookie,
      ...(options.csrf === false ? {} : { 'x-csrf-token': s.csrf }),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body ? { payload: JSON.stringify(options.body) } : {}),
  });
}

/** A sign-in posted as the page posts it. */
export const signIn = (h: Harness, url: '/portal/session' | '/console/session', body: object, headers: Record<string, string> = {}) =>
  h.anonymous.request({ method: 'POST', url, headers: { host: HOST, 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });
