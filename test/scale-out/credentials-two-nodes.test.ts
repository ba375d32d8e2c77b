import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../helpers/app.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { accountConfig, admin, type Answer, login, onboard, pairOf, reasonOf, refresh } from './api.js';

/**
 * Credentials and their changes (decisions 0100–0103) with two real nodes on one PostgreSQL and one
 * redis-server. Both poll the change counters only every 60 s, so a change made on A reaches B
 * within the allowance only through Redis. A deleted key or a reset is refused at once on the node
 * that made it, on the other once the change has arrived; a login checks its credential in its own
 * transaction, so no node lets a login with the old credential succeed once the change has
 * answered.
 */
const PROPAGATION_ALLOWANCE_MS = 5000;

async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const byKey = (apiKey: string) => ({ 'x-api-key': apiKey });
const byToken = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** B must have the account cached before the change, so that only the change can make it read it again. */
async function cacheOn(node: NodeProcess, headers: Record<string, string>): Promise<void> {
  expect((await accountConfig(node.url, headers)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await accountConfig(node.url, headers)).status).toBe(200);
}

describe('credentials with two nodes on one PostgreSQL and one redis-server (database poll every 60 s)', () => {
  let a: NodeProcess;
  let b: NodeProcess;
  let redis: RedisServer;
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    database = await freshDatabaseUrl('postgres');
    dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-credentials-two-nodes-'));
    redis = await startRedis();
    const env = nodeEnv(dataDir, {
      DATABASE_URL: database.url,
      CHANGE_POLL_MS: '60000',
      REDIS_URL: redis.url,
      // The race below sends many refused logins from one address on purpose.
      LOGIN_FAILURES_PER_MINUTE: '1000000',
      LOGIN_FAILURES_PER_CLIENT_PER_MINUTE: '1000000',
    });
    [a, b] = await Promise.all([startNode({ env }), startNode({ env })]);
    await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(2000), b?.stop(2000)]);
    await redis?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a new key and the old one both work on both nodes; the deleted one answers 401 on A at once and on B once the change arrives', async () => {
    const { apiKey: oldKey } = await onboard(a.url);
    const created = await call(a.url, 'POST', '/v1/account/api-keys', byKey(oldKey), { name: 'rotation' });
    expect(created.status).toBe(201);
    const newKey = String(created.body.api_key);
    for (const node of [a, b]) {
      expect((await accountConfig(node.url, byKey(oldKey))).status).toBe(200);
      expect((await accountConfig(node.url, byKey(newKey))).status).toBe(200);
    }
    // An access token minted from the old key, cached on B with the account.
    const minted = pairOf(await login(a.url, oldKey));
    await cacheOn(b, byToken(minted.access_token));

    const keys = await call(a.url, 'GET', '/v1/account/api-keys', byKey(newKey));
    const oldCode = (keys.body.results as Array<{ key_code: string; name: string }>).find((key) => key.name !== 'rotation')?.key_code;
    expect((await call(a.url, 'DELETE', `/v1/account/api-keys/${oldCode}`, byKey(newKey))).status).toBe(204);

    expect((await accountConfig(a.url, byKey(oldKey))).status).toBe(401);
    expect((await accountConfig(a.url, byToken(minted.access_token))).status).toBe(401);
    const goneOnB = await eventually(async () => (await accountConfig(b.url, byKey(oldKey))).status === 401, PROPAGATION_ALLOWANCE_MS);
    expect(goneOnB).toBe(true);
    expect((await accountConfig(b.url, byToken(minted.access_token))).status).toBe(401);
    // Its session's refresh token ended with it, on either node.
    expect((await refresh(b.url, minted.refresh_token)).status).toBe(401);
    // The new key never stopped working.
    for (const node of [a, b]) expect((await accountConfig(node.url, byKey(newKey))).status).toBe(200);
  });

  it('after an operator reset on A, an access token issued before it answers 401 on A at once and on B once the change arrives', async () => {
    const { clientId, apiKey } = await onboard(a.url);
    const before = pairOf(await login(b.url, apiKey));
    await cacheOn(b, byToken(before.access_token));

    const reset = await admin(a.url, 'POST', `/admin/v1/clients/${clientId}/credentials`);
    expect(reset.status).toBe(200);
    const refused = await accountConfig(a.url, byToken(before.access_token));
    expect(refused.status).toBe(401);
    expect(reasonOf(refused)).toBe('token_invalid');
    expect(await eventually(async () => (await accountConfig(b.url, byToken(before.access_token))).status === 401, PROPAGATION_ALLOWANCE_MS)).toBe(true);
    // The new key works on both.
    for (const node of [a, b]) expect((await accountConfig(node.url, byKey(String(reset.body.api_key)))).status).toBe(200);
  });

  it('logins with the old key on both nodes racing a reset on A: none succeeds after it answered, no overlapping session refreshes', async () => {
    const { clientId, apiKey } = await onboard(a.url);
    let resetAnswered = false;
    const late: number[] = [];
    const tokens: string[] = [];
    const loop = async (node: NodeProcess) => {
      let after = 0;
      while (after < 5) {
        const sentAfterReset = resetAnswered;
        const answer = await login(node.url, apiKey);
        if (answer.status === 200) {
          tokens.push(pairOf(answer).refresh_token);
          if (sentAfterReset) late.push(answer.status);
        } else {
          expect(answer.status).toBe(401);
        }
        if (sentAfterReset) after += 1;
      }
    };
    const resetting = (async () => {
      while (tokens.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));
      const reset = await admin(a.url, 'POST', `/admin/v1/clients/${clientId}/credentials`);
      expect(reset.status).toBe(200);
      resetAnswered = true;
    })();
    await Promise.all([...[a, b, a, b, a, b].map(loop), resetting]);

    expect(tokens.length, 'no login overlapped the reset: the test shows nothing').toBeGreaterThan(0);
    expect(late).toEqual([]);
    const refreshed = await Promise.all(tokens.map((token, i) => refresh(i % 2 === 0 ? a.url : b.url, token)));
    expect(refreshed.filter((answer) => answer.status === 200)).toHaveLength(0);
  }, 60_000);
});
