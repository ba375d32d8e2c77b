import { describe, expect, it } from 'vitest';
import { DIALECTS, TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { forSuite, type Harness, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

const PUBLIC = 'https://portal.example.com';

/**
 * Behind a proxy that ends TLS, the node sees plain HTTP and, often, a Host of its own (the
 * proxy's upstream). What the browser's page is served from decides the Secure cookie and which
 * Origin a sign-in may come from: PUBLIC_URL when set, else what the trusted proxy hops say.
 */
describe.each(DIALECTS)('portal and console sign-in behind a proxy (%s)', (dialect) => {
  // The proxy's own request as this node gets it: its upstream name, plain HTTP.
  const UPSTREAM = { host: 'localhost:8080', 'content-type': 'application/json' };
  const signIn = (h: Harness, url: string, payload: object, headers: Record<string, string>) =>
    h.anonymous.request({ method: 'POST', url, headers: { ...UPSTREAM, ...headers }, payload: JSON.stringify(payload) });

  describe('with PUBLIC_URL', () => {
    const h = forSuite(() => harness({ dialect, env: { PUBLIC_URL: PUBLIC } }));

    it("takes PUBLIC_URL's origin for the Origin check and the Secure cookie, whatever Host the proxy sends", async () => {
      const c = await h.client();
      for (const [url, body] of [
        ['/portal/session', { api_key: c.apiKey }],
        ['/console/session', { admin_token: TEST_ADMIN_TOKEN }],
      ] as const) {
        const res = await signIn(h, url, body, { origin: PUBLIC });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
        expect(String(res.headers['set-cookie']), url).toMatch(/; Secure/);
        // Another site, or this site's name over another scheme: not the public origin.
        expectError(await signIn(h, url, body, { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
        expectError(await signIn(h, url, body, { origin: 'http://portal.example.com' }), 403, 'FORBIDDEN');
        // The Host the request came with is not the public origin either.
        expectError(await signIn(h, url, body, { origin: 'http://localhost:8080' }), 403, 'FORBIDDEN');
      }
    });
  });

  describe('with TRUST_PROXY and no PUBLIC_URL', () => {
    const h = forSuite(() => harness({ dialect, env: { TRUST_PROXY: '1' } }));

    it('believes X-Forwarded-Proto and X-Forwarded-Host from the trusted hop', async () => {
      const c = await h.client();
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'portal.example.com', 'x-forwarded-for': '203.0.113.9' };
      const res = await signIn(h, '/portal/session', { api_key: c.apiKey }, { ...forwarded, origin: PUBLIC });
      expect(res.statusCode, res.body).toBe(201);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
      // HTTPS on the way in, though the proxy kept a local Host: Secure all the same.
      const local = await signIn(h, '/portal/session', { api_key: c.apiKey }, { 'x-forwarded-proto': 'https' });
      expect(String(local.headers['set-cookie'])).toMatch(/; Secure/);
      expectError(await signIn(h, '/portal/session', { api_key: c.apiKey }, { ...forwarded, origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    });
  });

  describe('with neither', () => {
    const h = forSuite(() => harness({ dialect }));

    it('ignores X-Forwarded-* from a peer it does not trust: the Host decides', async () => {
      const c = await h.client();
      const forged = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'portal.example.com' };
      expectError(await signIn(h, '/portal/session', { api_key: c.apiKey }, { ...forged, origin: PUBLIC }), 403, 'FORBIDDEN');
      const res = await signIn(h, '/portal/session', { api_key: c.apiKey }, { ...forged, origin: 'http://localhost:8080' });
      expect(res.statusCode, res.body).toBe(201);
      expect(String(res.headers['set-cookie'])).not.toMatch(/Secure/);
    });
  });
});
