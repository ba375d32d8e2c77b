import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, type Harness, harness } from '../helpers/harness.js';
import type { OnboardedClient } from '../helpers/clients.js';

const TOKEN = 'op-secret-token-7f3c9aB3x';
const URL_OK = 'https://pricing.example.com/check';

describe.each(DIALECTS)('/v1/account/check-endpoint (%s)', (dialect) => {
  let t: Harness;
  let pro: OnboardedClient;
  let free: OnboardedClient;

  beforeAll(async () => {
    t = await harness({ dialect });
    pro = await t.client({ tier: 'pro', authMethod: 'api_key' });
    free = await t.client({ tier: 'free', authMethod: 'api_key' });
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', apiKey: string, payload?: object): Promise<LightMyRequestResponse> =>
    t.as({ apiKey }).request({ method, url: '/v1/account/check-endpoint', ...(payload === undefined ? {} : { payload }) });

  it('answers data: null while none is set', async () => {
    const res = await call('GET', pro.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: null });
  });

  it('stores an endpoint and shows it with the token masked, never the token', async () => {
    const res = await call('POST', pro.apiKey, { url: URL_OK, method: 'POST', auth_token: TOKEN });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      data: {
        url: URL_OK,
        method: 'POST',
        auth_header_name: 'Authorization',
        auth_scheme: 'Bearer',
        auth_token_preview: '…aB3x',
        allow_multiple: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(res.body).not.toContain(TOKEN);
    const again = await call('GET', pro.apiKey);
    expect(again.json()).toEqual(body);
    expect(again.body).not.toContain(TOKEN);
  });

  it('keeps the token encrypted at rest', async () => {
    const row = await t.database.db.selectFrom('check_endpoints').selectAll().where('client_id', '=', pro.clientId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(TOKEN).toString('base64'));
  });

  it('replaces the endpoint on a second POST, keeping created_at', async () => {
    const before = (await call('GET', pro.apiKey)).json().data;
    t.clock.advance(5_000);
    const res = await call('POST', pro.apiKey, { url: URL_OK, method: 'POST', auth_token: 'short', auth_header_name: 'X-API-Key', allow_multiple: true });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ auth_header_name: 'X-API-Key', auth_scheme: '', auth_token_preview: '…', allow_multiple: true, created_at: before.created_at });
    expect(data.updated_at).not.toBe(before.created_at);
  });

  it('never logs the token', async () => {
    await call('POST', pro.apiKey, { url: URL_OK, method: 'POST', auth_token: TOKEN });
    expect(t.logs()).not.toContain(TOKEN);
  });

  it('deletes it: 200, then data: null; a second delete is 200 too', async () => {
    expect((await call('DELETE', pro.apiKey)).json()).toEqual({ success: true, data: null });
    expect((await call('GET', pro.apiKey)).json()).toEqual({ success: true, data: null });
    expect((await call('DELETE', pro.apiKey)).statusCode).toBe(200);
  });

  it('refuses the free tier with 403', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await call(method, free.apiKey, method === 'POST' ? { url: URL_OK, method: 'POST', auth_token: TOKEN } : undefined);
      expect(res.statusCode, method).toBe(403);
    }
  });

  it('refuses URLs that reach inwards: loopback, private, link-local, metadata, IPv6 loopback and IPv4-mapped', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::ffff:a9fe:a9fe]/x',
      'http://100.64.0.1/x',
      'http://0.0.0.0/x',
      'http://localhost/x',
      'http://[64:ff9b:1::7f00:1]/x',
      'http://[2002:7f00:1::]/x',
      'http://[::ffff:0:7f00:1]/x',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
    ]) {
      const res = await call('POST', pro.apiKey, { url, method: 'POST', auth_token: TOKEN });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.details, url).toEqual([{ field: 'url', rule: 'address' }]);
    }
  });

  it('refuses what is not an http(s) URL, a URL with credentials, a method other than POST, a header that is not a token', async () => {
    for (const body of [
      { url: 'ftp://pricing.example.com/', method: 'POST', auth_token: TOKEN },
      { url: 'https://user:pw@pricing.example.com/', method: 'POST', auth_token: TOKEN },
      { url: URL_OK, method: 'GET', auth_token: TOKEN },
      { url: URL_OK, method: 'POST', auth_token: TOKEN, auth_header_name: 'X Bad' },
      { url: URL_OK, method: 'POST', auth_token: 'two words' },
      { url: URL_OK, method: 'POST' },
    ]) {
      expect((await call('POST', pro.apiKey, body)).statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('accepts our own sandbox on loopback: quotes answer it in process', async () => {
    const res = await call('POST', pro.apiKey, { url: 'http://localhost:80/v1/trends/flows/quote-sandbox', method: 'POST', auth_token: TOKEN });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('takes a sandbox URL as our own only at an address of ours: a Host header naming the metadata address does not make it one', async () => {
    for (const host of ['169.254.169.254', '10.1.2.3', '[fd00:ec2::254]']) {
      const res = await t.as({ headers: { 'x-api-key': pro.apiKey, host } }).post('/v1/account/check-endpoint', { url: `http://${host}/v1/trends/flows/quote-sandbox`, method: 'POST', auth_token: TOKEN });
      expect(res.statusCode, host).toBe(422);
      expect(res.json<ErrorBody>().error.details, host).toEqual([{ field: 'url', rule: 'address' }]);
    }
    expect((await call('GET', pro.apiKey)).json().data?.url ?? '').not.toMatch(/169\.254|10\.1\.2\.3|fd00/);
  });
});

describe.each(DIALECTS)('OUTBOUND_ALLOW_CIDRS (%s)', (dialect) => {
  let t: Harness;
  let pro: OnboardedClient;
  beforeAll(async () => {
    t = await harness({ dialect, env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128' } });
    pro = await t.client({ tier: 'enterprise', authMethod: 'api_key' });
  });
  afterAll(async () => t.close());

  it('opens the ranges it names and no other', async () => {
    const post = (url: string) =>
      t.as({ apiKey: pro.apiKey }).post('/v1/account/check-endpoint', { url, method: 'POST', auth_token: TOKEN });
    expect((await post('http://127.0.0.1:9/x')).statusCode).toBe(200);
    expect((await post('http://[::1]:9/x')).statusCode).toBe(200);
    expect((await post('http://10.0.0.1/x')).statusCode).toBe(422);
    expect((await post('http://169.254.169.254/x')).statusCode).toBe(422);
  });
});
