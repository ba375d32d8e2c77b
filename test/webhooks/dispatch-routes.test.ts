import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type ErrorBody, forSuite, harness } from '../helpers/harness.js';
import { count, sample, scrape } from '../helpers/metrics.js';
import { insertDelivery, insertEndpoint, type Receiver, startReceiver, statusesThen200, WEBHOOK_ENV } from '../helpers/webhooks.js';

interface DeliveryView {
  id: string;
  sequence: number | null;
  type: string;
  state: string;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
  attempts: Array<{ attempted_at: string; status_code: number | null; latency_ms: number; response_excerpt: string; error: string | null }>;
}

const DAY_MS = 86_400_000;

describe.each(DIALECTS)('webhook deliveries routes, metrics and usage (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect, env: WEBHOOK_ENV });
    // Only the test's own run() sends: its timer's passes, between the test's steps, are not what is measured.
    await h.ctx.webhooks.stop();
    return h;
  });
  let receiver: Receiver;
  let owner: OnboardedClient;
  let stranger: OnboardedClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    owner = await t.client();
    stranger = await t.client();
  });
  afterAll(async () => receiver.close());
  beforeEach(() => {
    receiver.answer = () => 200;
  });

  const run = () => t.ctx.webhooks.run();
  const sequencesAt = (name: string) => receiver.at(name).map((r) => (JSON.parse(r.body) as { data: { sequence: number } }).data.sequence);

  it('pages an endpoint’s deliveries, newest first, each with its attempts', async () => {
    receiver.answer = statusesThen200(500);
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/page`);
    const first = await insertDelivery(t, endpoint.id);
    await insertDelivery(t, endpoint.id);
    await run();
    const page = await t.as(owner).page<DeliveryView>(`/v1/webhooks/${endpoint.id}/deliveries?page_size=1`);
    expect(page).toMatchObject({ total_count: 2, page: 1, page_size: 1, total_pages: 2 });
    const [newest] = page.results;
    expect(newest).toMatchObject({ sequence: 2, type: 'event.updated', state: 'pending', attempts: [] });
    const older = (await t.as(owner).page<DeliveryView>(`/v1/webhooks/${endpoint.id}/deliveries?page=2&page_size=1`)).results[0];
    expect(older).toMatchObject({ id: first.id, sequence: 1, state: 'pending', delivered_at: null });
    expect(older?.next_attempt_at).toEqual(expect.any(String));
    expect(older?.attempts).toEqual([{ attempted_at: expect.any(String), status_code: 500, latency_ms: expect.any(Number), response_excerpt: 'answered 500', error: null }]);
  });

  it('answers 404 for another client’s endpoint and delivery', async () => {
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/private`);
    const delivery = await insertDelivery(t, endpoint.id);
    const list = await t.as(stranger).get<ErrorBody>(`/v1/webhooks/${endpoint.id}/deliveries`);
    expect(list.statusCode).toBe(404);
    expect((await t.as(stranger).post(`/v1/webhooks/${endpoint.id}/replay`, { from_sequence: 1 })).statusCode).toBe(404);
    expect((await t.as(stranger).post(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`)).statusCode).toBe(404);
    expect((await t.as(owner).post(`/v1/webhooks/${endpoint.id}/deliveries/msg_nothing/retry`)).statusCode).toBe(404);
  });

  it('is for pro and up', async () => {
    const free = await t.client({ tier: 'free' });
    const endpoint = await insertEndpoint(t, free.clientId, `${receiver.url}/free`);
    expect((await t.as(free).get(`/v1/webhooks/${endpoint.id}/deliveries`)).statusCode).toBe(403);
  });

  it('replays delivered deliveries in order with their webhook-ids and new signatures', async () => {
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/replay`);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await insertDelivery(t, endpoint.id)).id);
    await run();
    expect(sequencesAt('replay')).toEqual([1, 2, 3]);
    t.clock.set(t.clock.now() + 2_000);
    const res = await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, { from_sequence: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ replayed: 2, first_sequence: 2, last_sequence: 3 });
    await run();
    const got = receiver.at('replay');
    expect(sequencesAt('replay')).toEqual([1, 2, 3, 2, 3]);
    expect(got.slice(3).map((r) => r.headers['webhook-id'])).toEqual(ids.slice(1));
    expect(got[3]?.headers['webhook-timestamp']).not.toBe(got[1]?.headers['webhook-timestamp']);
    for (const r of got) expect(new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>)).toBeTruthy();

    const since = await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, { since: new Date(t.clock.now() - 60_000).toISOString() });
    expect(since.json()).toEqual({ replayed: 3, first_sequence: 1, last_sequence: 3 });
    await run();
    expect(sequencesAt('replay')).toEqual([1, 2, 3, 2, 3, 1, 2, 3]);
  });

  it('answers 422 for a replay outside what is kept', async () => {
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/kept`);
    await insertDelivery(t, endpoint.id, { createdAt: t.clock.now() - 8 * DAY_MS });
    await insertDelivery(t, endpoint.id);
    const old = await t.as(owner).post<ErrorBody>(`/v1/webhooks/${endpoint.id}/replay`, { from_sequence: 1 });
    expect(old.statusCode).toBe(422);
    expect(old.json<ErrorBody>().error.code).toBe('VALIDATION_ERROR');
    const beyond = await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, { from_sequence: 9 });
    expect(beyond.statusCode).toBe(200);
    const since = await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, { since: new Date(t.clock.now() - 8 * DAY_MS).toISOString() });
    expect(since.statusCode).toBe(422);
    expect((await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, { from_sequence: 2 })).statusCode).toBe(200);
    const both = await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, { from_sequence: 2, since: new Date(t.clock.now()).toISOString() });
    expect(both.statusCode).toBe(422);
    expect((await t.as(owner).post(`/v1/webhooks/${endpoint.id}/replay`, {})).statusCode).toBe(422);
  });

  it('retries one delivery now and answers the attempt', async () => {
    receiver.answer = () => 503;
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/retry`);
    const delivery = await insertDelivery(t, endpoint.id);
    await run();
    receiver.answer = () => 204;
    const res = await t.as(owner).post(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ attempted_at: expect.any(String), status_code: 204, latency_ms: expect.any(Number), response_excerpt: '', error: null });
    expect(receiver.at('retry').map((r) => r.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    const row = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', delivery.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('delivered');
  });

  it('answers 409 for a retry while another node holds the delivery', async () => {
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/busy`);
    const delivery = await insertDelivery(t, endpoint.id);
    await t.database.db.updateTable('webhook_deliveries').set({ lease_holder: 'another-node', lease_expires_at: t.clock.now() + 60_000 }).where('id', '=', delivery.id).execute();
    const res = await t.as(owner).post<ErrorBody>(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`);
    expect(res.statusCode).toBe(409);
    expect(receiver.at('busy')).toHaveLength(0);
  });

  it('shows the backlog, outcomes, latency and disabled endpoints in /metrics, with no URL or secret', async () => {
    receiver.answer = () => 410;
    const endpoint = await insertEndpoint(t, owner.clientId, `${receiver.url}/metrics`);
    await insertDelivery(t, endpoint.id);
    const before = await scrape(t);
    await run();
    const text = await scrape(t);
    expect(count(text, 'webhook_deliveries_total', { outcome: 'gone' })).toBe(count(before, 'webhook_deliveries_total', { outcome: 'gone' }) + 1);
    expect(count(text, 'webhook_endpoints_disabled_total', { reason: 'gone' })).toBeGreaterThanOrEqual(1);
    expect(count(text, 'webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThan(0);
    expect(sample(text, 'webhook_delivery_latency_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'webhook_backlog_deliveries')).toBeGreaterThan(0);
    expect(sample(text, 'webhook_outbox_rows')).toBe(0);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(endpoint.secret);
    expect(text).not.toContain(endpoint.id);
  });

  it('counts acknowledged deliveries in the usage answers, beside the requests', async () => {
    const client = await t.client();
    const endpoint = await insertEndpoint(t, client.clientId, `${receiver.url}/usage`);
    for (let i = 0; i < 3; i++) await insertDelivery(t, endpoint.id);
    await run();
    type Usage = { days: Array<{ requests: number; charged: number; webhook_deliveries: number }> };
    const today = (await t.as(client).ok<Usage>('/v1/account/usage')).days.at(-1);
    expect(today?.webhook_deliveries).toBe(3);
    await t.ctx.meter.flush();
    const stored = (await t.admin.ok<Usage>(`/admin/v1/clients/${client.clientId}/usage`)).days.at(-1);
    expect(stored?.webhook_deliveries).toBe(3);
    expect(stored?.requests).toBe(1);
  });
});
