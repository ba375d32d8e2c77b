import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookDispatchRepository, newWebhookSecret, RETRY_DELAYS_MS, RETRY_JITTER } from '../../src/modules/webhooks/index.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { randomBytes } from 'node:crypto';
import { insertDelivery, insertEndpoint, type Receiver, reenableEndpoint, sealedSecret, startReceiver, statusesThen200, WEBHOOK_ENV } from '../helpers/webhooks.js';

/** Past the latest a retry after `failures` failures can be due. */
const pastRetry = (failures: number) => Math.ceil((RETRY_DELAYS_MS[failures - 1] ?? 0) * (1 + RETRY_JITTER)) + 1;

describe.each(DIALECTS)('webhook dispatch (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect, env: WEBHOOK_ENV });
    // Only the test's own run() sends: its timer's passes, between the test's steps, are not what is measured.
    await h.ctx.webhooks.stop();
    return h;
  });
  let receiver: Receiver;
  let clientId: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    clientId = (await t.client()).clientId;
  });
  afterAll(async () => receiver.close());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer = () => 200;
  });

  const run = () => t.ctx.webhooks.run();
  const advance = (ms: number) => t.clock.set(t.clock.now() + ms);
  const sequences = (name: string) => receiver.at(name).map((r) => (JSON.parse(r.body) as { data: { sequence: number } }).data.sequence);

  it('signs every delivery as the Standard Webhooks library verifies, and it rejects a tampered body and a stale timestamp', async () => {
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/signed`);
    const first = await insertDelivery(t, endpoint.id);
    await run();
    expect(receiver.at('signed')).toHaveLength(1);
    const [got] = receiver.at('signed');
    if (got === undefined) throw new Error('nothing received');
    const verifier = new Webhook(endpoint.secret);
    const headers = got.headers as Record<string, string>;
    expect(verifier.verify(got.body, headers)).toMatchObject({ type: 'event.updated', data: { sequence: 1 } });
    expect(headers['webhook-id']).toBe(first.id);
    expect(() => verifier.verify(got.body.replace('"status"', '"score"'), headers)).toThrow();
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => verifier.verify(got.body, stale)).toThrow();
    const row = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'delivered', lease_holder: null });
    expect(Number(row.delivered_at)).toBe(t.clock.now());
  });

  it('signs with the previous secret too while it has not expired', async () => {
    const previous = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/rotation`, { previousSecret: previous, previousExpiresAt: t.clock.now() + 60_000 });
    await insertDelivery(t, endpoint.id);
    await run();
    const [got] = receiver.at('rotation');
    if (got === undefined) throw new Error('nothing received');
    expect(new Webhook(previous).verify(got.body, got.headers as Record<string, string>)).toBeTruthy();
    expect(new Webhook(endpoint.secret).verify(got.body, got.headers as Record<string, string>)).toBeTruthy();
  });

  // Before any test moves the clock on: a receiver refuses a timestamp far from its own clock.
  it('signs with a secret rotated since its last delivery, not the one it signed with before', async () => {
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/resealed`);
    await insertDelivery(t, endpoint.id);
    await run();
    const fresh = newWebhookSecret(randomBytes);
    await t.database.db.updateTable('webhook_endpoints').set({ secret_sealed: sealedSecret(fresh) }).where('id', '=', endpoint.id).execute();
    await insertDelivery(t, endpoint.id);
    await run();
    const [before, after] = receiver.at('resealed');
    if (before === undefined || after === undefined) throw new Error('not both received');
    expect(new Webhook(endpoint.secret).verify(before.body, before.headers as Record<string, string>)).toBeTruthy();
    expect(new Webhook(fresh).verify(after.body, after.headers as Record<string, string>)).toBeTruthy();
    expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
  });

  it('retries a 500 on the schedule with the same webhook-id, and sends later deliveries only after it', async () => {
    receiver.answer = statusesThen200(500, 500);
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/retried`);
    const head = await insertDelivery(t, endpoint.id);
    await insertDelivery(t, endpoint.id);
    await run();
    expect(sequences('retried')).toEqual([1]);
    advance(pastRetry(1));
    await run();
    expect(sequences('retried')).toEqual([1, 1]);
    // Not yet due: nothing is sent, the later one waits behind the head.
    await run();
    expect(sequences('retried')).toEqual([1, 1]);
    advance(pastRetry(2));
    await run();
    expect(sequences('retried')).toEqual([1, 1, 1, 2]);
    expect(new Set(receiver.at('retried').slice(0, 3).map((r) => r.headers['webhook-id']))).toEqual(new Set([head.id]));
    for (const got of receiver.at('retried')) expect(new Webhook(endpoint.secret).verify(got.body, got.headers as Record<string, string>)).toBeTruthy();
    const attempts = await t.database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', head.id).orderBy('id').execute();
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(attempts[0]?.response_excerpt).toBe('answered 500');
  });

  it('keeps every sequence in order while the receiver is down, and sends them all once it is up', async () => {
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/down`);
    await receiver.down();
    for (let i = 0; i < 3; i++) await insertDelivery(t, endpoint.id);
    await run();
    advance(pastRetry(1));
    await run();
    const failed = await t.database.db.selectFrom('webhook_attempts').innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id').select(['sequence', 'error', 'status_code']).where('endpoint_id', '=', endpoint.id).execute();
    expect(failed.map((a) => Number(a.sequence))).toEqual([1, 1]);
    expect(failed.every((a) => a.status_code === null && a.error !== null)).toBe(true);
    await receiver.up();
    advance(pastRetry(2));
    await run();
    expect(sequences('down')).toEqual([1, 2, 3]);
  });

  it('disables an endpoint that answers 410 at once, with an audit entry, and sends it nothing more', async () => {
    receiver.answer = () => 410;
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/gone`);
    await insertDelivery(t, endpoint.id);
    await insertDelivery(t, endpoint.id);
    await run();
    expect(receiver.at('gone')).toHaveLength(1);
    const row = await t.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 0, disabled_reason: 'gone' });
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('client_id', '=', clientId).where('action', '=', 'webhook.disabled').execute();
    expect(audit.some((entry) => entry.after?.includes(endpoint.id) === true && entry.after.includes('"gone"'))).toBe(true);
    advance(pastRetry(1));
    await run();
    expect(receiver.at('gone')).toHaveLength(1);
  });

  it('treats a redirect as a failure and never follows it', async () => {
    receiver.answer = statusesThen200(302);
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/redirect`);
    const head = await insertDelivery(t, endpoint.id);
    await run();
    expect(receiver.at('redirect')).toHaveLength(1);
    const row = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', head.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
  });

  it('disables the endpoint and audits when the schedule is spent, and re-enabling resumes where it stopped', async () => {
    receiver.answer = () => 503;
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/exhausted`);
    const head = await insertDelivery(t, endpoint.id);
    await insertDelivery(t, endpoint.id);
    await run();
    let spent = 0;
    for (let failures = 1; failures <= RETRY_DELAYS_MS.length; failures++) {
      spent += pastRetry(failures);
      advance(pastRetry(failures));
      await run();
    }
    expect(spent).toBeGreaterThan(24 * 3_600_000);
    expect(receiver.at('exhausted')).toHaveLength(RETRY_DELAYS_MS.length + 1);
    const delivery = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', head.id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ state: 'pending', next_attempt_at: null });
    const row = await t.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 0, disabled_reason: 'retries_exhausted' });
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'webhook.disabled').execute();
    expect(audit.some((entry) => entry.after?.includes(endpoint.id) === true && entry.after.includes('retries_exhausted'))).toBe(true);

    receiver.received.length = 0;
    receiver.answer = () => 200;
    await reenableEndpoint(t, endpoint.id);
    await run();
    expect(sequences('exhausted')).toEqual([1, 2]);
    expect(receiver.at('exhausted')[0]?.headers['webhook-id']).toBe(head.id);
  });

  it('does not take a delivery whose lease another node holds until the lease expires', async () => {
    const endpoint = await insertEndpoint(t, clientId, `${receiver.url}/leased`);
    const head = await insertDelivery(t, endpoint.id);
    const expires = t.clock.now() + 60_000;
    await t.database.db.updateTable('webhook_deliveries').set({ lease_holder: 'another-node', lease_expires_at: expires }).where('id', '=', head.id).execute();
    await run();
    expect(receiver.at('leased')).toHaveLength(0);
    t.clock.set(expires);
    await run();
    expect(receiver.at('leased')).toHaveLength(1);
    expect(receiver.at('leased')[0]?.headers['webhook-id']).toBe(head.id);
  });

  it('settles attempts that end together each with its own verdict: the delivered ones delivered, a failed one on its schedule', async () => {
    receiver.answer = (got) => (got.path.endsWith('/together-failing') ? 500 : 200);
    const names = ['together-a', 'together-b', 'together-failing'];
    const endpoints = await Promise.all(names.map((name) => insertEndpoint(t, clientId, `${receiver.url}/${name}`)));
    for (const endpoint of endpoints) for (let i = 0; i < 2; i++) await insertDelivery(t, endpoint.id);
    await run();
    expect(sequences('together-a')).toEqual([1, 2]);
    expect(sequences('together-b')).toEqual([1, 2]);
    expect(sequences('together-failing')).toEqual([1]);
    const rows = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', 'in', endpoints.map((e) => e.id)).orderBy('endpoint_id').orderBy('sequence').execute();
    const [failing] = endpoints.slice(-1);
    for (const row of rows.filter((r) => r.endpoint_id !== failing?.id)) {
      expect(row).toMatchObject({ state: 'delivered', attempts: 1, lease_holder: null, lease_expires_at: null, next_attempt_at: null });
      expect(Number(row.delivered_at)).toBe(t.clock.now());
    }
    const held = rows.filter((r) => r.endpoint_id === failing?.id);
    expect(held.map((r) => [r.state, Number(r.attempts), r.lease_holder])).toEqual([
      ['pending', 1, null],
      ['pending', 0, null],
    ]);
    expect(Number(held[0]?.next_attempt_at)).toBeGreaterThan(t.clock.now());
  });

  it('a settling of several delivered attempts gives each its own time, and leaves one whose lease it no longer holds as it is', async () => {
    const repository = createWebhookDispatchRepository(t.database.db);
    const endpoints = await Promise.all(['own-a', 'own-b', 'own-c'].map((name) => insertEndpoint(t, clientId, `${receiver.url}/${name}`)));
    for (const endpoint of endpoints) await insertDelivery(t, endpoint.id);
    const now = t.clock.now();
    const heads = (await repository.dueHeads(now, [], 1_000)).filter(({ endpoint }) => endpoints.some((e) => e.id === endpoint.id));
    expect(heads).toHaveLength(3);
    const ids = heads.map(({ delivery }) => delivery.id);
    expect(await repository.claim(ids, 'this-node', now, now + 60_000)).toEqual(new Set(ids));
    // The third's lease expired and another node took it meanwhile.
    await t.database.db.updateTable('webhook_deliveries').set({ lease_holder: 'another-node' }).where('id', '=', ids[2] ?? '').execute();
    await repository.settle(
      heads.map(({ delivery, endpoint }, i) => ({
        delivery,
        endpoint,
        holder: 'this-node',
        outcome: { attemptedAt: now + 10 * (i + 1), statusCode: 200, latencyMs: 1, responseExcerpt: '', error: null },
        verdict: { kind: 'delivered' as const },
      })),
    );
    const rows = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(ids.map((id) => byId.get(id)?.state)).toEqual(['delivered', 'delivered', 'pending']);
    expect(ids.map((id) => Number(byId.get(id)?.delivered_at ?? 0))).toEqual([now + 10, now + 20, 0]);
    expect(ids.map((id) => Number(byId.get(id)?.attempts))).toEqual([1, 1, 0]);
    expect(byId.get(ids[2] ?? '')?.lease_holder).toBe('another-node');
  });
});
