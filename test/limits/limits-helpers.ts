import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { adminHeaders, type TestApp } from '../helpers/app.js';

/** A data call that needs no data: the sports list (empty on a fresh database). */
export function dataCall(t: TestApp, apiKey: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/v1/references/sports', headers: { 'x-api-key': apiKey } });
}

/** PATCH /admin/v1/clients/{id} with this body; asserts 200. */
export async function patchClient(t: TestApp, clientId: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'PATCH', url: `/admin/v1/clients/${clientId}`, headers: adminHeaders, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The rate-limit fields of an answer, as numbers where they are numbers. */
export function limitHeaders(res: LightMyRequestResponse) {
  const number = (name: string) => (res.headers[name] === undefined ? undefined : Number(res.headers[name]));
  return {
    policy: res.headers['ratelimit-policy'],
    limit: res.headers.ratelimit,
    xLimit: number('x-ratelimit-limit'),
    xRemaining: number('x-ratelimit-remaining'),
    xReset: number('x-ratelimit-reset'),
    retryAfter: number('retry-after'),
  };
}

/** 12:00:10 UTC: the minute ends in 50 s, the day in 11 h 59 min 50 s. */
export const TEN_PAST_NOON = Date.parse('2030-01-15T12:00:10Z');
