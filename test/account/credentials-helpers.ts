import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Page } from '../../src/platform/pagination.js';
import type { TestApp } from '../helpers/app.js';

/** The calls of the credential suites, through the real app, as the client or as an operator. */

export interface ApiKeyBody {
  key_code: string;
  name: string;
  preview: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  active: boolean;
}

export interface SecretBody {
  secret_code: string;
  name: string;
  secret_preview: string;
  created_at: string;
}

export interface CreatedKeyBody {
  api_key: string;
  key_code: string;
  name: string;
  created_at: string;
  expires_at: string | null;
}

export interface CreatedSecretBody {
  client_secret: string;
  secret_code: string;
  name: string;
  secret_preview: string;
  created_at: string;
}

/** How the client calls its own account endpoints. */
export type As = { 'x-api-key': string } | { authorization: string };
export const withKey = (apiKey: string): As => ({ 'x-api-key': apiKey });
export const withToken = (accessToken: string): As => ({ authorization: `Bearer ${accessToken}` });

export function selfService(t: TestApp, as: As) {
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: as, ...(payload ? { payload } : {}) });
  return {
    listKeys: (query = '') => call('GET', `/v1/account/api-keys${query}`),
    createKey: (body: object) => call('POST', '/v1/account/api-keys', body),
    deleteKey: (code: string) => call('DELETE', `/v1/account/api-keys/${code}`),
    listSecrets: (query = '') => call('GET', `/v1/account/secrets${query}`),
    createSecret: (body?: object) => call('POST', '/v1/account/secret', body),
    deleteSecret: (code: string) => call('DELETE', `/v1/account/secrets/${code}`),
  };
}

/** Asserts a 201 with a new API key and returns it. */
export function createdKey(res: LightMyRequestResponse): CreatedKeyBody {
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedKeyBody>();
}

export function createdSecret(res: LightMyRequestResponse): CreatedSecretBody {
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedSecretBody>();
}

export function pageOf<T>(res: LightMyRequestResponse): Page<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page<T>>();
}

export function expectDeleted(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(204);
  expect(res.body).toBe('');
}
