import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digest, generateCredential } from '../../src/modules/auth/credentials.js';
import { PURGE_GRACE_MS, purgeExpiredRefreshTokens } from '../../src/modules/tokens/tokens.purge.js';
import { apiKeyLogin, expectUnauthorized, pairOf, refresh } from '../auth/auth-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { onboardClient } from '../helpers/clients.js';
import { type CliDatabase, cliDatabase, sportsdata } from '../cli/cli-helpers.js';

const REFRESH_TOKEN_TTL_S = 3600;

describe.each(DIALECTS)('purging expired refresh tokens (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: { REFRESH_TOKEN_TTL: String(REFRESH_TOKEN_TTL_S) } }));

  const rows = () => t.database.db.selectFrom('refresh_tokens').select('digest').execute();

  it('deletes only tokens expired for longer than the grace period; live sessions keep working', async () => {
    const { apiKey } = await onboardClient(t);
    const old = pairOf(await apiKeyLogin(t, apiKey));
    const rotatedAway = pairOf(await refresh(t, 'api_key', old.refresh_token)); // old is now revoked
    t.clock.advance(REFRESH_TOKEN_TTL_S * 1000 + PURGE_GRACE_MS + 1000);
    const fresh = pairOf(await apiKeyLogin(t, apiKey));
    const before = (await rows()).map((r) => r.digest);
    expect(before).toEqual(expect.arrayContaining([digest(old.refresh_token), digest(rotatedAway.refresh_token), digest(fresh.refresh_token)]));

    expect(await purgeExpiredRefreshTokens(t.database.db, t.clock)).toBe(2);

    expect((await rows()).map((r) => r.digest)).toEqual([digest(fresh.refresh_token)]);
    expectUnauthorized(await refresh(t, 'api_key', rotatedAway.refresh_token), 'token_invalid');
    pairOf(await refresh(t, 'api_key', fresh.refresh_token));
  });

  it('keeps a token within the grace period after expiry, so a late client still hears "expired"', async () => {
    const { apiKey } = await onboardClient(t);
    const pair = pairOf(await apiKeyLogin(t, apiKey));
    t.clock.advance(REFRESH_TOKEN_TTL_S * 1000 + 1000);
    await purgeExpiredRefreshTokens(t.database.db, t.clock);
    expectUnauthorized(await refresh(t, 'api_key', pair.refresh_token), 'token_expired');
  });
});

describe.each(DIALECTS)('sportsdata tokens purge (%s)', (dialect) => {
  let cli: CliDatabase;
  beforeEach(async () => {
    cli = await cliDatabase(dialect);
  });
  afterEach(async () => cli.close());

  it('deletes the expired rows and says how many', async () => {
    const { account } = await cli.ctx.clients.create({ name: 'Acme', tier: 'pro', authMethod: 'both' });
    const longAgo = Date.now() - 10 * PURGE_GRACE_MS;
    const row = (expiresAt: number) => ({
      digest: digest(generateCredential('refreshToken')),
      client_id: account.id,
      family_id: 'f',
      flow: 'api_key' as const,
      credential_code: null,
      generation: 1,
      created_at: expiresAt - 1000,
      expires_at: expiresAt,
      revoked_at: null,
      revoked_reason: null,
    });
    await cli.ctx.database.db.insertInto('refresh_tokens').values([row(longAgo), row(Date.now() + 3_600_000)]).execute();

    const result = await sportsdata(cli.env, 'tokens', 'purge', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ purged: 1 });
    const left = await cli.ctx.database.db.selectFrom('refresh_tokens').select('expires_at').execute();
    expect(left).toHaveLength(1);
    expect(Number(left[0]?.expires_at)).toBeGreaterThan(Date.now());
  });
});
