import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** 503 SERVICE_UNAVAILABLE in the error shape (docs/api.md#errors), with a Retry-After in seconds. */
export function expectUnavailable(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(res.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), request_id: expect.any(String) } });
}
