import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { insertDelivery, insertEndpoint, type Receiver, startReceiver, WEBHOOK_ENV } from '../helpers/webhooks.js';

describe.each(DIALECTS)('webhook dispatch on two nodes over one database (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: WEBHOOK_ENV }));
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());

  it('never makes the same attempt twice, and keeps each endpoint in sequence order', async () => {
    const { clientId } = await t.client();
    const other = t.otherNode();
    const endpoints = [];
    for (let e = 0; e < 6; e++) endpoints.push(await insertEndpoint(t, clientId, `${receiver.url}/node-${e}`));
    for (let round = 0; round < 5; round++) for (const endpoint of endpoints) await insertDelivery(t, endpoint.id);
    // Both dispatchers, several passes each at once, racing for the same heads.
    await Promise.all([t.ctx.webhooks.run(), other.webhooks.run(), t.ctx.webhooks.run(), other.webhooks.run()]);
    await Promise.all([t.ctx.webhooks.run(), other.webhooks.run()]);

    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    for (let e = 0; e < 6; e++) {
      expect(receiver.at(`node-${e}`).map((r) => (JSON.parse(r.body) as { data: { sequence: number } }).data.sequence)).toEqual([1, 2, 3, 4, 5]);
    }
    const attempts = await t.database.db.selectFrom('webhook_attempts').select('delivery_id').execute();
    expect(attempts).toHaveLength(30);
  });
});
