import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_REASONS } from '../../src/modules/auth/index.js';
import { DIALECTS } from '../helpers/app.js';
import { onboardClient } from '../helpers/clients.js';
import { count, sample, scrape } from '../helpers/metrics.js';
import { type Reader, reader } from '../helpers/harness.js';
import { eventsFlowsDataset } from '../fixtures/events-flows.js';
import { quietLog } from '../helpers/quiet-log.js';

describe.each(DIALECTS)('the series of GET /metrics (%s)', (dialect) => {
  let h: Reader;
  beforeAll(async () => {
    h = await reader({ dialect: dialect, dataset: eventsFlowsDataset });
  });
  afterAll(async () => h.t.close());

  it('auth_failures_total counts every 401 by its reason, from the authenticator, the token endpoints and the admin API', async () => {
    const before = await scrape(h.t);
    const oauthOnly = await onboardClient(h.t, { authMethod: 'oauth' });
    const disabled = await onboardClient(h.t);
    await h.t.ctx.clients.update(disabled.clientId, { disabled: true });
    const caused: Array<[string, Promise<LightMyRequestResponse>]> = [
      ['missing_credentials', h.t.anonymous.get('/v1/account/config')],
      ['missing_credentials', h.t.anonymous.post('/v1/auth/login')],
      ['invalid_credentials', h.t.as({ apiKey: 'sdk_not-a-key' }).get('/v1/account/config')],
      ['invalid_credentials', h.t.as({ headers: { authorization: 'Bearer wrong-admin-token-wrong-admin-token' } }).get('/admin/v1/clients')],
      ['token_invalid', h.t.as({ headers: { authorization: 'Bearer not.a.jwt' } }).get('/v1/account/config')],
      ['token_invalid', h.t.anonymous.post('/v1/auth/refresh', { refresh_token: 'sdr_not-a-token' })],
      ['flow_not_enabled', h.t.as({ apiKey: oauthOnly.apiKey }).get('/v1/account/config')],
      ['client_disabled', h.t.as({ apiKey: disabled.apiKey }).get('/v1/account/config')],
    ];
    for (const [reason, response] of caused) {
      const res = await response;
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: { reason } });
    }
    const after = await scrape(h.t);
    const expected = new Map<string, number>();
    for (const [reason] of caused) expected.set(reason, (expected.get(reason) ?? 0) + 1);
    for (const reason of UNAUTHORIZED_REASONS) {
      // Every reason is a series from the start (at 0), so a query by reason finds it.
      expect(sample(before, 'auth_failures_total', { reason }), reason).toBeDefined();
      expect(count(after, 'auth_failures_total', { reason }) - count(before, 'auth_failures_total', { reason }), reason).toBe(expected.get(reason) ?? 0);
    }
  });

  it('read_cache_requests_total counts hits and misses of each read cache namespace: pages, id lists, items', async () => {
    const flows = (page: number, pageSize: number) => h.page('/v1/trends/flows', { page, page_size: pageSize });
    const namespaces = ['snapshots', 'idLists', 'items', 'pages'] as const;
    type Lookups = Record<(typeof namespaces)[number], [number, number]>;
    const lookups = (text: string) =>
      Object.fromEntries(
        namespaces.map((namespace) => [
          namespace,
          [count(text, 'read_cache_requests_total', { namespace, result: 'hit' }), count(text, 'read_cache_requests_total', { namespace, result: 'miss' })],
        ]),
      ) as Lookups;
    /** [hits, misses] of each namespace between two scrapes. */
    const delta = (a: Lookups, b: Lookups) =>
      Object.fromEntries(namespaces.map((namespace) => [namespace, [b[namespace][0] - a[namespace][0], b[namespace][1] - a[namespace][1]]])) as Lookups;

    const s0 = lookups(await scrape(h.t));
    // Every namespace is a series from the start.
    for (const namespace of namespaces) expect(sample(await scrape(h.t), 'read_cache_requests_total', { namespace, result: 'hit' }), namespace).toBeDefined();
    expect((await flows(1, 2)).total_count).toBeGreaterThanOrEqual(4);
    const s1 = lookups(await scrape(h.t));
    // A new filter: the page is rendered (a miss), its id list computed (a miss), both items of the page loaded.
    expect(delta(s0, s1)).toMatchObject({ pages: [0, 1], idLists: [0, 1], items: [0, 2] });

    await flows(2, 2);
    const s2 = lookups(await scrape(h.t));
    // The next page of the same filter: the id list is a hit, the two new items are misses.
    expect(delta(s1, s2)).toMatchObject({ pages: [0, 1], idLists: [1, 0], items: [0, 2] });

    await flows(1, 2);
    const s3 = lookups(await scrape(h.t));
    // A page asked again is one hit of the page namespace, and nothing under it is looked up.
    expect(delta(s2, s3)).toEqual({ snapshots: [0, 0], idLists: [0, 0], items: [0, 0], pages: [1, 0] });

    await flows(1, 4);
    const s4 = lookups(await scrape(h.t));
    // A new page size over the same list: the four items were loaded before, so four hits.
    expect(delta(s3, s4)).toMatchObject({ pages: [0, 1], idLists: [1, 0], items: [4, 0] });
  });

  it('read_cache_requests_total counts the snapshots: a reference table is read whole once per data version', async () => {
    const { apiKey } = await onboardClient(h.t);
    const sports = (page: number) => h.t.as({ apiKey }).get(`/v1/references/sports?page=${page}&page_size=1`);
    const snapshots = (text: string) => [
      count(text, 'read_cache_requests_total', { namespace: 'snapshots', result: 'hit' }),
      count(text, 'read_cache_requests_total', { namespace: 'snapshots', result: 'miss' }),
    ];
    const s0 = snapshots(await scrape(h.t));
    expect((await sports(1)).statusCode).toBe(200);
    const s1 = snapshots(await scrape(h.t));
    // The list's ids read the table (a miss: it is built), then its item loader reads it again (a hit).
    expect([(s1[0] ?? 0) - (s0[0] ?? 0), (s1[1] ?? 0) - (s0[1] ?? 0)]).toEqual([1, 1]);
    expect((await sports(2)).statusCode).toBe(200);
    const s2 = snapshots(await scrape(h.t));
    // The next page: the id list is cached, the one new item's loader reads the table (a hit).
    expect([(s2[0] ?? 0) - (s1[0] ?? 0), (s2[1] ?? 0) - (s1[1] ?? 0)]).toEqual([1, 0]);
  });

  it('read_cache_requests_total counts the client directory: the first call of a key misses, the next ones hit', async () => {
    // The first call misses the key index, whose loader then misses the account index (a key's
    // entry is built from its account); the next two hit the key index.
    const client = await onboardClient(h.t);
    const before = await scrape(h.t);
    for (let i = 0; i < 3; i++) expect((await h.t.as({ apiKey: client.apiKey }).get('/v1/account/config')).statusCode).toBe(200);
    const after = await scrape(h.t);
    const diff = (result: string) =>
      count(after, 'read_cache_requests_total', { namespace: 'clients', result }) - count(before, 'read_cache_requests_total', { namespace: 'clients', result });
    expect([diff('hit'), diff('miss')]).toEqual([2, 2]);
  });

  it('rate_limit_rejections_total counts each 429 of the rate limiter by tier and window, from the first one on', async () => {
    const text = await scrape(h.t);
    expect(text).toContain('# TYPE rate_limit_rejections_total counter');
    expect(text).not.toMatch(/^rate_limit_rejections_total\{/m);
    // One request a minute: the second and third of the same minute (the test's clock stands still) are refused.
    const client = await onboardClient(h.t, { tier: 'free' });
    await h.t.ctx.clients.update(client.clientId, { rateLimitPerMinute: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.t.as({ apiKey: client.apiKey }).get('/v1/account/config')).statusCode);
    expect(statuses).toEqual([200, 429, 429]);
    const after = await scrape(h.t);
    expect(sample(after, 'rate_limit_rejections_total', { tier: 'free', window: 'minute' })).toBe(2);
    expect(sample(after, 'rate_limit_rejections_total', { tier: 'pro', window: 'minute' })).toBeUndefined();
  });

  it('db_pool_wait_seconds observes every query and transaction waiting for its connection', async () => {
    // Every background job is paused (and its run under way awaited), so that only this test's
    // queries count: pausing only the change feed's poll and the webhook dispatcher, which query every
    // second, left the others' timers (the history processors', the usage flush) to query now and then
    // between the two scrapes, and the count was off by one on a loaded machine.
    await h.t.ctx.background.stop();
    const before = count(await scrape(h.t), 'db_pool_wait_seconds_count');
    await h.t.database.db.selectFrom('sports').select('id').execute();
    await h.t.database.db.transaction().execute((trx) => trx.selectFrom('sports').select('id').execute());
    const text = await scrape(h.t);
    await h.t.ctx.background.start(quietLog);
    // One query and one transaction, and nothing else in between that touches the database (a scrape does not).
    expect(count(text, 'db_pool_wait_seconds_count') - before).toBe(2);
    expect(sample(text, 'db_pool_wait_seconds_bucket', { le: '+Inf' })).toBe(count(text, 'db_pool_wait_seconds_count'));
  });

  it("change_feed_lag_seconds measures, on the database's clock, how long another process's change took to be seen", async () => {
    const lag = async () => {
      const text = await scrape(h.t);
      return {
        count: count(text, 'change_feed_lag_seconds_count', { name: 'clients' }),
        upTo1s: count(text, 'change_feed_lag_seconds_bucket', { name: 'clients', le: '1' }),
        upTo2s: count(text, 'change_feed_lag_seconds_bucket', { name: 'clients', le: '2' }),
        upTo5s: count(text, 'change_feed_lag_seconds_bucket', { name: 'clients', le: '5' }),
      };
    };
    // Polls happen here only when the test asks: the timer's could see this process's own change first.
    h.t.ctx.changes.stop();
    const start = await lag();

    // This process's own change is seen at once, and is no other process's lag.
    const client = await onboardClient(h.t);
    await h.t.ctx.changes.poll();
    expect(await lag()).toEqual(start);

    // Another node (a second context over the same database) changes a client; this one polls.
    const other = h.t.otherNode();
    await other.clients.update(client.clientId, { tier: 'enterprise' });
    await h.t.ctx.changes.poll();
    const seen = await lag();
    expect(seen.count - start.count).toBe(1);
    expect(seen.upTo1s - start.upTo1s).toBe(1);

    // A change committed three seconds before the poll (its time written as another node would).
    await sql`update change_versions set version = version + 1, changed_at = changed_at - 3000 where name = 'clients'`.execute(h.t.database.db);
    await h.t.ctx.changes.poll();
    const late = await lag();
    expect(late.count - seen.count).toBe(1);
    expect(late.upTo2s - seen.upTo2s).toBe(0);
    expect(late.upTo5s - seen.upTo5s).toBe(1);
    await h.t.ctx.changes.start(quietLog);
  });
});
