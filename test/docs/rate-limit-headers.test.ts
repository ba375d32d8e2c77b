import { describe, expect, it } from 'vitest';
import { forSuite, harness } from '../helpers/harness.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

describe('the document describes the rate-limit fields', () => {
  const h = forSuite(() => harness({ dialect: 'sqlite' }));

  const operations = (doc: Json) =>
    Object.entries(obj(doc.paths)).flatMap(([path, item]) => Object.entries(obj(item)).map(([method, op]) => ({ path, method, op: obj(op) })));
  const bearer = (op: Json) => Array.isArray(op.security) && op.security.some((s) => 'BearerAuth' in obj(s));

  it('on every answer of a client call, and on no login or refresh', async () => {
    const doc = await h.anonymous.ok<Json>('/openapi.json');
    const calls = operations(doc).filter(({ path, op }) => path.startsWith('/v1/') && bearer(op));
    expect(calls.length).toBeGreaterThan(10);
    for (const { path, method, op } of calls) {
      for (const [status, response] of Object.entries(obj(op.responses))) {
        if (/^[23]/.test(status)) expect(Object.keys(obj(obj(response).headers)), `${method} ${path} ${status}`).toEqual(expect.arrayContaining(HEADERS));
      }
    }
    const login = obj(obj(obj(obj(obj(doc.paths)['/v1/auth/login']).post).responses)['200']);
    expect(Object.keys(obj(login.headers))).not.toContain('RateLimit');
    const rateLimited = obj(obj(obj(doc.components).responses).RateLimitExceeded);
    expect(Object.keys(obj(rateLimited.headers))).toEqual(expect.arrayContaining(['Retry-After', ...HEADERS]));
  });
});
