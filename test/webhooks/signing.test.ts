import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { type Received, type Receiver, startReceiver } from './receiver.js';

interface TestResult {
  delivery_id: string;
  success: boolean;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string;
  error: string | null;
}

/** What a receiver does with a message: the `standardwebhooks` package's verify, at the app's (pinned) time. */
function verify(secret: string, message: Received, at: number): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  try {
    return new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

describe.each(DIALECTS)('webhook secrets, signing and the test delivery (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect, env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' } }));
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());

  const newEndpoint = async (c: Caller) => {
    const res = await c.post<{ id: string; secret: string }>('/v1/webhooks', { url: receiver.url, event_types: ['odds.changed'] });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const sendTest = async (c: Caller, id: string) => {
    const before = receiver.received.length;
    const res = await c.post<TestResult>(`/v1/webhooks/${id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(receiver.received).toHaveLength(before + 1);
    return { result: res.json(), message: receiver.received.at(-1) as Received };
  };

  it('a test delivery is signed as Standard Webhooks writes it, verified with the secret, and recorded with its attempt', async () => {
    receiver.status = 204;
    const c = h.as(await h.client({ tier: 'pro' }));
    const { id, secret } = await newEndpoint(c);
    const { result, message } = await sendTest(c, id);
    expect(result).toMatchObject({ success: true, status_code: 204, error: null, response_excerpt: '' });
    expect(result.delivery_id).toMatch(/^msg_[A-Za-z0-9_-]{43}$/);
    expect(message.headers['webhook-id']).toBe(result.delivery_id);
    expect(String(message.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(secret, message, h.clock.now())).toEqual({ type: 'webhook.test', timestamp: new Date(h.clock.now()).toISOString(), data: { endpoint_id: id, message: expect.any(String) } });
    const delivery = await h.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', result.delivery_id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ endpoint_id: id, sequence: null, type: 'webhook.test', state: 'test', attempts: 1, next_attempt_at: null });
    const attempts = await h.database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', result.delivery_id).execute();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ status_code: 204, error: null });
  });

  it('after a rotation both secrets sign for 24 hours, each verifying; then only the new one', async () => {
    receiver.status = 204;
    const c = h.as(await h.client({ tier: 'pro' }));
    const { id, secret: old } = await newEndpoint(c);
    const rotated = await c.post<{ id: string; secret: string; previous_secret_expires_at: string }>(`/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret: fresh, previous_secret_expires_at } = rotated.json();
    expect(fresh).not.toBe(old);
    expect(previous_secret_expires_at).toBe(new Date(h.clock.now() + 24 * 3_600_000).toISOString());
    expect((await c.ok<{ previous_secret_expires_at: string }>(`/v1/webhooks/${id}`)).previous_secret_expires_at).toBe(previous_secret_expires_at);

    const during = (await sendTest(c, id)).message;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [fresh, old]) expect(verify(secret, during, h.clock.now())).toMatchObject({ type: 'webhook.test' });

    h.clock.advance(24 * 3_600_000 + 1);
    const after = (await sendTest(c, id)).message;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(fresh, after, h.clock.now())).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(old, after, h.clock.now())).toThrow(/No matching signature/);
    expect((await c.ok<{ previous_secret_expires_at: string | null }>(`/v1/webhooks/${id}`)).previous_secret_expires_at).toBeNull();
  });

  it('a receiver answering 500: the attempt is recorded and answered, and never retried', async () => {
    receiver.status = 500;
    const c = h.as(await h.client({ tier: 'pro' }));
    const { id } = await newEndpoint(c);
    const { result } = await sendTest(c, id);
    expect(result).toMatchObject({ success: false, status_code: 500, response_excerpt: 'answered 500', error: null });
    const delivery = await h.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', result.delivery_id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ state: 'test', attempts: 1, next_attempt_at: null, delivered_at: null });
    // Never due: a test delivery is neither 'pending' nor given a next attempt, which is all the dispatcher sends.
    receiver.status = 204;
  });

  it('an endpoint that does not answer: the test says why, within the deadline', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const created = await c.post<{ id: string }>('/v1/webhooks', { url: 'http://127.0.0.1:9/closed', event_types: ['odds.changed'] });
    const res = await c.post<TestResult>(`/v1/webhooks/${created.json().id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: false, status_code: null, error: expect.any(String) });
  });

  it('audits every change as the client, never with a secret; no log line holds a secret', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const { id, secret } = await newEndpoint(c);
    expect((await c.patch(`/v1/webhooks/${id}`, { enabled: false })).statusCode).toBe(200);
    expect((await c.patch(`/v1/webhooks/${id}`, { enabled: true, description: 'back' })).statusCode).toBe(200);
    const { secret: rotated } = (await c.post<{ secret: string }>(`/v1/webhooks/${id}/rotate-secret`)).json();
    expect((await c.delete(`/v1/webhooks/${id}`)).statusCode).toBe(204);
    expectError(await c.post(`/v1/webhooks/${id}/rotate-secret`), 404, 'NOT_FOUND');

    const log = (await c.page<{ action: string; actor: { type: string }; before: Record<string, unknown> | null; after: Record<string, unknown> | null }>('/v1/account/audit-log')).results.filter((e) => e.action.startsWith('webhook.'));
    expect(log.map((e) => e.action)).toEqual(['webhook.deleted', 'webhook.secret_rotated', 'webhook.updated', 'webhook.updated', 'webhook.created']);
    const [deleted, rotation, enabled, disabled, created] = log;
    for (const entry of log) expect(entry.actor.type).toBe('client');
    expect(created).toMatchObject({ before: null, after: { id, url: receiver.url, event_types: 'odds.changed', enabled: true } });
    expect(disabled).toMatchObject({ before: { id, enabled: true, disabled_reason: null }, after: { id, enabled: false, disabled_reason: 'client' } });
    expect(enabled).toMatchObject({ before: { enabled: false, description: '' }, after: { enabled: true, description: 'back', disabled_reason: null } });
    expect(rotation).toMatchObject({ before: null, after: { id, previous_secret_expires_at: expect.any(String) } });
    expect(deleted).toMatchObject({ before: { id }, after: null });

    const stored = JSON.stringify(await h.database.db.selectFrom('audit_log').selectAll().execute());
    const logs = h.logs();
    expect(logs).toContain(`/v1/webhooks/${id}/rotate-secret`);
    for (const value of [secret, rotated]) {
      const body = value.slice('whsec_'.length);
      expect(stored).not.toContain(body.slice(0, 16));
      expect(logs).not.toContain(body.slice(0, 16));
    }
  });
});
