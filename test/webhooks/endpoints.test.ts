import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

interface Endpoint {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  filters: Record<string, unknown>;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  secret?: string;
}

const URL_OK = 'https://hooks.example.com/in';
const create = (caller: Caller, body: Record<string, unknown> = {}) => caller.post<Endpoint>('/v1/webhooks', { url: URL_OK, event_types: ['odds.changed'], ...body });

describe.each(DIALECTS)('/v1/webhooks (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect, env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' } }));

  it('creates an endpoint (201) with its secret, shown in that answer only, and sealed at rest', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const res = await create(c, { event_types: ['odds.changed', 'edge.found'], filters: { league_ids: [3], min_edge: 0.02 }, description: 'desk' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ url: URL_OK, event_types: ['odds.changed', 'edge.found'], filters: { league_ids: [3], min_edge: 0.02 }, description: 'desk', enabled: true, disabled_reason: null, disabled_at: null });
    expect(created.id).toMatch(/^ep_[A-Za-z0-9_-]{22}$/);
    const secret = created.secret ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    for (const again of [await c.get(`/v1/webhooks/${created.id}`), await c.get('/v1/webhooks')]) {
      expect(again.statusCode).toBe(200);
      expect(again.body).not.toContain(secret.slice(6));
      expect(again.body).not.toContain('secret_sealed');
    }
    const row = await h.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    expect(row.secret_sealed).not.toContain(secret.slice(6, 20));
    expect(h.ctx.cipher.open(row.secret_sealed)).toBe(secret);
  });

  it('lists, reads, changes and deletes; another client\'s endpoint is 404 to every route', async () => {
    const owner = h.as(await h.client({ tier: 'enterprise' }));
    const other = h.as(await h.client({ tier: 'pro' }));
    const first = (await create(owner)).json();
    h.clock.advance(1);
    const second = (await create(owner, { enabled: false })).json();
    expect(second).toMatchObject({ enabled: false, disabled_reason: 'client' });
    const page = await owner.page<Endpoint>('/v1/webhooks');
    expect(page).toMatchObject({ total_count: 2, page: 1, total_pages: 1 });
    expect(page.results.map((e) => e.id)).toEqual([first.id, second.id]);
    expect((await owner.page<Endpoint>('/v1/webhooks?page=2&page_size=1')).results.map((e) => e.id)).toEqual([second.id]);
    expect((await other.page<Endpoint>('/v1/webhooks')).total_count).toBe(0);

    for (const res of [
      await other.get(`/v1/webhooks/${first.id}`),
      await other.patch(`/v1/webhooks/${first.id}`, { description: 'mine' }),
      await other.delete(`/v1/webhooks/${first.id}`),
      await other.post(`/v1/webhooks/${first.id}/rotate-secret`),
      await other.post(`/v1/webhooks/${first.id}/test`),
      await owner.get('/v1/webhooks/ep_none'),
      // Not of an id's form (a NUL, which PostgreSQL refuses in a text with an error): none, not a 500.
      await owner.get('/v1/webhooks/%00'),
      await owner.post('/v1/webhooks/%00/test'),
      await owner.patch('/v1/webhooks/ep_%00', { description: 'x' }),
      await owner.get('/v1/webhooks/%00/deliveries'),
      await owner.post(`/v1/webhooks/${first.id}/deliveries/msg_%00/retry`),
    ]) {
      expectError(res, 404, 'NOT_FOUND');
    }

    const changed = await owner.patch<Endpoint>(`/v1/webhooks/${first.id}`, { url: 'https://other.example.com/x', event_types: ['board.changed'], filters: { sport_ids: [1] }, description: 'new' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ url: 'https://other.example.com/x', event_types: ['board.changed'], filters: { sport_ids: [1] }, description: 'new', enabled: true });
    expect(changed.json()).not.toHaveProperty('secret');
    expectError(await owner.patch(`/v1/webhooks/${first.id}`, { event_types: [] }), 422, 'VALIDATION_ERROR');
    expectError(await owner.patch(`/v1/webhooks/${first.id}`, { event_types: ['odds.moved'] }), 422, 'VALIDATION_ERROR');
    expectError(await owner.patch(`/v1/webhooks/${first.id}`, {}), 422, 'VALIDATION_ERROR');

    expect((await owner.delete(`/v1/webhooks/${first.id}`)).statusCode).toBe(204);
    expectError(await owner.get(`/v1/webhooks/${first.id}`), 404, 'NOT_FOUND');
    expectError(await owner.delete(`/v1/webhooks/${first.id}`), 404, 'NOT_FOUND');
    expect((await owner.page<Endpoint>('/v1/webhooks')).results.map((e) => e.id)).toEqual([second.id]);
  });

  it('disabling by request says so; enabling clears it and makes the waiting deliveries due now, their attempts counted afresh', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const { id } = (await create(c)).json();
    h.clock.advance(1_000);
    const disabled = (await c.patch<Endpoint>(`/v1/webhooks/${id}`, { enabled: false })).json();
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'client', disabled_at: new Date(h.clock.now()).toISOString() });
    const db = h.database.db;
    const delivery = (n: number, state: string) => ({
      id: `msg_test_${id}_${n}`, endpoint_id: id, sequence: n, type: 'odds.changed', data: `{"sequence":${n}}`, state, attempts: 7,
      next_attempt_at: null, lease_holder: null, lease_expires_at: null, changed_at: 1, created_at: 1, delivered_at: state === 'delivered' ? 2 : null,
    });
    await db.insertInto('webhook_deliveries').values([delivery(1, 'delivered'), delivery(2, 'pending'), delivery(3, 'pending')]).execute();
    // The dispatcher gave up on the endpoint: its messages stay pending, with nothing due.
    await db.updateTable('webhook_endpoints').set({ disabled_reason: 'retries_exhausted' }).where('id', '=', id).execute();
    h.clock.advance(1_000);
    const enabled = await c.patch<Endpoint>(`/v1/webhooks/${id}`, { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    const rows = await db.selectFrom('webhook_deliveries').select(['sequence', 'state', 'attempts', 'next_attempt_at']).where('endpoint_id', '=', id).orderBy('sequence').execute();
    expect(rows.map((r) => ({ ...r, sequence: Number(r.sequence), next_attempt_at: r.next_attempt_at === null ? null : Number(r.next_attempt_at) }))).toEqual([
      { sequence: 1, state: 'delivered', attempts: 7, next_attempt_at: null },
      { sequence: 2, state: 'pending', attempts: 0, next_attempt_at: h.clock.now() },
      { sequence: 3, state: 'pending', attempts: 0, next_attempt_at: h.clock.now() },
    ]);
  });

  it('is for pro and enterprise: a free client is refused with 403, as for the other tiered routes', async () => {
    const free = h.as(await h.client({ tier: 'free' }));
    for (const res of [await create(free), await free.get('/v1/webhooks'), await free.get('/v1/webhook-event-types')]) {
      expectError(res, 403, 'FORBIDDEN');
      expect(res.json<{ error: { message: string } }>().error.message).toMatch(/webhooks.*pro.*enterprise/);
    }
  });

  it('caps the endpoints a client keeps by its tier: the sixth of a pro client is 409; a deleted one makes room', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await create(c);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const sixth = await create(c);
    expectError(sixth, 409, 'CONFLICT');
    expect(sixth.json<{ error: { message: string } }>().error.message).toMatch(/already has 5 webhook endpoints/);
    expect((await c.delete(`/v1/webhooks/${ids[0]}`)).statusCode).toBe(204);
    expect((await create(c)).statusCode).toBe(201);
  });

  it('refuses URLs with user info, inward addresses not allowed, other schemes, or that are no URL (422 naming url)', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    for (const url of ['https://user:pass@hooks.example.com/in', 'https://token@hooks.example.com/in', 'http://10.1.2.3/in', 'https://169.254.169.254/latest', 'http://[::1]/in', 'ftp://hooks.example.com/in', 'hooks.example.com/in', 'https://hooks.example.com/in#frag']) {
      const res = await create(c, { url });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.json<{ error: { details: Array<{ field: string }> } }>().error.details[0]?.field, url).toBe('url');
      expect(res.body).not.toContain('pass@');
    }
    // The allowed range is reachable outside production, over plain http too.
    expect((await create(c, { url: 'http://127.0.0.1:9/in' })).statusCode).toBe(201);
    const { id } = (await create(c)).json();
    expectError(await c.patch(`/v1/webhooks/${id}`, { url: 'http://192.168.1.10/in' }), 422, 'VALIDATION_ERROR');
  });

  it('lists every kind of message with the JSON Schema of its data, and the document holds each request made to an endpoint', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const { results } = await c.ok<{ results: Array<{ type: string; subscribable: boolean; data_schema: { properties: Record<string, unknown> } }> }>('/v1/webhook-event-types');
    expect(results.map((r) => r.type)).toEqual(['odds.changed', 'board.changed', 'event.updated', 'result.graded', 'edge.found', 'odds.steam', 'odds.drop', 'webhook.test']);
    for (const r of results) expect(Object.keys(r.data_schema.properties), r.type).toContain(r.subscribable ? 'sequence' : 'endpoint_id');
    const document = (await h.anonymous.get('/openapi.json')).json<{ webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> }>();
    expect(Object.keys(document.webhooks)).toEqual(results.map((r) => r.type));
    expect(Object.keys(document.webhooks['odds.changed']?.post.requestBody.content['application/json']?.schema.properties ?? {})).toEqual(['type', 'timestamp', 'data']);
  });
});

describe.each(DIALECTS)('/v1/webhooks in production (%s)', (dialect) => {
  const h = forSuite(() => harness({ dialect, env: { NODE_ENV: 'production', ENCRYPTION_KEY: '7a'.repeat(32), DEMO_DATA: 'false', OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' } }));

  it('takes plain http only to an address OUTBOUND_ALLOW_CIDRS names', async () => {
    const c = h.as(await h.client({ tier: 'pro' }));
    const refused = await create(c, { url: 'http://93.184.216.34/in' });
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(refused.json<{ error: { message: string; details: Array<{ rule: string }> } }>().error).toMatchObject({ details: [{ field: 'url', rule: 'https' }] });
    expect((await create(c, { url: 'https://93.184.216.34/in' })).statusCode).toBe(201);
    expect((await create(c, { url: 'http://127.0.0.1:9/in' })).statusCode).toBe(201);
  });
});
