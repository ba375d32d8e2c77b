import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../helpers/harness.js';
import { type ResponseValidator, responseValidatorFor } from '../helpers/openapi-validator.js';

/**
 * The check every test's responses go through (test/helpers/openapi-validator.ts) must catch
 * what differs from the document, or a passing suite proves nothing. It reads only the
 * document, so one run on SQLite suffices.
 */
describe('response validation against the OpenAPI document', () => {
  let t: Harness;
  let validator: ResponseValidator;
  let health: LightMyRequestResponse;
  let notFound: LightMyRequestResponse;
  let unauthorized: LightMyRequestResponse;

  beforeAll(async () => {
    t = await harness({ dialect: 'sqlite' });
    validator = responseValidatorFor(t.app.swagger());
    // Each of these passed the same check inside t.app.inject already.
    health = await t.anonymous.get('/healthz');
    notFound = await t.anonymous.get('/v1/nothing-here');
    unauthorized = await t.anonymous.get('/v1/account/config');
  });
  afterAll(async () => t.close());

  it('accepts responses as documented', () => {
    expect(health.statusCode).toBe(200);
    expect(notFound.statusCode).toBe(404);
    expect(unauthorized.statusCode).toBe(401);
    for (const res of [health, notFound, unauthorized]) expect(validator.problemOf(res)).toBeUndefined();
  });

  it('rejects a body that breaks the schema of its status, naming method, path, status and the broken rule', () => {
    const problem = validator.problemOf({ ...health, body: '{"status":1}' });
    expect(problem).toContain('GET /healthz → 200');
    expect(problem).toMatch(/\/status must be string/);
  });

  it('rejects a status the operation does not document', () => {
    expect(validator.problemOf({ ...health, statusCode: 418 })).toMatch(/GET \/healthz → 418: status 418 is not documented/);
  });

  it('rejects an error body whose code does not belong to its status, or a 401 without reason', () => {
    const wrongCode = notFound.body.replace('"NOT_FOUND"', '"BAD_REQUEST"');
    expect(validator.problemOf({ ...notFound, body: wrongCode })).toMatch(/\/error\/code must be equal to constant/);
    const noReason = JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'no', request_id: 'r' } });
    expect(validator.problemOf({ ...unauthorized, body: noReason })).toMatch(/must have required property 'reason'/);
  });

  it('rejects a success from a route the document does not have, and a non-JSON body where JSON is documented', () => {
    expect(validator.problemOf({ ...notFound, statusCode: 200 })).toMatch(/no documented operation answers GET \/v1\/nothing-here/);
    expect(validator.problemOf({ ...health, headers: { ...health.headers, 'content-type': 'text/html' } })).toMatch(/sent as "text\/html"/);
  });

  it('makes t.app.inject refuse the chained form, which it could not check', () => {
    expect(() => t.app.inject()).toThrow(/chained form/);
  });
});
