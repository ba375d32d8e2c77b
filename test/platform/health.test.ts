import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

describe.each(DIALECTS)('health and errors (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok' });
  });

  it('answers an unknown route with NOT_FOUND in the error shape, with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: { 'x-request-id': 'abc-123' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), request_id: 'abc-123' } });
  });
});
