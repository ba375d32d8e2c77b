import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, buildTestApp, DIALECTS, type TestApp } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { accountWithBearer, apiKeyLogin, type TokenPairBody, refresh } from './auth-helpers.js';

/**
 * Issue 7, found when the service was probed: a client looped logins with its old key while the
 * operator reset its credentials. Logins checked a cached credential and then inserted their
 * refresh token without checking again, and the reset's revoke-all did not cover rows committed
 * after it: logins completed after the reset had answered, and refresh tokens from logins that
 * overlapped it still refreshed. After a reset (or a key deletion) has answered, no login with the
 * old credential may succeed, and no refresh token from a login that overlapped it may refresh.
 */

/** Concurrent login loops, as a busy client with several workers runs them. */
const LOOPS = 12;
/** Logins each loop still sends after the reset has answered. */
const AFTER = 4;

interface Login {
  res: LightMyRequestResponse;
  /** Whether the reset had answered when this login's answer arrived. */
  answeredAfterReset: boolean;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(DIALECTS)('a credential change racing logins with the old key (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ dialect });
  });
  afterAll(async () => t.close());

  /**
   * Runs LOOPS login loops with `apiKey`, calls `change` once logins are under way, and keeps the
   * loops going until each has sent AFTER logins after `change` answered.
   */
  async function loginsAround(apiKey: string, change: () => Promise<void>): Promise<Login[]> {
    const logins: Login[] = [];
    let changed = false;
    let answered = 0;
    const loop = async () => {
      let after = 0;
      while (after < AFTER) {
        const sentAfterChange = changed;
        const res = await apiKeyLogin(t, apiKey);
        answered += 1;
        logins.push({ res, answeredAfterReset: changed });
        if (sentAfterChange) after += 1;
        // A turn of the event loop between logins, as a network round trip gives: on SQLite a login
        // can complete in microtasks alone, which would starve the change (and every timer).
        await nextTurn();
      }
    };
    const changing = (async () => {
      // Let the loops get going, so that logins are in flight when the change runs.
      while (answered < LOOPS * 2) await nextTurn();
      try {
        await change();
      } finally {
        // Also when the change failed: the loops must end for the failure to be reported.
        changed = true;
      }
    })();
    await Promise.all([...Array.from({ length: LOOPS }, loop), changing]);
    return logins;
  }

  /** What survived the change: late successful logins, and overlapping sessions that still work. */
  async function survivors(logins: Login[]): Promise<{ lateLogins: number; refreshable: number; usableAccessTokens: number; otherStatuses: number[] }> {
    const pairs = logins.filter((l) => l.res.statusCode === 200).map((l) => l.res.json<TokenPairBody>());
    expect(pairs.length, 'no login overlapped the change: the test shows nothing').toBeGreaterThan(0);
    const refreshed = await Promise.all(pairs.map((pair) => refresh(t, 'api_key', pair.refresh_token)));
    const called = await Promise.all(pairs.map((pair) => accountWithBearer(t, pair.access_token)));
    return {
      lateLogins: logins.filter((l) => l.answeredAfterReset && l.res.statusCode === 200).length,
      refreshable: refreshed.filter((res) => res.statusCode === 200).length,
      usableAccessTokens: called.filter((res) => res.statusCode === 200).length,
      // A login that lost the race is refused (401), never an error.
      otherStatuses: logins.map((l) => l.res.statusCode).filter((status) => status !== 200 && status !== 401),
    };
  }

  const NONE = { lateLogins: 0, refreshable: 0, usableAccessTokens: 0, otherStatuses: [] };

  it('an operator reset through the admin API: no later login with the old key succeeds, no overlapping session survives', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await onboardClient(t, { authMethod: 'both' });
      const logins = await loginsAround(client.apiKey, async () => {
        const res = await t.app.inject({ method: 'POST', url: `/admin/v1/clients/${client.clientId}/credentials`, headers: adminHeaders });
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(await survivors(logins), `round ${round}`).toEqual(NONE);
    }
  });
});
