import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../helpers/app.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { accountConfig, admin, login, onboard, pairOf, reasonOf, refresh } from './api.js';

/** How long a change made on A may take to reach B in these tests (the bench measures the real figure). */
const PROPAGATION_ALLOWANCE_MS = 5000;

interface Pair {
  a: NodeProcess;
  b: NodeProcess;
  close(): Promise<void>;
}

/**
 * Two real server processes on one fresh PostgreSQL database. With Redis, both poll only every
 * 60 s, so that a change can reach B within the test's allowance only through pub/sub.
 */
async function startPair(withRedis: boolean): Promise<Pair & { redis: RedisServer | undefined }> {
  const database = await freshDatabaseUrl('postgres');
  const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-two-nodes-'));
  const redis = withRedis ? await startRedis() : undefined;
  const env = nodeEnv(dataDir, {
    DATABASE_URL: database.url,
    CHANGE_POLL_MS: redis ? '60000' : '1000',
    ...(redis ? { REDIS_URL: redis.url } : {}),
  });
  const [a, b] = await Promise.all([startNode({ env }), startNode({ env })]);
  const close = async () => {
    await Promise.all([a.stop(2000), b.stop(2000)]);
    await redis?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
  } catch (error) {
    await close();
    throw error;
  }
  return { a, b, redis, close };
}

/**
 * Makes B cache the account. B drops its cache when it learns of the account's creation, which
 * may be a moment after its first load: load again after that, so that only the change under
 * test can make B read the account afresh.
 */
async function cacheOn(b: NodeProcess, headers: Record<string, string>): Promise<void> {
  expect((await accountConfig(b.url, headers)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await accountConfig(b.url, headers)).status).toBe(200);
}

/** A change made on A is seen by B: disabling a client, and an import. */
function propagationTests(pair: () => Pair) {
  it('a client disabled on A is refused on B (401 client_disabled), and enabled again, accepted', async () => {
    const { a, b } = pair();
    const { clientId, apiKey } = await onboard(a.url);
    const byKey = { 'x-api-key': apiKey };
    await cacheOn(b, byKey);

    expect((await admin(a.url, 'PATCH', `/admin/v1/clients/${clientId}`, { disabled: true })).status).toBe(200);
    const refused = await eventually(async () => {
      const answer = await accountConfig(b.url, byKey);
      return answer.status === 401 && reasonOf(answer) === 'client_disabled';
    }, PROPAGATION_ALLOWANCE_MS);
    expect(refused).toBe(true);

    expect((await admin(a.url, 'PATCH', `/admin/v1/clients/${clientId}`, { disabled: false })).status).toBe(200);
    expect(await eventually(async () => (await accountConfig(b.url, byKey)).status === 200, PROPAGATION_ALLOWANCE_MS)).toBe(true);
  });

  it('an import through A is served by B', async () => {
    const { a, b } = pair();
    const { apiKey } = await onboard(a.url);
    const sports = async () => {
      const res = await fetch(`${b.url}/v1/references/sports?search=curling`, { headers: { 'x-api-key': apiKey } });
      return ((await res.json()) as { results: Array<{ id: number }> }).results.map((s) => s.id);
    };
    // B has the empty answer cached from here on.
    expect(await sports()).toEqual([]);
    const imported = await admin(a.url, 'POST', '/admin/v1/import', { sports: [{ id: 901, key: 'curling', name: 'Curling' }] });
    expect(imported.status).toBe(200);
    expect(await eventually(async () => (await sports()).includes(901), PROPAGATION_ALLOWANCE_MS)).toBe(true);
  });
}

describe('two nodes on one PostgreSQL and one redis-server', () => {
  let pair: Pair & { redis: RedisServer | undefined };
  beforeAll(async () => {
    pair = await startPair(true);
  }, 90_000);
  afterAll(async () => pair?.close());

  it('a token issued by A is accepted by B, and its refresh token rotates on B', async () => {
    const { a, b } = pair;
    const { apiKey } = await onboard(a.url);
    const issued = await login(a.url, apiKey);
    expect(issued.status).toBe(200);
    const { access_token, refresh_token } = pairOf(issued);
    expect((await accountConfig(b.url, { authorization: `Bearer ${access_token}` })).status).toBe(200);
    expect((await refresh(b.url, refresh_token)).status).toBe(200);
  });

  it('of 50 concurrent refreshes of one refresh token, split across A and B, exactly one succeeds', async () => {
    const { a, b } = pair;
    const { apiKey } = await onboard(a.url);
    const { refresh_token } = pairOf(await login(a.url, apiKey));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => refresh(i % 2 === 0 ? a.url : b.url, refresh_token)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(49);
  });

  propagationTests(() => pair);

  it('a change made while Redis is down reaches B once Redis is back (B polls when it resubscribes)', async () => {
    const { a, b, redis } = pair;
    if (!redis) throw new Error('this pair has Redis');
    const { clientId, apiKey } = await onboard(a.url);
    const byKey = { 'x-api-key': apiKey };
    await cacheOn(b, byKey);
    await redis.stop();
    expect((await admin(a.url, 'PATCH', `/admin/v1/clients/${clientId}`, { disabled: true })).status).toBe(200);
    // B polls every 60 s and the message was lost: B still knows the account as enabled.
    expect((await accountConfig(b.url, byKey)).status).toBe(200);
    await redis.start();
    expect(await eventually(async () => (await accountConfig(b.url, byKey)).status === 401, 10_000)).toBe(true);
  });

  it('SIGKILL of A under load: B keeps serving, and every refresh token A answered with 200 works on B', async () => {
    const { a, b } = pair;
    const { apiKey } = await onboard(a.url);
    // Refresh tokens A has answered with and that were never presented again.
    const unused = new Set<string>();
    let answered = 0;
    let killed = false;
    // Each round logs in, and every other round rotates that login's token once; the token each
    // round ends with is kept for B. (A token in flight when A dies may or may not have been
    // rotated: only answered and unpresented ones must work.)
    const chain = async () => {
      for (let round = 0; !killed; round += 1) {
        try {
          const loggedIn = await login(a.url, apiKey);
          if (loggedIn.status !== 200) throw new Error(`A answered ${loggedIn.status}`);
          let token = pairOf(loggedIn).refresh_token;
          if (round % 2 === 1) {
            const rotated = await refresh(a.url, token);
            if (rotated.status !== 200) throw new Error(`A answered ${rotated.status}`);
            token = pairOf(rotated).refresh_token;
          }
          unused.add(token);
          answered += 1;
        } catch {
          return; // A is gone (connection refused or reset)
        }
      }
    };
    const chains = Array.from({ length: 8 }, chain);
    expect(await eventually(async () => answered >= 40, 20_000, 10)).toBe(true);
    a.child.kill('SIGKILL');
    killed = true;
    await Promise.all(chains);
    expect((await a.exited).signal).toBe('SIGKILL');

    expect((await login(b.url, apiKey)).status).toBe(200);
    expect(unused.size).toBeGreaterThan(0);
    const onB = await Promise.all([...unused].map((token) => refresh(b.url, token)));
    expect(onB.map((answer) => answer.status)).toEqual(onB.map(() => 200));
  });
});

describe('two nodes on one PostgreSQL without Redis (changes by the database poll)', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair(false);
  }, 90_000);
  afterAll(async () => pair?.close());

  propagationTests(() => pair);
});
