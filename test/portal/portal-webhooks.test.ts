import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { type Receiver, startReceiver, WEBHOOK_ENV } from '../helpers/webhooks.js';
import { sessionCall, sessionOf, signIn, type WebSession } from './web-session.js';

interface Endpoint {
  id: string;
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  secret?: string;
}

/**
 * The portal's webhooks section calls /portal/webhooks… and /portal/webhook-event-types, which run
 * the client's /v1/webhooks… and /v1/webhook-event-types through its session: every webhook route,
 * with the CSRF token for a change, the API's own tier rule, and nothing outside them.
 */
describe.each(DIALECTS)('client portal: the webhook routes through the session (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect, env: WEBHOOK_ENV }));
  let receiver: Receiver;
  let client: OnboardedClient;
  let s: WebSession;

  beforeAll(async () => {
    receiver = await startReceiver();
    client = await h.client({ tier: 'pro' });
    s = sessionOf(await signIn(h, '/portal/session', { api_key: client.apiKey }), 'portal_session');
  });
  afterAll(async () => receiver?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, options: { csrf?: boolean; body?: object } = {}) => sessionCall(h, s, method, url, options);

  it('runs every webhook route as the client, with its answers as they are: create, list, read, change, test, rotate, deliveries, replay, retry, delete, the event types', async () => {
    const types = await call('GET', '/portal/webhook-event-types', { csrf: false });
    expect(types.statusCode, types.body).toBe(200);
    expect(types.json()).toEqual((await h.as(client).get('/v1/webhook-event-types')).json());

    const created = await call('POST', '/portal/webhooks', { body: { url: `${receiver.url}/portal`, event_types: ['odds.changed'], description: 'through the portal' } });
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = created.json<Endpoint>();
    expect(endpoint.secret).toMatch(/^whsec_/);
    const one = `/portal/webhooks/${endpoint.id}`;

    // Reads need no CSRF token, as the account's do not: they change nothing and spend no day.
    const listed = await call('GET', '/portal/webhooks?page_size=10', { csrf: false });
    expect(listed.json<{ results: Endpoint[] }>().results.map((e) => e.id)).toEqual([endpoint.id]);
    expect((await call('GET', one, { csrf: false })).json()).toEqual((await h.as(client).get(`/v1/webhooks/${endpoint.id}`)).json());

    const tested = await call('POST', `${one}/test`);
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json()).toMatchObject({ success: true, status_code: 200, response_excerpt: 'answered 200' });
    expect(receiver.at('portal')).toHaveLength(1);

    const rotated = await call('POST', `${one}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json<{ secret: string }>().secret).not.toBe(endpoint.secret);

    const disabled = await call('PATCH', one, { body: { enabled: false } });
    expect(disabled.json()).toMatchObject({ enabled: false, disabled_reason: 'client' });

    const deliveries = await call('GET', `${one}/deliveries?page_size=5`, { csrf: false });
    expect(deliveries.statusCode, deliveries.body).toBe(200);
    expect(deliveries.json()).toMatchObject({ total_count: 1, results: [{ type: 'webhook.test', state: 'test' }] });
    // The API's own answers come back as they are: a replay from before what is kept is 422 (a test message has no
    // sequence), a test message is never sent again (409), an unknown delivery is 404.
    expectError(await call('POST', `${one}/replay`, { body: { from_sequence: 1 } }), 422, 'VALIDATION_ERROR', { field: 'from_sequence', rule: 'retention' });
    const testId = deliveries.json<{ results: Array<{ id: string }> }>().results[0]?.id ?? '';
    expectError(await call('POST', `${one}/deliveries/${testId}/retry`), 409, 'CONFLICT');
    expectError(await call('POST', `${one}/deliveries/msg_none/retry`), 404, 'NOT_FOUND');

    expect((await call('DELETE', one)).statusCode).toBe(204);
    expectError(await call('GET', one, { csrf: false }), 404, 'NOT_FOUND');
    // Each of these was the client's own account call, in its usage like any other.
    await h.ctx.meter.flush();
    const usage = await h.as(client).ok<{ days: Array<{ by_group: Record<string, number> }> }>('/v1/account/usage');
    expect(usage.days.at(-1)?.by_group.account).toBeGreaterThanOrEqual(14);
  });

  it('refuses a change without the session’s CSRF token, and changes nothing', async () => {
    const endpoint = (await h.as(client).post('/v1/webhooks', { url: `${receiver.url}/csrf`, event_types: ['event.updated'] })).json<Endpoint>();
    const one = `/portal/webhooks/${endpoint.id}`;
    const before = receiver.received.length;
    for (const [method, url, body] of [
      ['POST', '/portal/webhooks', { url: `${receiver.url}/forged`, event_types: ['odds.changed'] }],
      ['PATCH', one, { enabled: false }],
      ['POST', `${one}/test`, undefined],
      ['POST', `${one}/rotate-secret`, undefined],
      ['POST', `${one}/replay`, { from_sequence: 1 }],
      ['DELETE', one, undefined],
    ] as const) {
      expectError(await call(method, url, { csrf: false, ...(body === undefined ? {} : { body }) }), 403, 'FORBIDDEN');
      expectError(await sessionCall(h, { ...s, csrf: 'forged' }, method, url, body === undefined ? {} : { body }), 403, 'FORBIDDEN');
    }
    expect(receiver.received.length).toBe(before);
    const after = await h.as(client).get<Endpoint & { previous_secret_expires_at: string | null }>(`/v1/webhooks/${endpoint.id}`);
    expect(after.json()).toMatchObject({ enabled: true, previous_secret_expires_at: null });
    expect((await h.as(client).page<Endpoint>('/v1/webhooks')).results.map((e) => e.url)).not.toContain(`${receiver.url}/forged`);
    // Without a session at all, a read is 401.
    expectError(await h.anonymous.get('/portal/webhooks'), 401, 'UNAUTHORIZED');
  });

  it('routes nothing else: no other method, nothing under the event types, no path of /v1 beside them', async () => {
    for (const [method, url] of [
      ['PUT', '/portal/webhooks/ep_x'],
      ['PATCH', '/portal/webhooks'],
      ['DELETE', '/portal/webhooks'],
      ['POST', '/portal/webhook-event-types'],
      ['GET', '/portal/webhook-event-types/odds.changed'],
      ['GET', '/portal/webhooksx'],
      ['GET', '/portal/references/sports'],
    ] as const) {
      const res = await h.anonymous.request({ method, url, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
      // 404 for a path no route has, 405 for a method its path has no route for: either way nothing is run.
      expect([404, 405], `${method} ${url}: ${res.statusCode}`).toContain(res.statusCode);
    }
    // Under /portal/webhooks/ the path stays under /v1/webhooks/: what is not a webhook route is the API's own 404.
    expectError(await call('GET', '/portal/webhooks/ep_x/anything', { csrf: false }), 404, 'NOT_FOUND');
  });

  it("keeps the API's tier rule: a free client is told webhooks are not for its tier (403), and nothing is made", async () => {
    const free = await h.client({ tier: 'free' });
    const freeSession = sessionOf(await signIn(h, '/portal/session', { api_key: free.apiKey }), 'portal_session');
    const refused = expectError(await sessionCall(h, freeSession, 'GET', '/portal/webhooks', { csrf: false }), 403, 'FORBIDDEN');
    expect(refused.message).toMatch(/webhooks is for the pro and enterprise tiers; this client is on the free tier/);
    expectError(await sessionCall(h, freeSession, 'POST', '/portal/webhooks', { body: { url: `${receiver.url}/free`, event_types: ['odds.changed'] } }), 403, 'FORBIDDEN');
    expectError(await sessionCall(h, freeSession, 'GET', '/portal/webhook-event-types', { csrf: false }), 403, 'FORBIDDEN');
    const stored = await h.database.db.selectFrom('webhook_endpoints').select('id').where('client_id', '=', free.clientId).execute();
    expect(stored).toEqual([]);
  });
});
