import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdKey, selfService, withKey } from '../account/credentials-helpers.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { accountWithApiKey, accountWithBearer, apiKeyLogin, pairOf, refresh, type TokenPairBody } from './auth-helpers.js';

/**
 * Found when the service was probed (decision 0103): a client looped logins with its old key while the
 * operator reset its credentials. Logins checked a cached credential and then inserted their
 * refresh token without checking again, and the reset's revoke-all did not cover rows committed
 * after it: logins completed after the reset had answered, and refresh tokens from logins that
 * overlapped it still refreshed (this test, before the fix: on PostgreSQL 8 late logins and 12
 * refreshable tokens in a round; on both databases every overlapping access token kept working).
 * After a reset or a key deletion has answered, no login with the old credential may succeed, no
 * session that overlapped it may go on, and the old key is refused at once on this node.
 */

/** Concurrent loops, as a busy client with several workers runs them. */
const LOOPS = 12;
/** Requests each loop still sends after the change has answered. */
const AFTER = 4;
const ROUNDS = 3;
/**
 * A round lasts as long as the change takes to answer, the loops calling all the while: 1.5 s on a
 * quiet machine, past the suite's 30 s with two CPU-bound processes beside it. What the test proves
 * does not depend on how long that is, so its time limit is generous.
 */
const RACE_TIMEOUT_MS = 180_000;

interface Call {
  res: LightMyRequestResponse;
  /** Whether the change had answered when this call's answer arrived. */
  answeredAfterChange: boolean;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(DIALECTS)('a credential change racing logins and refreshes with the old credential (%s)', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    // Hundreds of refused logins from one address are the point here, not a brute force to stop.
    t = await harness({ dialect, env: { LOGIN_FAILURES_PER_MINUTE: '1000000', LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '1000000' } });
  });
  afterAll(async () => t.close());

  /**
   * Runs LOOPS loops of `step` (each loop its own), calls `change` once calls are under way, and
   * keeps the loops going until each has sent AFTER calls after `change` answered.
   */
  async function callsAround(newLoop: () => () => Promise<LightMyRequestResponse>, change: () => Promise<void>): Promise<Call[]> {
    const calls: Call[] = [];
    let changed = false;
    let answered = 0;
    const loop = async () => {
      const step = newLoop();
      let after = 0;
      while (after < AFTER) {
        const sentAfterChange = changed;
        const res = await step();
        answered += 1;
        calls.push({ res, answeredAfterChange: changed });
        if (sentAfterChange) after += 1;
        // A turn of the event loop between calls, as a network round trip gives: on SQLite a call
        // can complete in microtasks alone, which would starve the change (and every timer).
        await nextTurn();
      }
    };
    const changing = (async () => {
      // Let the loops get going, so that calls are in flight when the change runs.
      while (answered < LOOPS * 2) await nextTurn();
      try {
        await change();
      } finally {
        // Also when the change failed: the loops must end for the failure to be reported.
        changed = true;
      }
    })();
    await Promise.all([...Array.from({ length: LOOPS }, loop), changing]);
    return calls;
  }

  /** What survived the change: late successes, and overlapping sessions that still work. */
  async function survivors(calls: Call[]): Promise<{ lateSuccesses: number; refreshable: number; usableAccessTokens: number; otherStatuses: number[] }> {
    const pairs = calls.filter((c) => c.res.statusCode === 200).map((c) => c.res.json<TokenPairBody>());
    expect(pairs.length, 'no call overlapped the change: the test shows nothing').toBeGreaterThan(0);
    const refreshed = await Promise.all(pairs.map((pair) => refresh(t, 'api_key', pair.refresh_token)));
    const called = await Promise.all(pairs.map((pair) => accountWithBearer(t, pair.access_token)));
    return {
      lateSuccesses: calls.filter((c) => c.answeredAfterChange && c.res.statusCode === 200).length,
      refreshable: refreshed.filter((res) => res.statusCode === 200).length,
      usableAccessTokens: called.filter((res) => res.statusCode === 200).length,
      // A call that lost the race is refused (401), never an error.
      otherStatuses: calls.map((c) => c.res.statusCode).filter((status) => status !== 200 && status !== 401),
    };
  }

  const NONE = { lateSuccesses: 0, refreshable: 0, usableAccessTokens: 0, otherStatuses: [] };

  async function resetThroughAdminApi(clientId: string): Promise<void> {
    const res = await t.admin.post(`/admin/v1/clients/${clientId}/credentials`);
    expect(res.statusCode, res.body).toBe(200);
  }

  it('logins with the old key racing an operator reset: none succeeds after it answered, no overlapping session survives', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const client = await t.client({ authMethod: 'both' });
      const calls = await callsAround(
        () => () => apiKeyLogin(t, client.apiKey),
        () => resetThroughAdminApi(client.clientId),
      );
      expect(await survivors(calls), `round ${round}`).toEqual(NONE);
      expect((await accountWithApiKey(t, client.apiKey)).statusCode).toBe(401);
    }
  }, RACE_TIMEOUT_MS);

  it('logins with a key racing its deletion by the client: none succeeds after it answered, no overlapping session survives', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const client = await t.client({ authMethod: 'both' });
      const doomed = createdKey(await selfService(t, withKey(client.apiKey)).createKey({ name: 'doomed' }));
      const calls = await callsAround(
        () => () => apiKeyLogin(t, doomed.api_key),
        async () => {
          const res = await selfService(t, withKey(client.apiKey)).deleteKey(doomed.key_code);
          expect(res.statusCode, res.body).toBe(204);
        },
      );
      expect(await survivors(calls), `round ${round}`).toEqual(NONE);
      expect((await accountWithApiKey(t, doomed.api_key)).statusCode).toBe(401);
      expect((await accountWithApiKey(t, client.apiKey)).statusCode).toBe(200);
    }
  }, RACE_TIMEOUT_MS);

  it('refreshes racing an operator reset: none succeeds after it answered, no rotated successor survives', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const client = await t.client({ authMethod: 'both' });
      const starts = await Promise.all(Array.from({ length: LOOPS }, async () => pairOf(await apiKeyLogin(t, client.apiKey)).refresh_token));
      const calls = await callsAround(
        () => {
          // Each loop rotates its own chain, always with the newest token it holds.
          let token = starts.pop() ?? '';
          return async () => {
            const res = await refresh(t, 'api_key', token);
            if (res.statusCode === 200) token = res.json<TokenPairBody>().refresh_token;
            return res;
          };
        },
        () => resetThroughAdminApi(client.clientId),
      );
      expect(await survivors(calls), `round ${round}`).toEqual(NONE);
    }
  }, RACE_TIMEOUT_MS);
});
