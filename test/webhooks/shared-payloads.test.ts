import { describe, expect, it } from 'vitest';
import { purgeOldDeliveries } from '../../src/modules/webhooks/index.js';
import { DAY_MS } from '../../src/platform/time.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { historyDataset } from '../history/fixture.js';
import { addEndpoint, deliveries } from './former-fixture.js';

/**
 * Deliveries of the same changes to several endpoints share their members, stored once (decision
 * 0322): the text is not multiplied by the number of endpoints, and each delivery still reads whole.
 */
describe.each(DIALECTS)('shared webhook payloads (%s)', (dialect) => {
  const t = forSuite(async () => {
    const h = await harness({ dialect, env: { WEBHOOK_BATCH_MAX: '4' } });
    for (const id of ['ep_a', 'ep_b', 'ep_c']) await addEndpoint(h.database.db, id, ['odds.changed']);
    await addEndpoint(h.database.db, 'ep_event200', ['odds.changed'], { filters: { event_ids: [200] } });
    await h.ctx.webhooks.stop();
    return h;
  });
  const db = () => t.database.db;
  const payloadIds = async (endpointId: string) =>
    (await db().selectFrom('webhook_deliveries').select('payload_id').where('endpoint_id', '=', endpointId).orderBy('sequence').execute()).map((row) => Number(row.payload_id));

  it('endpoints told of the same changes share one stored payload per batch; an endpoint told of fewer has its own', async () => {
    await t.import(historyDataset(t.clock.now()));
    await t.ctx.webhookFormer.run();

    const shared = await payloadIds('ep_a');
    expect(shared).toHaveLength(2);
    expect(new Set(shared).size).toBe(2);
    expect(await payloadIds('ep_b')).toEqual(shared);
    expect(await payloadIds('ep_c')).toEqual(shared);
    const own = await payloadIds('ep_event200');
    expect(own.some((id) => shared.includes(id))).toBe(false);
    const stored = await db().selectFrom('webhook_payloads').select('id').execute();
    expect(stored).toHaveLength(shared.length + new Set(own).size);

    // Read back, each delivery is whole: its own sequence first, then the changes it shares.
    const [a, b] = [await deliveries(db(), 'ep_a'), await deliveries(db(), 'ep_b')];
    expect(a.map((d) => d.data)).toEqual(b.map((d) => d.data));
    expect(a.map((d) => d.data.changes?.length)).toEqual([4, 3]);
    expect(a.map((d) => Object.keys(d.data))).toEqual([
      ['sequence', 'changes'],
      ['sequence', 'changes'],
    ]);
  });

  it('a payload is purged once no delivery shares it and it is past the retention, not before', async () => {
    await db().updateTable('webhook_deliveries').set({ state: 'delivered' }).where('endpoint_id', '!=', 'ep_c').execute();
    const purge = () => purgeOldDeliveries({ db: db(), clock: t.clock, retentionDays: t.config.webhookRetentionDays });
    t.clock.set(t.clock.now() + (t.config.webhookRetentionDays + 1) * DAY_MS);
    await purge();
    // ep_c's pending deliveries are kept, and the payloads they share with them.
    const kept = await payloadIds('ep_c');
    expect((await db().selectFrom('webhook_payloads').select('id').orderBy('id').execute()).map((row) => Number(row.id))).toEqual(kept);
    await db().updateTable('webhook_deliveries').set({ state: 'delivered' }).execute();
    await purge();
    expect(await db().selectFrom('webhook_payloads').select('id').execute()).toEqual([]);
  });
});
