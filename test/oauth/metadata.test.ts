import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';

const PATH = '/.well-known/oauth-authorization-server';

/** RFC 8414 metadata, decision 0072: the issuer is PUBLIC_URL, or the origin the request came to. */
describe.each(DIALECTS)('OAuth 2.0 authorization server metadata (%s)', (dialect) => {
  let t: Harness;
  let configured: Harness;

  beforeAll(async () => {
    t = await harness({ dialect, env: { HOST: '127.0.0.1', PORT: '8080' } });
    configured = await harness({ dialect, env: { PUBLIC_URL: 'https://api.example.com/' } });
  });
  afterAll(async () => {
    await t.close();
    await configured.close();
  });

  const metadata = async (app: Harness, headers: Record<string, string> = {}, query = '') => {
    const res = await app.as({ headers }).get(`${PATH}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json<Record<string, unknown>>();
  };

  it('names the endpoints, grants and authentication methods, and no scopes', async () => {
    expect(await metadata(t, { host: '127.0.0.1:8080' })).toEqual({
      issuer: 'http://127.0.0.1:8080',
      token_endpoint: 'http://127.0.0.1:8080/v1/oauth/token',
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      grant_types_supported: ['client_credentials', 'refresh_token'],
      response_types_supported: [],
      scopes_supported: [],
      revocation_endpoint: 'http://127.0.0.1:8080/v1/oauth/revoke',
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      service_documentation: 'http://127.0.0.1:8080/docs',
    });
  });

  it('without PUBLIC_URL: the origin the request came to, host and port as sent', async () => {
    expect((await metadata(t, { host: 'localhost:8080' })).issuer).toBe('http://localhost:8080');
    expect((await metadata(t, { host: 'API.Example.com' })).issuer).toBe('http://api.example.com');
    expect((await metadata(t, { host: '[::1]:8080' })).issuer).toBe('http://[::1]:8080');
  });

  it('a Host that is not an origin is not echoed: the listen address instead', async () => {
    for (const host of ['evil.example/path', 'user@evil.example', 'evil.example?x=1', 'evil.example#f', 'example.com:99999', ' ']) {
      expect((await metadata(t, { host })).issuer, host).toBe('http://127.0.0.1:8080');
    }
  });

  it('with PUBLIC_URL: that origin, whatever the Host header says', async () => {
    const body = await metadata(configured, { host: 'internal-node-7:8080' });
    expect(body).toMatchObject({ issuer: 'https://api.example.com', token_endpoint: 'https://api.example.com/v1/oauth/token' });
  });

  it('ignores query parameters (a standard endpoint), and is never stored by a cache', async () => {
    const res = await t.as({ headers: { host: '127.0.0.1:8080' } }).get(`${PATH}?foo=bar`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
