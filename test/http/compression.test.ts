import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/bodies.js';
import { DIALECTS } from '../helpers/app.js';
import { referenceDataset } from '../fixtures/references.js';
import { forSuite, reader } from '../helpers/harness.js';

/**
 * Decision 0074: answers of 1 KB or more are compressed (br, gzip) when the client
 * accepts it; a compressed page's ETag is weak (RFC 9110 §8.8.3); `Vary: Accept-Encoding` on every
 * answer large enough to be compressed; small answers go as they are.
 */
describe.each(DIALECTS)('response compression (%s)', (dialect) => {
  const client = forSuite(() => reader({ dialect, dataset: { ...referenceDataset() } }));
  const TEAMS = '/v1/references/teams?league_key=nba';

  it('a page of 1 KB or more, in the coding the client prefers; the same content, a weak tag, Vary', async () => {
    const plain = await client.get(TEAMS);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"/);

    const cases: Array<[string, string]> = [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['*', 'br'],
      ['x-gzip', 'gzip'],
    ];
    for (const [accept, coding] of cases) {
      const res = await client.get(TEAMS, { 'accept-encoding': accept });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers.etag, accept).toBe(`W/${etag}`);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 3);
      expect(textOf(res), accept).toBe(plain.body);
    }
  });

  it('identity when the client accepts none of ours', async () => {
    for (const accept of ['identity', 'br;q=0, gzip;q=0', '*;q=0', 'zstd', 'deflate', 'compress', '']) {
      const res = await client.get(TEAMS, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(String(res.headers.etag), accept).toMatch(/^"/);
    }
  });

  it('If-None-Match with the weak tag of a compressed copy → 304 with that tag and Vary', async () => {
    const compressed = await client.get(TEAMS, { 'accept-encoding': 'br' });
    const weak = String(compressed.headers.etag);
    const res = await client.get(TEAMS, { 'accept-encoding': 'br', 'if-none-match': weak });
    expect(res.statusCode).toBe(304);
    expect(res.headers.etag).toBe(weak);
    expect(res.headers.vary).toBe('accept-encoding');
    // The identity copy is the same content: weak comparison matches across codings.
    expect((await client.get(TEAMS, { 'if-none-match': weak })).statusCode).toBe(304);
  });

  it('a page is compressed once per coding: repeated requests get the same bytes, concurrent ones too', async () => {
    const page = `${TEAMS}&page_size=25`;
    for (const coding of ['br', 'gzip']) {
      const answers = await Promise.all([1, 2, 3].map(() => client.get(page, { 'accept-encoding': coding })));
      answers.push(await client.get(page, { 'accept-encoding': coding }));
      for (const res of answers) {
        expect(res.headers['content-encoding']).toBe(coding);
        expect(res.rawPayload.equals(answers[0]?.rawPayload ?? Buffer.alloc(0))).toBe(true);
      }
    }
  });

  it('small answers go as they are, without Vary', async () => {
    const res = await client.get('/v1/references/sports?page_size=1', { 'accept-encoding': 'br, gzip' });
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    const account = await client.get('/v1/account/config', { 'accept-encoding': 'br' });
    expect(account.headers['content-encoding']).toBeUndefined();
  });

  it('other large answers are compressed too (the OpenAPI document, a long error)', async () => {
    const doc = await client.t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(doc.headers.vary).toBe('accept-encoding');
    expect(Number(doc.headers['content-length'])).toBe(doc.rawPayload.length);
    expect(JSON.parse(textOf(doc))).toMatchObject({ openapi: '3.1.0' });
    const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`unknown_field_${i}`, i]));
    const error = await client.t.app.inject({ method: 'POST', url: '/v1/trends/flows', headers: { 'x-api-key': client.apiKey, 'accept-encoding': 'br' }, payload: fields });
    expect(error.statusCode).toBe(422);
    expect(error.headers['content-encoding']).toBe('br');
    expect(JSON.parse(textOf(error))).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('a compressed request body is not inflated: it is not JSON', async () => {
    const res = await client.t.app.inject({
      method: 'POST',
      url: '/v1/trends/flows',
      headers: { 'x-api-key': client.apiKey, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ page: 1 })),
    });
    expect(res.statusCode).toBe(400);
  });
});
