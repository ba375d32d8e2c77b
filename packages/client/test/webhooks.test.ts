import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../test/webhooks/receiver.js';
import { SportsDataClient, SportsDataError } from '../src/index.js';
import { type Server, startServer } from './helpers/server.js';

/** api.webhooks: every method against the real server, typed, with a local receiver for the test message. */
describe('api.webhooks', () => {
  let server: Server;
  let receiver: Receiver;
  let api: SportsDataClient;
  beforeAll(async () => {
    server = await startServer({ env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' } });
    receiver = await startReceiver();
    api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: (await server.t.client({ tier: 'pro' })).apiKey });
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  it('creates, lists, reads, changes, tests, rotates and deletes an endpoint', async () => {
    const kinds = await api.webhooks.eventTypes();
    expect(kinds.results.filter((k) => k.subscribable).map((k) => k.type)).toEqual(['odds.changed', 'board.changed', 'event.updated', 'result.graded', 'edge.found', 'odds.steam', 'odds.drop']);

    const created = await api.webhooks.create({ url: receiver.url, event_types: ['odds.changed', 'edge.found'], filters: { min_edge: 0.03 } });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await api.webhooks.list()).results.map((w) => w.id)).toEqual([created.id]);
    expect(await api.webhooks.get({ id: created.id })).toMatchObject({ id: created.id, url: receiver.url, enabled: true });
    expect(await api.webhooks.update({ id: created.id, enabled: false })).toMatchObject({ enabled: false, disabled_reason: 'client' });

    const tested = await api.webhooks.test({ id: created.id });
    expect(tested).toMatchObject({ success: true, status_code: 204 });
    expect(receiver.received.at(-1)?.headers['webhook-id']).toBe(tested.delivery_id);

    const rotated = await api.webhooks.rotateSecret({ id: created.id });
    expect(rotated.secret).not.toBe(created.secret);
    await expect(api.webhooks.delete({ id: created.id })).resolves.toBeUndefined();
    const missing = await api.webhooks.get({ id: created.id }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SportsDataError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
