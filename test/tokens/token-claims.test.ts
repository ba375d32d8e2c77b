import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_JWT_SECRET } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { accountWithBearer, apiKeyLogin, expectUnauthorized, pairOf } from '../auth/auth-helpers.js';

/**
 * A token signed with the right key was accepted whatever its iat and
 * lifetime — issued an hour in the future, or valid for a year. Access tokens whose iat is in
 * the future beyond the 10 s leeway (decision 0005), or whose exp − iat is longer than
 * ACCESS_TOKEN_TTL (or not positive), are refused: 401 token_invalid.
 */

const ACCESS_TOKEN_TTL = 900;
const LEEWAY = 10;
const key = new TextEncoder().encode(TEST_JWT_SECRET);

describe.each(DIALECTS)('access-token claims within bounds (%s)', (dialect) => {
  let t: Harness;
  let claims: Record<string, unknown>;
  let kid: string;

  beforeAll(async () => {
    t = await harness({ dialect, env: { ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL) } });
    const client = await t.client();
    const valid = pairOf(await apiKeyLogin(t, client.apiKey)).access_token;
    claims = { ...decodeJwt(valid) };
    kid = String(decodeProtectedHeader(valid).kid);
  });
  afterAll(async () => t.close());

  const now = () => Math.floor(t.clock.now() / 1000);

  /** Our claims with iat and exp as given (seconds from now), signed with the right key. */
  function mint(iatFromNow: number, lifetime: number): Promise<string> {
    const iat = now() + iatFromNow;
    return new SignJWT({ ...claims, iat, exp: iat + lifetime, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
      .sign(key);
  }

  async function expectAccepted(token: string): Promise<void> {
    const res = await accountWithBearer(t, token);
    expect(res.statusCode, res.body).toBe(200);
  }

  async function expectRefused(token: string): Promise<void> {
    const res = await accountWithBearer(t, token);
    expectUnauthorized(res, 'token_invalid');
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  }

  it('accepts what the server itself issues: iat now, lifetime ACCESS_TOKEN_TTL, or shorter', async () => {
    await expectAccepted(await mint(0, ACCESS_TOKEN_TTL));
    await expectAccepted(await mint(-60, ACCESS_TOKEN_TTL));
    await expectAccepted(await mint(0, 60));
  });

  it('accepts an iat in the future within the leeway (clock skew between nodes)', async () => {
    await expectAccepted(await mint(LEEWAY - 1, ACCESS_TOKEN_TTL));
  });

  it('refuses an iat in the future beyond the leeway', async () => {
    await expectRefused(await mint(LEEWAY + 2, ACCESS_TOKEN_TTL));
    await expectRefused(await mint(3600, ACCESS_TOKEN_TTL));
    await expectRefused(await mint(10 * 365 * 86_400, 60));
  });

  it('refuses a lifetime (exp − iat) longer than ACCESS_TOKEN_TTL, or not positive', async () => {
    await expectRefused(await mint(0, ACCESS_TOKEN_TTL + 1));
    await expectRefused(await mint(0, 365 * 86_400));
    await expectRefused(await mint(-ACCESS_TOKEN_TTL, 100 * ACCESS_TOKEN_TTL));
    await expectRefused(await mint(0, 0));
    await expectRefused(await mint(0, -60));
  });

  it('refuses a token without cred or gen (issued before they existed), or naming another credential or generation (decision 0101)', async () => {
    const sign = (changed: Record<string, unknown>, dropped: string[] = []) => {
      const base: Record<string, unknown> = { ...claims, iat: now(), exp: now() + 60, jti: crypto.randomUUID(), ...changed };
      for (const name of dropped) delete base[name];
      return new SignJWT(base).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid }).sign(key);
    };
    await expectAccepted(await sign({}));
    await expectRefused(await sign({}, ['cred']));
    await expectRefused(await sign({}, ['gen']));
    await expectRefused(await sign({}, ['cred', 'gen']));
    await expectRefused(await sign({ cred: crypto.randomUUID() }));
    await expectRefused(await sign({ cred: 'not-a-uuid' }));
    await expectRefused(await sign({ gen: Number(claims.gen) + 1 }));
    await expectRefused(await sign({ gen: 0 }));
    await expectRefused(await sign({ gen: '1' }));
  });

  it('refuses such a token also once it has been presented before (the verified-token cache)', async () => {
    const future = await mint(3600, ACCESS_TOKEN_TTL);
    await expectRefused(future);
    await expectRefused(future);
  });
});
