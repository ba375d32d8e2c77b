import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';

/** Calls of the standard OAuth endpoints, as a standard client makes them: form bodies. */

export type Form = Record<string, string>;

/** RFC 6749 §2.3.1: id and secret form-urlencoded, then `id:secret` in base64. */
export function basic(clientId: string, clientSecret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*~_.-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export function basicOf(client: OnboardedClient): Record<string, string> {
  return { authorization: basic(client.clientId, client.clientSecret) };
}

export function postForm(t: TestApp, url: string, form: Form | string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
}

export const token = (t: TestApp, form: Form | string, headers: Record<string, string> = {}) => postForm(t, '/v1/oauth/token', form, headers);
export const revoke = (t: TestApp, form: Form | string, headers: Record<string, string> = {}) => postForm(t, '/v1/oauth/revoke', form, headers);

/** Asserts an RFC 6749 §5.2 error: this status and code, nothing but error and error_description, no-store. */
export function expectOAuthError(res: LightMyRequestResponse, status: number, error: string): string {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers.pragma).toBe('no-cache');
  // A challenge only on a 401: a client reads one on a 400 as a demand to authenticate.
  if (status !== 401) expect(res.headers['www-authenticate']).toBeUndefined();
  const body = res.json<{ error: string; error_description: string }>();
  expect(body).toEqual({ error, error_description: expect.any(String) });
  // RFC 6749 §5.2: printable ASCII without '"' and '\'.
  expect(body.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  return body.error_description;
}
