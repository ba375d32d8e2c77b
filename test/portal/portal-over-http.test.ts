import { type APIRequestContext, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';

/**
 * The portal as a browser reaches it: over a real listening port, with a cookie jar that keeps
 * what Set-Cookie says (Playwright's request context, no page) and the CSRF token the page keeps.
 */
describe.each(DIALECTS)('client portal over HTTP, with a cookie jar (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect }));
  let origin: string;
  let browser: APIRequestContext;

  beforeAll(async () => {
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const address = h.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
    origin = `http://127.0.0.1:${address.port}`;
    browser = await request.newContext({ baseURL: origin });
  });
  afterAll(async () => browser?.dispose());

  it("two calls at the access token's expiry, as the usage page sends them, are both served, and the session lives on", async () => {
    const c = await h.client();
    const signedIn = await browser.post('/portal/session', { headers: { origin }, data: { api_key: c.apiKey } });
    expect(signedIn.status(), await signedIn.text()).toBe(201);
    const { csrf_token } = (await signedIn.json()) as { csrf_token: string };
    expect((await browser.storageState()).cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite])).toEqual([['portal_session', true, 'Strict']]);

    for (let round = 0; round < 3; round++) {
      // Each round inside the refresh margin of the token the round before left: the token still valid, about to expire.
      h.clock.set(h.clock.now() + (h.config.accessTokenTtl - 30) * 1000);
      const both = await Promise.all([browser.get('/portal/api/usage'), browser.get('/portal/api/usage/hours')]);
      expect(both.map((r) => r.status()), `round ${round}`).toEqual([200, 200]);
    }
    const tokens = await h.database.db.selectFrom('refresh_tokens').select(['revoked_reason']).where('client_id', '=', c.clientId).execute();
    expect(tokens.map((t) => t.revoked_reason).sort()).toEqual([null, 'rotated', 'rotated', 'rotated']);

    // The session is still the browser's: a change with its CSRF token is served, and signing out ends it.
    const key = await browser.post('/portal/api/api-keys', { headers: { 'x-csrf-token': csrf_token }, data: { name: 'after the refreshes' } });
    expect(key.status(), await key.text()).toBe(201);
    expect((await browser.delete('/portal/session', { headers: { 'x-csrf-token': csrf_token } })).status()).toBe(204);
    expect((await browser.get('/portal/api/usage')).status()).toBe(401);
  });
});
