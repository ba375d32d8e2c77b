import { TEST_ADMIN_TOKEN } from '../helpers/app.js';

/** Calls to a real server process over HTTP, for the scale-out tests. */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

export const admin = (url: string, method: string, path: string, body?: unknown) =>
  call(url, method, path, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body);

export async function onboard(url: string): Promise<{ clientId: string; apiKey: string }> {
  const { status, body } = await admin(url, 'POST', '/admin/v1/clients', { name: 'Scale-out', tier: 'pro', auth_method: 'both' });
  if (status !== 201) throw new Error(`onboarding answered ${status}`);
  return { clientId: String(body.client_id), apiKey: String(body.api_key) };
}

export const login = (url: string, apiKey: string) => call(url, 'POST', '/v1/auth/login', { 'x-api-key': apiKey });

export const refresh = (url: string, refreshToken: string) => call(url, 'POST', '/v1/auth/refresh', {}, { refresh_token: refreshToken });

export const accountConfig = (url: string, headers: Record<string, string>) => call(url, 'GET', '/v1/account/config', headers);

export function pairOf(answer: Answer): TokenPair {
  return { access_token: String(answer.body.access_token), refresh_token: String(answer.body.refresh_token) };
}

export function reasonOf(answer: Answer): unknown {
  const error = answer.body.error;
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>).reason : undefined;
}
