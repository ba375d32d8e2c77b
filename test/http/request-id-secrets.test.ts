import { describe, expect, it } from 'vitest';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A client's X-Request-Id is kept when it is short and plain, so that both sides can quote it; but
 * a credential fits that shape too (an `sdk_…` key is 53 plain characters). A value that is one of
 * our credentials (its checksum holds), a webhook signing secret (`whsec_…`), a JWT or a secret of
 * this process's configuration is replaced by a fresh id: never echoed, never logged.
 */
describe.each(DIALECTS)('X-Request-Id that is a credential (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));

  it('is replaced by a fresh id: not in the answer header, the error body or the log', async () => {
    const c = await h.client();
    const { refresh_token: refreshToken } = await h.login(c);
    const credentials = [
      c.apiKey,
      c.clientSecret,
      refreshToken,
      `whsec_${'Z9'.repeat(16)}`,
      // A JWT's three parts, short enough for the request-id shape.
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
      TEST_ADMIN_TOKEN,
    ];
    for (const credential of credentials) {
      expect(credential.length, credential.slice(0, 4)).toBeLessThanOrEqual(64);
      const served = await h.as(c).get('/v1/account/config', { 'x-request-id': credential });
      expect(served.statusCode).toBe(200);
      expect(served.headers['x-request-id'], credential.slice(0, 4)).toMatch(UUID);
      const refused = await h.anonymous.get('/v1/account/config', { 'x-request-id': credential });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['x-request-id']).toMatch(UUID);
      expect(refused.json<{ error: { request_id: string } }>().error.request_id).toBe(refused.headers['x-request-id']);
      expect(h.logs(), credential.slice(0, 4)).not.toContain(credential);
    }
  });

  it("keeps a plain id, and one shaped like a key whose checksum does not hold (not a credential: it is a caller's own label)", async () => {
    const c = await h.client();
    const almost = `${c.apiKey.slice(0, -1)}${c.apiKey.endsWith('A') ? 'B' : 'A'}`;
    for (const id of ['trace-42:abc.def_1', almost]) {
      const res = await h.as(c).get('/v1/account/config', { 'x-request-id': id });
      expect(res.headers['x-request-id']).toBe(id);
    }
  });
});
