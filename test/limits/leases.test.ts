import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestApp } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { churnApiKey, dataCall, drain, limitHeaders, patchClient, type NodeWithRedis, startNodeWithRedis, startTwoNodes, TEN_PAST_NOON, type TwoNodes, usageOf } from './limits-helpers.js';

const HOUR_MS = 3_600_000;

/*
 * With Redis, a node is granted a client's events ahead of time (a lease) and hands them out
 * without a round trip. Redis counts them from the grant on, so a node that forgot what it holds
 * would charge the client for requests it never made.
 */

describe.each(DIALECTS)('leases on one node with Redis (%s)', (dialect) => {
  let node: NodeWithRedis;
  let t: TestApp;
  beforeAll(async () => void ({ t } = node = await startNodeWithRedis(dialect)));
  afterAll(async () => node.close());

  it("another tenant creating and deleting API keys between the victim's calls costs the victim nothing", async () => {
    t.clock.set(TEN_PAST_NOON);
    const victim = await onboardClient(t, { tier: 'free', name: 'Victim' });
    const other = await onboardClient(t, { tier: 'pro', name: 'Other tenant' });
    expect(other.tenantId).not.toBe(victim.tenantId);
    for (let i = 1; i <= 20; i += 1) {
      const res = await dataCall(t, victim.apiKey);
      expect(res.statusCode, res.body).toBe(200);
      expect(limitHeaders(res).xRemaining).toBe(60 - i);
      await churnApiKey(t, other.apiKey);
    }
    const usage = await usageOf(t, victim.clientId);
    expect(usage.current.minute).toMatchObject({ used: 20, remaining: 40 });
    expect(usage.current.day).toMatchObject({ used: 20, remaining: 4980 });
    // The rest of its minute, to the request.
    expect(await drain([t], victim.apiKey)).toBe(40);
  });

  it("an operator's downgrade from pro to free after one request: the rest of the free minute, and a day of one request", async () => {
    t.clock.set(TEN_PAST_NOON + HOUR_MS);
    const client = await onboardClient(t, { tier: 'pro' });
    expect(limitHeaders(await dataCall(t, client.apiKey)).xRemaining).toBe(599);
    await patchClient(t, client.clientId, { tier: 'free' });
    const usage = await usageOf(t, client.clientId);
    expect(usage.current.minute).toMatchObject({ used: 1, remaining: 59 });
    expect(usage.current.day).toMatchObject({ used: 1, remaining: 4999 });
    const next = await dataCall(t, client.apiKey);
    expect(limitHeaders(next)).toMatchObject({ xLimit: 60, xRemaining: 58 });
    expect(await drain([t], client.apiKey)).toBe(58);
    expect((await usageOf(t, client.clientId)).current.day).toMatchObject({ used: 60, remaining: 4940 });
  });

  it('an upgrade from free to pro after one request: the pro minute less that request', async () => {
    t.clock.set(TEN_PAST_NOON + 2 * HOUR_MS);
    const client = await onboardClient(t, { tier: 'free' });
    expect(limitHeaders(await dataCall(t, client.apiKey)).xRemaining).toBe(59);
    await patchClient(t, client.clientId, { tier: 'pro' });
    expect(limitHeaders(await dataCall(t, client.apiKey))).toMatchObject({ xLimit: 600, xRemaining: 598 });
    expect((await usageOf(t, client.clientId)).current.day).toMatchObject({ used: 2, remaining: 199_998 });
  });
});

describe('leases on two nodes sharing one PostgreSQL database and one Redis', () => {
  let nodes: TwoNodes;
  beforeAll(async () => void (nodes = await startTwoNodes()), 60_000);
  afterAll(async () => nodes.close());

  it("another tenant's key changes between the victim's calls on both nodes: the victim still gets its whole daily quota", async () => {
    const { a, b } = nodes;
    const victim = await onboardClient(a, { tier: 'free', name: 'Victim' });
    await patchClient(a, victim.clientId, { daily_quota: 100, rate_limit_per_minute: 1000 });
    const other = await onboardClient(a, { tier: 'pro', name: 'Other tenant' });
    let served = 0;
    for (let i = 0; i < 20; i += 1) {
      for (const node of [a, b]) if ((await dataCall(node, victim.apiKey)).statusCode === 200) served += 1;
      await churnApiKey(i % 2 === 0 ? a : b, other.apiKey);
    }
    expect(served).toBe(40);
    expect(served + (await drain([a, b], victim.apiKey))).toBe(100);
  });

  it('a downgrade from pro to free after one request on one node: the other node gives the rest of the free minute', async () => {
    const { a, b } = nodes;
    const client = await onboardClient(a, { tier: 'pro' });
    expect((await dataCall(a, client.apiKey)).statusCode).toBe(200);
    await patchClient(a, client.clientId, { tier: 'free' });
    // Node A gives back what it was granted under the pro limits as soon as it learns of the change.
    await expect
      .poll(async () => {
        const { current } = await usageOf(b, client.clientId);
        return [current.minute.used, current.minute.remaining, current.day.used];
      }, { timeout: 5000 })
      .toEqual([1, 59, 1]);
    expect(limitHeaders(await dataCall(b, client.apiKey))).toMatchObject({ xLimit: 60, xRemaining: 58 });
    expect(await drain([b, a], client.apiKey)).toBe(58);
  });
});
