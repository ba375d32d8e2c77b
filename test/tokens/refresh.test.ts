import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, generateCredential } from '../../src/modules/auth/credentials.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { onboardClient, type OnboardedClient } from '../helpers/clients.js';
import { accountWithBearer, expectUnauthorized, type LoginFlow, pairOf, refresh, type TokenPairBody } from '../auth/auth-helpers.js';

const ACCESS_TOKEN_TTL = 900;
const REFRESH_TOKEN_TTL = 3600;
const OTHER: Record<LoginFlow, LoginFlow> = { api_key: 'oauth', oauth: 'api_key' };

describe.each(DIALECTS)('refresh rotation (%s)', (dialect) => {
  let t: Harness;
  let client: OnboardedClient;

  beforeAll(async () => {
    t = await harness({ dialect, env: { ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL), REFRESH_TOKEN_TTL: String(REFRESH_TOKEN_TTL) } });
    client = await onboardClient(t, { authMethod: 'both' });
  });
  afterAll(async () => t.close());

  async function login(flow: LoginFlow): Promise<TokenPairBody> {
    return flow === 'api_key' ? t.login(client) : t.oauthLogin(client);
  }

  function storedToken(token: string) {
    return t.database.db.selectFrom('refresh_tokens').selectAll().where('digest', '=', digest(token)).executeTakeFirstOrThrow();
  }

  describe.each<LoginFlow>(['api_key', 'oauth'])('a pair from the %s login', (flow) => {
    it('refreshes to a new pair with a new refresh token, and the new access token works', async () => {
      const first = await login(flow);
      const second = pairOf(await refresh(t, flow, first.refresh_token));
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect((await accountWithBearer(t, second.access_token)).statusCode).toBe(200);
      // The successor belongs to the same family, and the old token is revoked.
      const [before, after] = [await storedToken(first.refresh_token), await storedToken(second.refresh_token)];
      expect(after.family_id).toBe(before.family_id);
      expect(after.flow).toBe(flow);
      expect(before.revoked_at).not.toBeNull();
      expect(after.revoked_at).toBeNull();
    });

    it('answers 401 for the old token ever after, and presenting it revokes the whole family', async () => {
      const first = await login(flow);
      const second = pairOf(await refresh(t, flow, first.refresh_token));
      expectUnauthorized(await refresh(t, flow, first.refresh_token), 'refresh_token_revoked');
      expectUnauthorized(await refresh(t, flow, first.refresh_token), 'refresh_token_revoked');
      // The successor, never used, is revoked with its family.
      expectUnauthorized(await refresh(t, flow, second.refresh_token), 'refresh_token_revoked');
      const family = await t.database.db
        .selectFrom('refresh_tokens')
        .select('revoked_at')
        .where('family_id', '=', (await storedToken(first.refresh_token)).family_id)
        .execute();
      expect(family).toHaveLength(2);
      expect(family.every((row) => row.revoked_at !== null)).toBe(true);
    });

    it('leaves other families (other logins of the same client) alone on reuse', async () => {
      const victim = await login(flow);
      const bystander = await login(flow);
      pairOf(await refresh(t, flow, victim.refresh_token));
      expectUnauthorized(await refresh(t, flow, victim.refresh_token), 'refresh_token_revoked');
      pairOf(await refresh(t, flow, bystander.refresh_token));
    });

    it('needs nothing but the refresh token, also after the access token expired', async () => {
      const first = await login(flow);
      t.clock.advance((ACCESS_TOKEN_TTL + 60) * 1000);
      expectUnauthorized(await accountWithBearer(t, first.access_token), 'token_expired');
      // The body carries the refresh token and nothing else: no API key, no Authorization.
      const second = pairOf(await refresh(t, flow, first.refresh_token));
      expect((await accountWithBearer(t, second.access_token)).statusCode).toBe(200);
    });

    it(`answers 401 at the ${OTHER[flow]} refresh endpoint and changes nothing`, async () => {
      const pair = await login(flow);
      const before = await storedToken(pair.refresh_token);
      const wrong = await refresh(t, OTHER[flow], pair.refresh_token);
      expectUnauthorized(wrong, 'token_invalid');
      expect(wrong.headers['cache-control']).toBe('no-store');
      expect(await storedToken(pair.refresh_token)).toEqual(before);
      // Still valid at its own endpoint, and its family was not revoked.
      pairOf(await refresh(t, flow, pair.refresh_token));
    });

    it('answers 401 token_expired for an expired refresh token', async () => {
      const pair = await login(flow);
      t.clock.advance((REFRESH_TOKEN_TTL + 1) * 1000);
      expectUnauthorized(await refresh(t, flow, pair.refresh_token), 'token_expired');
      // Login still works and starts a fresh session.
      pairOf(await refresh(t, flow, (await login(flow)).refresh_token));
    });
  });

  it('answers 401 token_invalid for unknown, malformed and bad-checksum refresh tokens', async () => {
    const real = (await login('api_key')).refresh_token;
    const lastChar = real.at(-1) === 'a' ? 'b' : 'a';
    for (const token of ['', 'sdr_short', `${real.slice(0, -1)}${lastChar}`, real.replace(/^sdr_/, 'sdk_'), 'x'.repeat(53)]) {
      expectUnauthorized(await refresh(t, 'api_key', token), 'token_invalid');
    }
    // Well-formed with a valid checksum, but never issued.
    expectUnauthorized(await refresh(t, 'api_key', generateCredential('refreshToken')), 'token_invalid');
    // None of these touched the real token.
    pairOf(await refresh(t, 'api_key', real));
  });

  it.each<LoginFlow>(['api_key', 'oauth'])('lets exactly one of 50 parallel %s refreshes with one token succeed', async (flow) => {
    const pair = await login(flow);
    const responses = await Promise.all(Array.from({ length: 50 }, () => refresh(t, flow, pair.refresh_token)));
    const statuses = responses.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(49);
    for (const res of responses.filter((r) => r.statusCode === 401)) {
      expect(res.json<{ error: { reason: string } }>().error.reason).toBe('refresh_token_revoked');
    }
    // A second use of one token is a replay: its family, the winner's successor included, is revoked.
    const familyId = (await storedToken(pair.refresh_token)).family_id;
    const active = await t.database.db.selectFrom('refresh_tokens').select('digest').where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
    expect(active).toEqual([]);
    expect(await t.database.db.selectFrom('refresh_tokens').select('digest').where('family_id', '=', familyId).execute()).toHaveLength(2);
  });
});
