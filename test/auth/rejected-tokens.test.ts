import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_JWT_SECRET } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { accountWithBearer, apiKeyLogin, expectUnauthorized, pairOf } from './auth-helpers.js';

const ACCESS_TOKEN_TTL = 900;
const key = new TextEncoder().encode(TEST_JWT_SECRET);
const otherKey = new TextEncoder().encode('another-secret-that-is-also-32-bytes-or-more');

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe.each(DIALECTS)('rejected access tokens (%s)', (dialect) => {
  let t: Harness;
  let valid: string;
  let claims: Record<string, unknown>;
  let kid: string;

  beforeAll(async () => {
    t = await harness({ dialect, env: { ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL) } });
    const client = await t.client({ tier: 'free' });
    valid = pairOf(await apiKeyLogin(t, client.apiKey)).access_token;
    claims = { ...decodeJwt(valid) };
    kid = String(decodeProtectedHeader(valid).kid);
  });
  afterAll(async () => t.close());

  /** A token with our claims, but signed as the test says. */
  function forge(options: { alg?: string; secret?: Uint8Array; kid?: string; claims?: Record<string, unknown> } = {}): Promise<string> {
    return new SignJWT({ ...claims, ...options.claims })
      .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'at+jwt', kid: options.kid ?? kid })
      .sign(options.secret ?? key);
  }

  async function expectRejected(token: string, reason: 'token_invalid' | 'token_expired'): Promise<void> {
    const res = await accountWithBearer(t, token);
    expectUnauthorized(res, reason);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  }

  it('accepts the untouched token (the baseline every case below changes one thing of)', async () => {
    expect((await accountWithBearer(t, valid)).statusCode).toBe(200);
    expect((await accountWithBearer(t, await forge())).statusCode).toBe(200);
  });

  it.each<[string, () => Promise<string>]>([
    ['signed with another key', () => forge({ secret: otherKey })],
    ['alg: none', async () => `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(claims)}.`],
    ['alg: none with the original signature', async () => `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(claims)}.${valid.split('.')[2] ?? ''}`],
    ['another algorithm (HS512, same key)', () => forge({ alg: 'HS512' })],
    ['another algorithm (HS384, same key)', () => forge({ alg: 'HS384' })],
    ['wrong iss', () => forge({ claims: { iss: 'someone-else' } })],
    ['wrong aud', () => forge({ claims: { aud: 'another-api' } })],
    ['payload edited, signature kept', async () => {
      const [header, , signature] = valid.split('.');
      return `${header ?? ''}.${b64({ ...claims, tier: 'enterprise' })}.${signature ?? ''}`;
    }],
    ['unknown kid', () => forge({ kid: 'unknown-key' })],
    ['no kid', () => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(key)],
    ['typ JWT instead of at+jwt', () => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid }).sign(key)],
    ['sub differs from client_id', () => forge({ claims: { sub: '00000000-0000-4000-8000-000000000000' } })],
    ['unknown client_id', () => forge({ claims: { client_id: '00000000-0000-4000-8000-000000000000', sub: '00000000-0000-4000-8000-000000000000' } })],
    ['garbage', async () => 'garbage'],
    ['three dots of garbage', async () => 'a.b.c'],
    ['empty segments', async () => '..'],
  ])('rejects a token %s with 401 token_invalid', async (_name, make) => {
    await expectRejected(await make(), 'token_invalid');
  });

  it('rejects a malformed Authorization header', async () => {
    for (const authorization of ['Bearer', 'Basic abc', `Token ${valid}`, `Bearer ${valid} extra`]) {
      const res = await t.as({ headers: { authorization } }).get('/v1/account/config');
      expectUnauthorized(res, 'token_invalid');
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
  });

  it('accepts the other spellings of the scheme and its spaces (case-insensitive, several spaces before, spaces after)', async () => {
    for (const authorization of [`bearer ${valid}`, `BEARER  ${valid}`, `Bearer ${valid}  `]) {
      const res = await t.as({ headers: { authorization } }).get('/v1/account/config');
      expect(res.statusCode, authorization.slice(0, 10)).toBe(200);
    }
  });

  it('refuses a token it has accepted before once that token expires (the verified cache checks exp on every call)', async () => {
    const used = pairOf(await apiKeyLogin(t, (await t.client()).apiKey)).access_token;
    expect((await accountWithBearer(t, used)).statusCode).toBe(200);
    t.clock.advance((ACCESS_TOKEN_TTL + 31) * 1000);
    try {
      await expectRejected(used, 'token_expired');
    } finally {
      t.clock.advance(-(ACCESS_TOKEN_TTL + 31) * 1000);
    }
  });

  it('rejects an expired token with 401 token_expired (past exp plus the leeway)', async () => {
    const fresh = pairOf(await apiKeyLogin(t, (await t.client()).apiKey)).access_token;
    t.clock.advance((ACCESS_TOKEN_TTL + 31) * 1000);
    try {
      await expectRejected(fresh, 'token_expired');
    } finally {
      t.clock.advance(-(ACCESS_TOKEN_TTL + 31) * 1000);
    }
  });

  it('asks for a credential when none is sent', async () => {
    const res = await t.anonymous.get('/v1/account/config');
    expectUnauthorized(res, 'missing_credentials');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });
});
