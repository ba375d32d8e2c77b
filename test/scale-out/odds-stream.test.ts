import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../helpers/app.js';
import { eventually, type NodeProcess, nodeEnv, startNode } from '../helpers/node-process.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { openStream } from '../helpers/sse.js';
import { type Change, historyDataset, odds } from '../history/fixture.js';
import type { PageBody } from '../helpers/responses.js';
import { type BoardEvent, type BoardItem, boardSummaries, expectedBoardEvents } from '../stream/board-summaries.js';
import { admin, call, onboard } from './api.js';

/** How long a change imported through A may take to reach a stream on B in these tests (the bench measures the real figure). */
const PROPAGATION_ALLOWANCE_MS = 5000;

/**
 * Two real server processes on one fresh PostgreSQL database. With Redis both poll only every
 * 60 s, so that a change can reach B's stream in time only through pub/sub.
 */
function twoNodes(withRedis: boolean) {
  const state: { a?: NodeProcess; b?: NodeProcess; env?: Record<string, string>; redis?: RedisServer | undefined; apiKey?: string; close?: () => Promise<void> } = {};
  beforeAll(async () => {
    const database = await freshDatabaseUrl('postgres');
    const dataDir = mkdtempSync(join(tmpdir(), 'sportsdata-odds-stream-'));
    const redis = withRedis ? await startRedis() : undefined;
    // Heartbeats every 200 ms: a stream's place in Redis is leased for three of them (600 ms).
    const env = nodeEnv(dataDir, { DATABASE_URL: database.url, CHANGE_POLL_MS: redis ? '60000' : '1000', STREAM_HEARTBEAT_MS: '200', ...(redis ? { REDIS_URL: redis.url } : {}) });
    const [a, b] = await Promise.all([startNode({ env }), startNode({ env })]);
    state.close = async () => {
      await Promise.all([a.stop(2000), b.stop(2000)]);
      await redis?.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
    Object.assign(state, { a, b, env, redis, apiKey: (await onboard(a.url)).apiKey });
    expect((await admin(a.url, 'POST', '/admin/v1/import', historyDataset(Date.now()))).status).toBe(200);
  }, 90_000);
  afterAll(async () => state.close?.());
  return state;
}

let price = 1.8;
/** Odds 6 (event 200, book 2's away side), moved by the board test. */
let boardPrice = 2.6;
/** Moves odds 1 (event 100) through node A's import API. */
async function moveThrough(node: NodeProcess): Promise<void> {
  price = Math.round((price + 0.01) * 100) / 100;
  const res = await admin(node.url, 'POST', '/admin/v1/import', { odds: [odds(1, 100, 1, 1, 'home', price)] });
  expect(res.status).toBe(200);
}

function streamTests(nodes: ReturnType<typeof twoNodes>) {
  it('an import through A that moves one price sends, on both nodes, a board event for exactly the selections whose best, consensus or fair price changed, and B’s cached board moves by exactly those', async () => {
    const { a, b, apiKey } = nodes;
    if (!a || !b || !apiKey) throw new Error('the nodes did not start');
    const headers = { 'x-api-key': apiKey };
    const boardOf = (node: NodeProcess) =>
      boardSummaries(async (body) => {
        const res = await call(node.url, 'POST', '/v1/odds/board', headers, body);
        expect(res.status).toBe(200);
        return res.body as unknown as PageBody<BoardItem>;
      }, [200]);
    const board = () => boardOf(a);
    const onA = await openStream(`${a.url}/v1/stream/odds?event_ids=200&types=board`, headers);
    const onB = await openStream(`${b.url}/v1/stream/odds?event_ids=200&types=board`, headers);
    const before = await board();
    // B answers from its own cache: read now, it must not serve this board once the change has reached it.
    expect(await boardOf(b)).toEqual(before);
    boardPrice = Math.round((boardPrice + 0.05) * 100) / 100;
    const started = Date.now();
    expect((await admin(a.url, 'POST', '/admin/v1/import', { odds: [odds(6, 200, 2, 1, 'away', boardPrice)] })).status).toBe(200);
    const expected = expectedBoardEvents(before, await board());
    expect(expected.length).toBeGreaterThan(0);
    for (const s of [onA, onB]) {
      const events: BoardEvent[] = [];
      while (events.length < expected.length) events.push(JSON.parse((await s.next(PROPAGATION_ALLOWANCE_MS)).data) as BoardEvent);
      expect(Date.now() - started).toBeLessThan(PROPAGATION_ALLOWANCE_MS);
      expect(events.sort((x, y) => x.position.localeCompare(y.position))).toEqual(expected);
      await expect(s.next(1000)).rejects.toThrow(/no event/);
      s.close();
    }
    // Every node's board moved by exactly those items: B's answer, once its stream has the events, is A's.
    const after = await board();
    expect(await boardOf(b)).toEqual(after);
    expect(expectedBoardEvents(before, await boardOf(b))).toEqual(expected);
  }, 30_000);

  it('a client streaming from B receives a change imported through A, and after a reconnection exactly the changes it missed', async () => {
    const { a, b, apiKey } = nodes;
    if (!a || !b || !apiKey) throw new Error('the nodes did not start');
    const headers = { 'x-api-key': apiKey };
    const s = await openStream(`${b.url}/v1/stream/odds?event_ids=100`, headers);
    expect(s.status).toBe(200);
    const started = Date.now();
    await moveThrough(a);
    const first = JSON.parse((await s.next(PROPAGATION_ALLOWANCE_MS)).data) as Change;
    expect(first).toMatchObject({ odds_id: 1, price_decimal: { to: price } });
    expect(Date.now() - started).toBeLessThan(PROPAGATION_ALLOWANCE_MS);
    s.close();

    // Missed while away: two changes, imported through A.
    await moveThrough(a);
    const missedPrice = price;
    await moveThrough(a);
    const again = await openStream(`${b.url}/v1/stream/odds?event_ids=100`, { ...headers, 'last-event-id': String(first.id) });
    const missed = [JSON.parse((await again.next()).data) as Change, JSON.parse((await again.next()).data) as Change];
    expect(missed.map((c) => c.price_decimal.to)).toEqual([missedPrice, price]);
    await expect(again.next(1000)).rejects.toThrow(/no event/);
    // And live again, through A.
    await moveThrough(a);
    expect((JSON.parse((await again.next(PROPAGATION_ALLOWANCE_MS)).data) as Change).price_decimal.to).toBe(price);
    again.close();
  }, 30_000);
}

describe('odds streams on two nodes, one PostgreSQL and one redis-server', () => {
  const nodes = twoNodes(true);
  streamTests(nodes);

  it('counts a client’s open streams across the nodes: 3 on A and 2 on B, and a sixth on either is 429', async () => {
    const { a, b } = nodes;
    if (!a || !b) throw new Error('the nodes did not start');
    const { apiKey } = await onboard(a.url);
    const open = (node: NodeProcess) => openStream(`${node.url}/v1/stream/odds?event_ids=100`, { 'x-api-key': apiKey });
    const streams = [await open(a), await open(a), await open(a), await open(b), await open(b)];
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await open(a)).status).toBe(429);
    expect((await open(b)).status).toBe(429);
    streams[0]?.close();
    expect(await eventually(async () => (await open(b).then((s) => (s.close(), s.status))) === 200, 5000, 100)).toBe(true);
    for (const s of streams) s.close();
  }, 30_000);

  it('frees the places of a node that dies with streams open once their leases run out', async () => {
    const { b, env } = nodes;
    if (!b || !env) throw new Error('the nodes did not start');
    const c = await startNode({ env });
    try {
      await c.waitUntilReady();
      const { apiKey } = await onboard(c.url);
      const open = (node: NodeProcess) => openStream(`${node.url}/v1/stream/odds`, { 'x-api-key': apiKey });
      const onC = await Promise.all([1, 2, 3, 4, 5].map(() => open(c)));
      expect(onC.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await open(b)).status).toBe(429);
      c.child.kill('SIGKILL');
      await c.exited;
      expect(await eventually(async () => (await open(b).then((s) => (s.close(), s.status))) === 200, 5000, 100)).toBe(true);
    } finally {
      await c.stop(1000);
    }
  }, 60_000);

  it('SIGTERM ends a node’s streams with a final event, and the node exits at once', async () => {
    const { b, apiKey } = nodes;
    if (!b || !apiKey) throw new Error('the nodes did not start');
    const s = await openStream(`${b.url}/v1/stream/odds`, { 'x-api-key': apiKey });
    expect(s.status).toBe(200);
    const started = Date.now();
    const exit = await b.stop(10_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(JSON.parse((await s.next()).data)).toMatchObject({ reason: 'server_shutdown' });
  }, 30_000);
});

describe('odds streams on two nodes without Redis (changes by the database poll)', () => {
  streamTests(twoNodes(false));
});
