import { describe, expect, it } from 'vitest';
import { forSuite, harness } from '../helpers/harness.js';

/** The log names a request's id `request_id`, as the error bodies and the X-Request-Id header do. */
describe('log lines of a request', () => {
  const t = forSuite(() => harness({ dialect: 'sqlite' }));

  it('carry request_id, equal to the X-Request-Id answered and the error body, and no reqId', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/references/sports', headers: { 'x-request-id': 'trace-me-42' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe('trace-me-42');
    expect(res.json<{ error: { request_id: string } }>().error.request_id).toBe('trace-me-42');
    const lines = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('trace-me-42'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // "incoming request" and "request completed" at least.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line.request_id).toBe('trace-me-42');
      expect(line).not.toHaveProperty('reqId');
    }
    expect(t.logs()).not.toContain('"reqId"');
  });
});
