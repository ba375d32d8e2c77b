import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import type { PageBody } from '../helpers/responses.js';

/**
 * An account or operator list (the audit log, API keys, clients) is read at each request. A page
 * large enough to be compressed is sent once, whole: the handler hands the reply back to Fastify,
 * which otherwise finishes the request before the compression hook has written the page (an empty
 * answer, then "headers already sent").
 */
describe.each(DIALECTS)('an uncached list page (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('is sent whole when it is compressed', async () => {
    const client = await t.client();
    const caller = t.as(client);
    // Enough audit entries for a page above the compression threshold (1 KB).
    for (let i = 0; i < 6; i += 1) expect((await caller.post('/v1/account/api-keys', { name: `key ${i}` })).statusCode).toBe(201);

    for (const url of ['/v1/account/audit-log?page_size=10', '/v1/account/api-keys?page_size=10']) {
      const res = await caller.get(url, { 'accept-encoding': 'gzip' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('gzip');
      const page = JSON.parse(gunzipSync(res.rawPayload).toString('utf8')) as PageBody<unknown>;
      expect(page.results.length, url).toBeGreaterThanOrEqual(6);
    }
    for (let i = 0; i < 5; i += 1) await t.client();
    const clients = await t.admin.get('/admin/v1/clients?page_size=10', { 'accept-encoding': 'gzip' });
    expect(clients.statusCode).toBe(200);
    expect(clients.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(clients.rawPayload).toString('utf8')) as PageBody<unknown>).results.length).toBeGreaterThanOrEqual(6);
  });
});
