import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../helpers/app.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { type Change, historyDataset, odds } from '../history/fixture.js';
import { admin, call, login, onboard, pairOf } from './api.js';

/**
 * Streams end with the credentials and the account terms that opened them on every node: two real
 * server processes on one PostgreSQL database. With Redis both poll the change counters only every
 * 60 s, so a change made through A reaches B's streams in time only through pub/sub; without it,
 * through the poll (every second).
 */
const PROPAGATION_ALLOWANCE_MS = 5000;

interface Nodes {
  a: NodeProcess;
  b: NodeProcess;
  redis: RedisServer | undefined;
}

function twoNodes(options: { redis: boolean; heartbeatMs: number }): { nodes(): Nodes } {
  let state: (Nodes & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    const database = await freshDatabaseUrl('postgres');
    const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-stream-ends-'));
    const redis = options.redis ? await startRedis() : undefined;
    const env = nodeEnv(dataDir, {
      DATABASE_URL: database.url,
      CHANGE_POLL_MS: redis ? '60000' : '1000',
      STREAM_HEARTBEAT_MS: String(options.heartbeatMs),
      ...(redis ? { REDIS_URL: redis.url } : {}),
    });
    const [a, b] = await Promise.all([startNode({ env }), startNode({ env })]);
    state = {
      a,
      b,
      redis,
      async close() {
        await Promise.all([a.stop(2000), b.stop(2000)]);
        await redis?.stop();
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
    expect((await admin(a.url, 'POST', '/admin/v1/import', historyDataset(Date.now()))).status).toBe(200);
  }, 90_000);
  afterAll(async () => state?.close());
  return {
    nodes() {
      if (!state) throw new Error('the nodes did not start');
      return state;
    },
  };
}

const byKey = (apiKey: string) => ({ 'x-api-key': apiKey });
const byToken = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
const stream = (node: NodeProcess, headers: Record<string, string>) => openStream(`${node.url}/v1/stream/odds?event_ids=100`, headers);
const tokenOf = async (node: NodeProcess, apiKey: string) => pairOf(await login(node.url, apiKey)).access_token;

async function onboardAs(node: NodeProcess, tier: 'pro' | 'enterprise'): Promise<{ clientId: string; apiKey: string }> {
  const { status, body } = await admin(node.url, 'POST', '/admin/v1/clients', { name: 'Streams', tier, auth_method: 'both' });
  expect(status).toBe(201);
  return { clientId: String(body.client_id), apiKey: String(body.api_key) };
}

async function reasonOfEnd(s: SseStream): Promise<unknown> {
  const event = await s.next(PROPAGATION_ALLOWANCE_MS);
  expect(event.event).toBe('end');
  return (JSON.parse(event.data) as { reason: unknown }).reason;
}

let price = 1.8;
/** Moves odds 1 (event 100) through `node`'s import, and checks every stream in `going` receives it. */
async function stillStreaming(node: NodeProcess, going: SseStream[]): Promise<void> {
  price = Math.round((price + 0.01) * 100) / 100;
  expect((await admin(node.url, 'POST', '/admin/v1/import', { odds: [odds(1, 100, 1, 1, 'home', price)] })).status).toBe(200);
  for (const s of going) expect((JSON.parse((await s.next(PROPAGATION_ALLOWANCE_MS)).data) as Change).price_decimal.to).toBe(price);
}

/** The changes are made through A; the streams that must end are on B (and on A). */
function endTests(nodes: () => Nodes) {
  it('a reset through A ends the streams opened before it on both nodes, by key and by token (credentials_revoked)', async () => {
    const { a, b } = nodes();
    const { clientId, apiKey } = await onboard(a.url);
    const old = [await stream(b, byKey(apiKey)), await stream(b, byToken(await tokenOf(b, apiKey))), await stream(a, byKey(apiKey))];
    expect(old.map((s) => s.status)).toEqual([200, 200, 200]);
    const reset = await admin(a.url, 'POST', `/admin/v1/clients/${clientId}/credentials`);
    expect(reset.status).toBe(200);
    for (const s of old) expect(await reasonOfEnd(s)).toBe('credentials_revoked');
    const fresh = await stream(b, byKey(String(reset.body.api_key)));
    expect(fresh.status).toBe(200);
    await stillStreaming(a, [fresh]);
    fresh.close();
  }, 30_000);

  it('deleting a key through A ends B’s streams of that key and of tokens minted from it (credentials_revoked)', async () => {
    const { a, b } = nodes();
    const { apiKey: kept } = await onboard(a.url);
    const created = await call(a.url, 'POST', '/v1/account/api-keys', byKey(kept), { name: 'to delete' });
    expect(created.status).toBe(201);
    const doomed = String(created.body.api_key);
    const ending = [await stream(b, byKey(doomed)), await stream(b, byToken(await tokenOf(b, doomed)))];
    const going = await stream(b, byKey(kept));
    expect((await call(a.url, 'DELETE', `/v1/account/api-keys/${String(created.body.key_code)}`, byKey(kept))).status).toBe(204);
    for (const s of ending) expect(await reasonOfEnd(s)).toBe('credentials_revoked');
    await stillStreaming(a, [going]);
    going.close();
  }, 30_000);

  it('an auth_method change through A ends B’s API-key streams (flow_not_enabled); its token streams go on', async () => {
    const { a, b } = nodes();
    const { clientId, apiKey } = await onboard(a.url);
    const byApiKey = await stream(b, byKey(apiKey));
    const byAccessToken = await stream(b, byToken(await tokenOf(b, apiKey)));
    expect((await admin(a.url, 'PATCH', `/admin/v1/clients/${clientId}`, { auth_method: 'oauth' })).status).toBe(200);
    expect(await reasonOfEnd(byApiKey)).toBe('flow_not_enabled');
    await stillStreaming(a, [byAccessToken]);
    byAccessToken.close();
  }, 30_000);
}

describe('streams end with their credentials on two nodes, one PostgreSQL and one redis-server', () => {
  const { nodes } = twoNodes({ redis: true, heartbeatMs: 200 });
  endTests(nodes);

  it('a downgrade through A ends the newest streams above the new cap across both nodes, and to free every one (tier_changed)', async () => {
    const { a, b } = nodes();
    const { clientId, apiKey } = await onboardAs(a, 'enterprise');
    const onA: SseStream[] = [];
    const onB: SseStream[] = [];
    // One after the other: four on A, then four on B. The pro cap keeps the five oldest.
    for (let i = 0; i < 4; i += 1) onA.push(await stream(a, byKey(apiKey)));
    for (let i = 0; i < 4; i += 1) onB.push(await stream(b, byKey(apiKey)));
    expect([...onA, ...onB].map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);

    expect((await admin(a.url, 'PATCH', `/admin/v1/clients/${clientId}`, { tier: 'pro' })).status).toBe(200);
    const [kept, ended] = [[...onA, ...onB.slice(0, 1)], onB.slice(1)];
    for (const s of ended) expect(await reasonOfEnd(s)).toBe('tier_changed');
    await stillStreaming(a, kept);
    expect((await stream(a, byKey(apiKey))).status).toBe(429);
    expect((await stream(b, byKey(apiKey))).status).toBe(429);

    expect((await admin(a.url, 'PATCH', `/admin/v1/clients/${clientId}`, { tier: 'free' })).status).toBe(200);
    for (const s of kept) expect(await reasonOfEnd(s)).toBe('tier_changed');
  }, 30_000);
});

describe('streams end with their credentials on two nodes without Redis (changes by the database poll)', () => {
  const { nodes } = twoNodes({ redis: false, heartbeatMs: 200 });
  endTests(nodes);
});

describe('a redis-server restarted empty: the open streams are counted again', () => {
  // Places are renewed only every 15 s here, as by default: the count must not wait for that.
  const { nodes } = twoNodes({ redis: true, heartbeatMs: 15_000 });

  it('a pro client holds no more than its cap on each node across the restart, and gets no place once Redis is back', async () => {
    const { a, b, redis } = nodes();
    if (!redis) throw new Error('no redis-server');
    const { apiKey } = await onboard(a.url);
    const onA = await Promise.all([1, 2, 3, 4, 5].map(() => stream(a, byKey(apiKey))));
    expect(onA.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await stream(b, byKey(apiKey))).status).toBe(429);

    // While Redis is away each node counts its own: B lets five more open (documented).
    await redis.stop();
    const ready = async (node: NodeProcess, state: string) => {
      const res = await fetch(`${node.url}/readyz`);
      return ((await res.json()) as { redis?: string }).redis === state;
    };
    expect(await eventually(async () => (await ready(a, 'degraded')) && (await ready(b, 'degraded')), 10_000, 100)).toBe(true);
    const onB = await Promise.all([1, 2, 3, 4, 5].map(() => stream(b, byKey(apiKey))));
    expect(onB.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await stream(b, byKey(apiKey))).status).toBe(429);

    // Back, with nothing in it: both nodes count their open streams in again at once.
    await redis.start();
    expect(await eventually(async () => (await ready(a, 'ok')) && (await ready(b, 'ok')), 15_000, 100)).toBe(true);
    const attempts = [await stream(b, byKey(apiKey)), await stream(a, byKey(apiKey)), await stream(b, byKey(apiKey))];
    expect(attempts.map((s) => s.status)).toEqual([429, 429, 429]);
    for (const s of [...onA, ...onB, ...attempts]) s.close();
  }, 60_000);
});
