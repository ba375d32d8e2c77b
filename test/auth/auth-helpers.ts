import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';

/** Shared calls of the authentication suites: each goes through the real HTTP app. */

export interface TokenPairBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_at: string;
  expires_in: number;
}

export type LoginFlow = 'api_key' | 'oauth';

export const REFRESH_URL: Record<LoginFlow, string> = { api_key: '/v1/auth/refresh', oauth: '/v1/oauth/refresh' };

export function apiKeyLogin(t: TestApp, apiKey: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'x-api-key': apiKey } });
}

export function oauthLogin(t: TestApp, clientId: string, clientSecret: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/v1/oauth/login', payload: { client_id: clientId, client_secret: clientSecret } });
}

export function refresh(t: TestApp, flow: LoginFlow, refreshToken: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: REFRESH_URL[flow], payload: { refresh_token: refreshToken } });
}

export function accountWithBearer(t: TestApp, accessToken: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/v1/account/config', headers: { authorization: `Bearer ${accessToken}` } });
}

export function accountWithApiKey(t: TestApp, apiKey: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/v1/account/config', headers: { 'x-api-key': apiKey } });
}

/** Asserts a 200 token pair and returns it. */
export function pairOf(res: LightMyRequestResponse): TokenPairBody {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TokenPairBody>();
}

/** Asserts a 401 in the error shape (docs/api.md#errors) with this reason. */
export function expectUnauthorized(res: LightMyRequestResponse, reason: string): void {
  expect(res.statusCode, res.body).toBe(401);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({
    error: { code: 'UNAUTHORIZED', message: expect.any(String), request_id: expect.any(String), reason },
  });
}
