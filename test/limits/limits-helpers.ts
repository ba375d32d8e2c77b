import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { manualClock } from '../../src/platform/clock.js';
import type { DialectName } from '../../src/platform/db/database.js';
import { adminHeaders, freshDatabaseUrl, type TestApp } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

/** A data call that needs no data: the sports list (empty on a fresh database). */
export function dataCall(t: TestApp, apiKey: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/v1/references/sports', headers: { 'x-api-key': apiKey } });
}

/** PATCH /admin/v1/clients/{id} with this body; asserts 200. */
export async function patchClient(t: TestApp, clientId: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'PATCH', url: `/admin/v1/clients/${clientId}`, headers: adminHeaders, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The rate-limit fields of an answer, as numbers where they are numbers. */
export function limitHeaders(res: LightMyRequestResponse) {
  const number = (name: string) => (res.headers[name] === undefined ? undefined : Number(res.headers[name]));
  return {
    policy: res.headers['ratelimit-policy'],
    limit: res.headers.ratelimit,
    xLimit: number('x-ratelimit-limit'),
    xRemaining: number('x-ratelimit-remaining'),
    xReset: number('x-ratelimit-reset'),
    retryAfter: number('retry-after'),
  };
}

/** 12:00:10 UTC: the minute ends in 50 s, the day in 11 h 59 min 50 s. */
export const TEN_PAST_NOON = Date.parse('2030-01-15T12:00:10Z');

/** A client's usage report as an operator reads it (GET /admin/v1/clients/{id}/usage: charged to nobody). */
export interface UsageBody {
  tier: string;
  limits: { per_minute: number | null; per_day: number | null };
  current: Record<'minute' | 'day', { used: number | null; remaining: number | null; resets_at: string }>;
  days: Array<{ date: string; requests: number; charged: number; by_group: Record<string, number> }>;
}

export async function usageOf(t: TestApp, clientId: string, query = ''): Promise<UsageBody> {
  const res = await t.app.inject({ method: 'GET', url: `/admin/v1/clients/${clientId}/usage${query}`, headers: adminHeaders });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UsageBody>();
}

/** A change to the client accounts, as any tenant may make one: creates an API key and deletes it. */
export async function churnApiKey(t: TestApp, apiKey: string): Promise<void> {
  const headers = { 'x-api-key': apiKey };
  const created = await t.app.inject({ method: 'POST', url: '/v1/account/api-keys', headers, payload: { name: 'churn' } });
  expect(created.statusCode, created.body).toBe(201);
  const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/account/api-keys/${created.json<{ key_code: string }>().key_code}`, headers });
  expect(deleted.statusCode, deleted.body).toBe(204);
}

/**
 * Data calls to each node in turn until a round where every node refuses; returns how many were
 * served. With leases, one node may refuse while another still holds events granted ahead.
 */
export async function drain(nodes: readonly TestApp[], apiKey: string, most = 10_000): Promise<number> {
  let served = 0;
  for (let round = 0; served < most; round += 1) {
    let any = false;
    for (const node of nodes) {
      const res = await dataCall(node, apiKey);
      if (res.statusCode === 200) {
        served += 1;
        any = true;
      } else {
        expect(res.statusCode, res.body).toBe(429);
      }
    }
    if (!any) return served;
  }
  return served;
}

/** One app on a fresh database of the dialect, with a Redis of its own. */
export interface NodeWithRedis {
  t: Harness;
  redis: RedisServer;
  close(): Promise<void>;
}

export async function startNodeWithRedis(dialect: DialectName): Promise<NodeWithRedis> {
  const redis = await startRedis();
  const t = await harness({ dialect, env: { REDIS_URL: redis.url } });
  return {
    t,
    redis,
    async close() {
      await t.close();
      await redis.stop();
    },
  };
}

/** Two nodes: two apps on one fresh PostgreSQL database and one Redis of their own. */
export interface TwoNodes {
  a: Harness;
  b: Harness;
  redis: RedisServer;
  close(): Promise<void>;
}

export async function startTwoNodes(): Promise<TwoNodes> {
  const redis = await startRedis();
  const database = await freshDatabaseUrl('postgres');
  // One clock for both, at TEN_PAST_NOON: the nodes agree on the minute, as synchronised machines do.
  const clock = manualClock(TEN_PAST_NOON);
  const options = { dialect: 'postgres' as const, databaseUrl: database.url, clock, env: { REDIS_URL: redis.url } };
  const a = await harness(options);
  const b = await harness(options);
  return {
    a,
    b,
    redis,
    async close() {
      await a.close();
      await b.close();
      await database.drop();
      await redis.stop();
    },
  };
}
